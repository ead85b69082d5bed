/**
 * `dialect eval` against real rust-analyzer on a copy of the Rust fixture: exit codes 0/1/2/3,
 * `--json` shapes, programs from stdin, and no language server left running afterwards.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutcomeJson } from '../../dialect/index.js';
import { positionOf } from '../../ide-adapter/test/support/servers.js';
import { childEnv, copyFixture, processesIn, requireFreshBuild, runDialect, rustAnalyzerAvailable, tempDir } from './support/cli.js';

const available = await rustAnalyzerAvailable();
const TIMEOUT = 150_000;

describe.runIf(available)('dialect eval on the Rust fixture', () => {
  let fixture: Awaited<ReturnType<typeof copyFixture>>;
  let state: Awaited<ReturnType<typeof tempDir>>;
  let env: Record<string, string>;
  const at = async (path: string, needle: string, nth = 0) => positionOf(await readFile(join(fixture.root, path), 'utf8'), needle, nth);
  const evaluate = (args: string[], input?: string) => runDialect(['eval', ...args, '--workspace', fixture.root], { env, ...(input !== undefined ? { input } : {}) });

  beforeAll(async () => {
    requireFreshBuild();
    fixture = await copyFixture('rust-app');
    state = await tempDir('dialect-eval-state-');
    env = await childEnv(state.path);
  });
  afterAll(async () => {
    await fixture?.dispose();
    await state?.dispose();
  });

  it(
    'prints a value as path:line:column lines and exits 0, leaving no server behind',
    async () => {
      const r = await evaluate(['findReferences("MAX_TASKS")']);
      expect(r.stderr).not.toMatch(/error/);
      expect(r.code).toBe(0);
      const use = await at('src/config.rs', 'use crate::MAX_TASKS');
      const col = use.column + 'use crate::'.length;
      expect(r.stdout).toContain(`src/config.rs:${use.line}:${col}  use crate::MAX_TASKS;`);
      const decl = await at('src/lib.rs', 'MAX_TASKS');
      expect(r.stdout).toMatch(new RegExp(`^4 references to constant MAX_TASKS \\(src/lib\\.rs:${decl.line}:${decl.column}\\):`));
      expect(processesIn(fixture.root)).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'reads the program from stdin with "-" and prints only JSON with --json',
    async () => {
      const r = await evaluate(['-', '--json'], '// the program comes from stdin\nfindDefinitions(\n  "User"\n)\n');
      expect(r.code).toBe(0);
      const json = JSON.parse(r.stdout) as OutcomeJson;
      expect(json.kind).toBe('value');
      const user = await at('src/model.rs', 'User {');
      expect(json).toMatchObject({ kind: 'value', value: [{ name: 'User', kind: 'struct', definedAt: { path: 'src/model.rs', start: { line: user.line, column: user.column } } }] });
      expect(Array.isArray(json.notes)).toBe(true);
    },
    TIMEOUT,
  );

  it(
    'exits 2 for an ambiguity, whose refinement programs each give a value (exit 0)',
    async () => {
      const r = await evaluate(['findDefinition("validate_token")', '--json']);
      expect(r.code).toBe(2);
      const json = JSON.parse(r.stdout) as OutcomeJson;
      if (json.kind !== 'ambiguity') throw new Error(r.stdout);
      expect(json.message).toContain('validate_token');
      expect(json.refinements.map((x) => x.program)).toEqual([
        'findDefinition("validate_token", file: "src/auth.rs")',
        'findDefinition("validate_token", file: "src/util.rs")',
      ]);
      const chosen = await evaluate([json.refinements[1]?.program ?? '']);
      expect(chosen.code).toBe(0);
      const def = await at('src/util.rs', 'fn validate_token');
      expect(chosen.stdout).toContain(`function validate_token  src/util.rs:${def.line}:${def.column + 3}  pub fn validate_token(token: &str) -> bool {`);
    },
    TIMEOUT,
  );

  it(
    'exits 1 for an evaluation error, rendered on stderr with nothing on stdout',
    async () => {
      const r = await evaluate(['findDefinition("no_such_symbol_anywhere")']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/error\[[a-z-]+\]: .*no_such_symbol_anywhere/);
      expect(r.stderr).toContain('1 | findDefinition("no_such_symbol_anywhere")');
    },
    TIMEOUT,
  );

  it('exits 1 for a syntax error, with the caret snippet, and its JSON has the diagnostics', async () => {
    const r = await evaluate(['findDefinitions("User"']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error[unclosed-call]: expected `)` to close the call to `findDefinitions`');
    expect(r.stderr).toMatch(/1 \| findDefinitions\("User"\n\s+\|\s+-\s+\^ expected `\)`/);
    const json = await evaluate(['findDefinitions("User"', '--json']);
    expect(json.code).toBe(1);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toMatchObject({
      kind: 'error',
      error: { code: 'syntax-error', message: expect.any(String) as unknown, range: { start: { line: 1, column: 23 } }, diagnostics: [{ code: 'unclosed-call' }] },
      rendered: expect.stringContaining('error[unclosed-call]') as unknown,
      notes: [],
    });
  });

  it('answers text searches without a language server', async () => {
    await writeFile(join(fixture.root, 'notes.txt'), 'fn validate in a note\n');
    const r = await evaluate(['search(".", `fn\\s+validate`, ".txt")']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('notes.txt:1:1  fn validate in a note');
  });

  it(
    'stops at --timeout with a deadline error (exit 1) when a query runs too long',
    async () => {
      await writeFile(join(fixture.root, 'long.txt'), `${'a'.repeat(40)}!\n`);
      const r = await evaluate(['search("long.txt", "(a+)+$")', '--timeout', '2', '--json']);
      expect(r.code).toBe(1);
      const json = JSON.parse(r.stdout) as OutcomeJson;
      // The error names the --timeout the user gave, not an unrounded remainder of it.
      expect(json).toMatchObject({ kind: 'error', error: { code: 'deadline-exceeded', message: 'the evaluation did not finish within the 2.0 s --timeout' } });
      expect(r.ms).toBeLessThan(15_000);
    },
    TIMEOUT,
  );
});
