/**
 * The go command ignores folders whose name begins with `_` or `.`, and `testdata`: gopls
 * analyses none of their files, so a references answer misses the uses written there (seen on
 * go-chi/chi: `findReferences(findDefinition("NewRouter"))` listed 101 uses and said nothing of
 * the 15 in `_examples/`). The answer names them in one note. Real gopls on a copy of
 * fixtures/go-app with an example program under `_examples/` and a Go file under `testdata/`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goplsServer } from '../languages/go/index.js';
import { requireServer } from './support/servers.js';
import { openFixtureSession, type FixtureSession } from './support/session.js';

const available = (await requireServer(goplsServer)) !== undefined;

const EXAMPLE = ['package main', '', 'import "example.com/goapp/store"', '', 'func main() {', '\tmem := store.NewMemStore() // an example', '\t_ = mem', '}', ''].join('\n');
const GOLDEN = ['package golden', '', '// NewMemStore is named in a comment only here.', 'var _ = "NewMemStore"', ''].join('\n');

describe.runIf(available)('uses in folders the go command ignores (real gopls, fixtures/go-app)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('go-app', async (root) => {
      await mkdir(join(root, '_examples', 'hello'), { recursive: true });
      await writeFile(join(root, '_examples', 'hello', 'main.go'), EXAMPLE);
      await mkdir(join(root, 'store', 'testdata'), { recursive: true });
      await writeFile(join(root, 'store', 'testdata', 'golden.go'), GOLDEN);
    });
  });
  afterAll(async () => {
    await f?.dispose();
  });

  it('the answer lists the module’s uses and names, in one note, the mentions in code outside the build', async () => {
    const o = await f.outcome('findReferences(findDefinition("NewMemStore"))');
    if (o.kind !== 'value') throw new Error(`expected a value, got ${o.kind}`);
    const paths = (o.value as { referencedAt: { path: string } }[]).map((r) => r.referencedAt.path);
    expect(paths).toContain('cmd/goapp/main.go');
    const line = EXAMPLE.split('\n').findIndex((l) => l.includes('store.NewMemStore()')) + 1;
    const golden = GOLDEN.split('\n').findIndex((l) => l.includes('"NewMemStore"')) + 1;
    const notes = o.notes.filter((n) => n.includes('ignores'));
    expect(notes, o.notes.join('\n')).toEqual([
      `gopls does not analyse folders the go command ignores (_x, .x, testdata): "NewMemStore" is also written at _examples/hello/main.go:${line}, store/testdata/golden.go:${golden}; search(".", "\\\\bNewMemStore\\\\b") finds every mention`,
    ]);
  });
});
