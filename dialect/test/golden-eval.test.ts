/**
 * Golden evaluation outcomes: each `golden/eval/NAME.dialect` runs against the demo registry and
 * its rendered outcome is compared with `NAME.txt` (errors with carets, ambiguities as numbered
 * refinements). Regenerate on purpose with UPDATE_GOLDEN=1 and review the diff.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Interpreter, renderOutcome } from '../index.js';
import { demoHost, demoRegistry } from './support/demo-registry.js';

const dir = join(import.meta.dirname, 'golden', 'eval');
const update = process.env['UPDATE_GOLDEN'] === '1';
const interpreter = new Interpreter(demoRegistry());

describe('golden evaluation outcomes', () => {
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.dialect')).sort()) {
    it(file, async () => {
      const outcome = await interpreter.evaluate(readFileSync(join(dir, file), 'utf8'), { host: demoHost() });
      expect(outcome.kind, 'golden inputs are errors or ambiguities').not.toBe('value');
      const rendered = `${renderOutcome(outcome)}\n`;
      const expectedFile = join(dir, file.replace(/\.dialect$/, '.txt'));
      if (update || !existsSync(expectedFile)) writeFileSync(expectedFile, rendered);
      expect(rendered).toBe(readFileSync(expectedFile, 'utf8'));
    });
  }
});
