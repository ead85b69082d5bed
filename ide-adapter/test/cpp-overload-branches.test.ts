/**
 * The note on uses in preprocessor branches clangd skips is made once, from the answers of every
 * overload joined (seen on leethomason/tinyxml2: `findReferences(findDefinitions("SetAttribute"))`
 * gave six notes, one per overload asked, each naming its siblings' uses in xmltest.cpp's
 * `#if 1` block — listed by the answer — beside the one use really skipped, under `#if 0`).
 * Real clangd on a copy of fixtures/cpp-app with a source that calls both `scale` overloads in a
 * branch taken and one in a branch not taken.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clangdAvailable, openClangdSession } from './support/clangd.js';
import type { FixtureSession } from './support/session.js';

const available = await clangdAvailable();

const SCALED_CPP = [
  '#include "geo/math.h"',
  '',
  'int scaled_total() {',
  '#if 1',
  '  int whole = geo::math::scale(2, 3);',
  '  double real = geo::math::scale(2.0, 3.0);',
  '#endif',
  '#if 0',
  '  whole += geo::math::scale(5, 5); /* skipped */',
  '#endif',
  '  return whole + static_cast<int>(real);',
  '}',
  '',
].join('\n');

describe.runIf(available)('uses of overloads in preprocessor branches (real clangd, fixtures/cpp-app)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openClangdSession('cpp-app', (root) => writeFile(join(root, 'src', 'scaled.cpp'), SCALED_CPP));
  }, 180_000);
  afterAll(async () => {
    await f?.dispose();
  });

  it('one note, naming only the use no overload’s answer lists', async () => {
    const lines = SCALED_CPP.split('\n');
    const line = (text: string): number => lines.findIndex((l) => l.includes(text)) + 1;
    const o = await f.outcome('findReferences("geo::math::scale")');
    if (o.kind !== 'value') throw new Error(`expected a value, got ${o.kind}`);
    const uses = (o.value as { referencedAt: { path: string; start: { line: number } } }[]).filter((r) => r.referencedAt.path === 'src/scaled.cpp').map((r) => r.referencedAt.start.line);
    expect(uses).toEqual([line('scale(2, 3)'), line('scale(2.0, 3.0)')]);
    expect(o.notes.filter((n) => n.includes('preprocessor'))).toEqual([
      `clangd skips preprocessor branches not taken: "scale" is also written in one at src/scaled.cpp:${line('/* skipped */')}; search(".", "\\\\bscale\\\\b") finds every mention`,
    ]);
  });
});
