/**
 * Callers and callees are cut like every other list (real tsgo on a copy of fixtures/ts-app with a
 * generated file of many callers): a cut answer says how many there are and names the `page(…)`
 * program of its next part, and that page shows its callers with their call sites — never a bare
 * "… and N more" an agent cannot follow.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_BUDGET } from '../paging.js';
import { presentOutcome } from '../present.js';
import { openFixtureSession, serversAvailable, type FixtureSession } from './support/session.js';

const available = await serversAvailable('typescript');
/** More callers than one answer shows. */
const CALLERS = LIST_BUDGET.items + 30;
const FILE = 'src/many-callers.ts';

describe.skipIf(!available)('a function with more callers than one answer shows (tsgo)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('ts-app', async (root) => {
      const callers = Array.from({ length: CALLERS }, (_, i) => `export function caller${i}(): number {\n  return pagedTarget(${i});\n}`);
      await writeFile(join(root, FILE), [`export function pagedTarget(n: number): number {\n  return n;\n}`, ...callers].join('\n'));
    });
  }, 180_000);
  afterAll(async () => {
    await f?.dispose();
  });

  it('says how many there are and names the next page, which shows the rest with their call sites', async () => {
    const program = 'callers(findDefinition("pagedTarget"))';
    const first = await f.outcome(program);
    expect(first.kind).toBe('value');
    const text = presentOutcome(first);
    const footer = text.split('\n').find((l) => l.startsWith('… '));
    expect(footer, text.slice(-400)).toMatch(new RegExp(`^… (\\d+) of ${CALLERS} shown; next: (page\\(.+\\))$`));
    const [, shownText, next] = /^… (\d+) of \d+ shown; next: (page\(.+\))$/.exec(footer ?? '') ?? [];
    const shown = Number(shownText);
    expect(shown).toBeLessThan(CALLERS);
    expect(text).not.toMatch(/and \d+ more/);
    // Every caller shown comes with the line of its call.
    expect(text.match(/^ {2}function caller\d+ /gm)?.length).toBe(shown);
    expect(text.match(/^ {6}call at src\/many-callers\.ts:\d+:\d+ {2}return pagedTarget\(/gm)?.length).toBe(shown);

    const page = await f.outcome(next ?? '');
    expect(page.kind).toBe('value');
    const rest = presentOutcome(page);
    expect(rest).toContain(`… items ${shown + 1}–${CALLERS} of ${CALLERS}; the last page`);
    expect(rest.match(/call at src\/many-callers\.ts:\d+:\d+ {2}return pagedTarget\(/g)?.length).toBe(CALLERS - shown);
    // Together the two answers name every caller once.
    const names = [...text.matchAll(/function (caller\d+) /g), ...rest.matchAll(/function (caller\d+) /g)].map((m) => m[1]);
    expect(new Set(names).size).toBe(CALLERS);
  }, 120_000);
});
