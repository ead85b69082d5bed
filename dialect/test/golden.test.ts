/**
 * Golden diagnostics: each `golden/syntax/NAME.dialect` is parsed and its rendered diagnostics are
 * compared with `NAME.txt`. The expected files are reviewed by eye; regenerate them on purpose
 * with `UPDATE_GOLDEN=1 npx vitest run dialect/test/golden.test.ts` and read the diff.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, renderDiagnostic } from '../index.js';

const dir = join(import.meta.dirname, 'golden', 'syntax');
const update = process.env['UPDATE_GOLDEN'] === '1';

describe('golden syntax diagnostics', () => {
  const inputs = readdirSync(dir).filter((f) => f.endsWith('.dialect')).sort();
  it('has cases', () => expect(inputs.length).toBeGreaterThan(40));
  for (const file of inputs) {
    it(file, () => {
      const text = readFileSync(join(dir, file), 'utf8');
      const result = parse(text);
      expect(result.ok, 'every golden input is an error case').toBe(false);
      const rendered = `${result.diagnostics.map((d) => renderDiagnostic(d, result.source)).join('\n\n')}\n`;
      const expectedFile = join(dir, file.replace(/\.dialect$/, '.txt'));
      if (update || !existsSync(expectedFile)) writeFileSync(expectedFile, rendered);
      expect(rendered).toBe(readFileSync(expectedFile, 'utf8'));
    });
  }
});
