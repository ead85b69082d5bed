/**
 * `diagnostics` against the real servers, on copies of the fixtures to which the test adds a file
 * with a deliberate type error (the shared fixtures stay error-free for every other test).
 * Expected positions are computed from the added text.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../model.js';
import { presentValue } from '../present.js';
import { openFixtureSession, serversAvailable, type FixtureSession } from './support/session.js';
import { positionOf } from './support/servers.js';

const rustAvailable = await serversAvailable('rust');
const tsAvailable = await serversAvailable('typescript');

const RUST_BROKEN = 'src/broken.rs';
const RUST_BROKEN_TEXT = '/// A deliberate type error for the diagnostics tests.\npub fn broken() -> u32 {\n    "not a number"\n}\n';
const TS_BROKEN = 'src/broken.ts';
const TS_BROKEN_TEXT = '// A deliberate type error for the diagnostics tests.\nexport const broken: number = "not a number";\n';

/** Where a diagnostic starts, as `line:column`. */
const startOf = (d: Diagnostic): string => `${d.start.line}:${d.start.column}`;

describe.skipIf(!rustAvailable)('diagnostics from rust-analyzer (a copy of fixtures/rust-app with an error)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('rust-app', async (root) => {
      await writeFile(join(root, RUST_BROKEN), RUST_BROKEN_TEXT);
      const lib = join(root, 'src/lib.rs');
      await writeFile(lib, `${await readFile(lib, 'utf8')}\npub mod broken;\n`);
    });
  });
  afterAll(async () => {
    await f?.dispose();
  });

  it('a file: the type error with its place, message, code and source', async () => {
    const list = (await f.value(`diagnostics("${RUST_BROKEN}")`)) as Diagnostic[];
    const error = list.find((d) => d.code === 'E0308');
    expect(error).toBeDefined();
    expect(error?.severity).toBe('error');
    expect(error?.source).toBe('rust-analyzer');
    expect(error?.path).toBe(RUST_BROKEN);
    const at = positionOf(RUST_BROKEN_TEXT, '"not a number"');
    expect(startOf(error as Diagnostic)).toBe(`${at.line}:${at.column}`);
    expect(error?.message).toMatch(/expected u32/);
    expect(error?.content).toContain('"not a number"');
    expect(presentValue(list)).toContain(`${RUST_BROKEN}:${at.line}:${at.column}  error[E0308]: expected u32`);
  });

  it('the severity filter, and a clean file', async () => {
    expect(((await f.value(`diagnostics("${RUST_BROKEN}", severity: "warning")`)) as Diagnostic[]).filter((d) => d.code === 'E0308')).toEqual([]);
    expect(((await f.value(`diagnostics("${RUST_BROKEN}", severity: ["error"])`)) as Diagnostic[]).map((d) => d.code)).toContain('E0308');
    expect(await f.value('diagnostics("src/model.rs", severity: "error")')).toEqual([]);
    const bad = await f.outcome('diagnostics(severity: "fatal")');
    expect(bad.kind === 'error' && bad.error.code).toBe('unknown-severity');
  });

  it('without a path: the files the server has analysed, with a note saying so', async () => {
    await f.value(`diagnostics("${RUST_BROKEN}")`); // the server has now analysed it
    const o = await f.outcome('diagnostics(severity: "error")');
    if (o.kind !== 'value') throw new Error(`expected a value, got ${o.kind}`);
    expect((o.value as Diagnostic[]).map((d) => `${d.path} ${d.code ?? ''}`)).toContain(`${RUST_BROKEN} E0308`);
    expect(o.notes.join('\n')).toMatch(/covers only the \d+ files? the language servers have analysed/);
    // A folder narrows the same list.
    expect(((await f.value('diagnostics("src/storage", severity: "error")')) as Diagnostic[]).some((d) => d.path === RUST_BROKEN)).toBe(false);
  });

  it('a folder is analysed on request: the same answer whatever was asked before', async () => {
    // Nothing has opened src/broken.rs in this fresh session: the folder's answer still has its error.
    const fresh = await openFixtureSession('rust-app', async (root) => {
      await writeFile(join(root, RUST_BROKEN), RUST_BROKEN_TEXT);
      const lib = join(root, 'src/lib.rs');
      await writeFile(lib, `${await readFile(lib, 'utf8')}\npub mod broken;\n`);
    });
    try {
      const o = await fresh.outcome('diagnostics("src", severity: "error")');
      if (o.kind !== 'value') throw new Error(`expected a value, got ${o.kind}`);
      expect((o.value as Diagnostic[]).map((d) => `${d.path} ${d.code ?? ''}`)).toContain(`${RUST_BROKEN} E0308`);
      expect(o.notes.join('\n')).not.toMatch(/covers only/);
    } finally {
      await fresh.dispose();
    }
  });

  it('a diagnostic is a location: lines() shows its code', async () => {
    const code = (await f.value(`lines(pick(diagnostics("${RUST_BROKEN}", severity: "error"), 1))`)) as { text: string };
    expect(code.text).toContain('"not a number"');
  });
});

describe.skipIf(!tsAvailable)('diagnostics from the TypeScript server (a copy of fixtures/ts-app with an error)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('ts-app', async (root) => {
      await writeFile(join(root, TS_BROKEN), TS_BROKEN_TEXT);
    });
  });
  afterAll(async () => {
    await f?.dispose();
  });

  it('a file: the type error with its place, message, code and source', async () => {
    const list = (await f.value(`diagnostics("${TS_BROKEN}", severity: "error")`)) as Diagnostic[];
    expect(list).toHaveLength(1);
    const [error] = list as [Diagnostic];
    expect(error.code).toBe('2322');
    expect(error.source).toBe('ts');
    expect(error.message).toContain("Type 'string' is not assignable to type 'number'");
    const at = positionOf(TS_BROKEN_TEXT, 'broken:');
    expect(startOf(error)).toBe(`${at.line}:${at.column}`);
    expect(await f.value('diagnostics("src/model.ts")')).toEqual([]);
  });

  it('without a path: includes the analysed file', async () => {
    await f.value(`diagnostics("${TS_BROKEN}")`);
    const list = (await f.value('diagnostics()')) as Diagnostic[];
    expect(list.map((d) => `${d.path}:${startOf(d)} ${d.code ?? ''}`)).toContain(`${TS_BROKEN}:${positionOf(TS_BROKEN_TEXT, 'broken:').line}:${positionOf(TS_BROKEN_TEXT, 'broken:').column} 2322`);
  });
});
