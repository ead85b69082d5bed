/** `dialect tour`: the scripted tour on the bundled fixture (what `npm start` runs) and on a given workspace. */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serversAvailable } from '../../ide-adapter/test/support/session.js';
import { stripAnsi } from '../terminal.js';
import { childEnv, copyFixture, processesIn, requireFreshBuild, runDialect, rustAnalyzerAvailable, tempDir } from './support/cli.js';

const rust = await rustAnalyzerAvailable();
const typescript = await serversAvailable('typescript');

describe('dialect tour', () => {
  let state: Awaited<ReturnType<typeof tempDir>>;
  let env: Record<string, string>;
  beforeAll(async () => {
    requireFreshBuild();
    state = await tempDir('dialect-tour-state-');
    env = await childEnv(state.path);
  });
  afterAll(() => state?.dispose());

  it.runIf(rust)(
    'tours a temporary copy of the bundled Rust fixture, untrusted: definitions, references, search, an ambiguity and its refinement',
    async () => {
      const r = await runDialect(['tour'], { env, timeoutMs: 120_000 });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const out = stripAnsi(r.stdout);
      expect(out).toMatch(/^Dialect tour · the bundled Rust fixture \(fixtures\/rust-app, copied to (\S+)\)/);
      expect(out).toMatch(/✓ rust-analyzer ready after [\d.]+ m?s/);
      const steps = [
        ['findDefinitions("User")', /struct User {2}src\/model\.rs:\d+:\d+ {2}pub struct User \{/],
        ['findReferences("MAX_TASKS")', /4 references to constant MAX_TASKS/],
        ['search("src", `fn\\s+validate`)', /src\/util\.rs:\d+:\d+ {2}pub fn validate_token\(token: &str\) -> bool \{/],
        ['findDefinition("validate_token")', /ambiguous: "validate_token" is defined in 2 places/],
        ['findDefinition("validate_token", file: "src/util.rs")', /function validate_token {2}src\/util\.rs:\d+:\d+/],
        ['findReferences(findDefinition("validate_token", file: "src/util.rs"))', /3 references to function validate_token/],
        ['getSymbolInfo("Task::complete")', /Marks the task as done\./],
      ] as const;
      let from = 0;
      for (const [program, result] of steps) {
        const at = out.indexOf(`› ${program}\n`, from);
        expect(at, program).toBeGreaterThan(from);
        expect(out.slice(at)).toMatch(result);
        from = at;
      }
      expect(out).toContain('Next:');
      // It runs untrusted (the test's trust store is empty): rust-analyzer without build scripts and
      // proc macros, said once.
      expect(out.split('untrusted workspace: rust-analyzer runs without build scripts, proc macros and cargo check').length - 1).toBe(1);
      // The copy is gone, and so are the servers that ran in it.
      const copy = /copied to (\S+)\)/.exec(out)?.[1] ?? '';
      expect(copy).not.toBe('');
      expect(existsSync(copy)).toBe(false);
    },
    150_000,
  );

  it.runIf(typescript)(
    'picks its programs from a workspace it is given (the TypeScript fixture)',
    async () => {
      const fixture = await copyFixture('ts-app');
      try {
        const r = await runDialect(['tour', '--workspace', fixture.root], { env, timeoutMs: 120_000 });
        expect(r.code).toBe(0);
        const out = stripAnsi(r.stdout);
        expect(out).toContain('› findFiles("*.ts")');
        expect(out).toMatch(/› documentSymbols\("src\/\w+\.ts"\)/);
        expect(out).toMatch(/› findReferences\(findDefinitions\("\w+", file: "src\/\w+\.ts"\)\)/);
        expect(out).toMatch(/ambiguous: "\w+" is defined in 2 places/);
        expect(out).toContain(`--workspace ${fixture.root}`);
        expect(processesIn(fixture.root)).toEqual([]);
      } finally {
        await fixture.dispose();
      }
    },
    150_000,
  );
});
