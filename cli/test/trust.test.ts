/**
 * Workspace trust through the real `dialect` command: `trust`, `trust --list`, `untrust`, and what
 * an untrusted workspace holds back — a `dialect.json` server (a script that leaves a marker file
 * whenever it runs, even for its `--version` probe) runs only with `--trust` or the trust store.
 * Every run gets its own XDG_CONFIG_HOME, so the trust store is the test's.
 */
import { existsSync, statSync } from 'node:fs';
import { chmod, mkdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdeRegistry } from '../../ide-adapter/index.js';
import { bin, childEnv, requireFreshBuild, runDialect, tempDir } from './support/cli.js';

interface JsonOutcome {
  readonly kind: string;
  readonly notes: readonly string[];
  readonly error?: { readonly code: string; readonly message: string };
}

describe('workspace trust', () => {
  let base: Awaited<ReturnType<typeof tempDir>>;
  let env: Record<string, string>;
  let storeFile: string;
  beforeAll(async () => {
    requireFreshBuild();
    base = await tempDir('dialect-trust-');
    env = await childEnv(join(base.path, 'state'));
    storeFile = join(env['XDG_CONFIG_HOME'] as string, 'dialect', 'trusted.json');
  });
  afterAll(() => base?.dispose());

  /** A workspace whose dialect.json names a server that writes `marker` (with its arguments) when run. */
  async function evilWorkspace(name: string): Promise<{ root: string; marker: string }> {
    const root = join(base.path, name);
    await mkdir(root, { recursive: true });
    const marker = join(base.path, `${name}.marker`);
    const script = join(root, 'evil-server.sh');
    await writeFile(script, `#!/bin/sh\necho "ran $*" >> '${marker}'\necho "evil 1.0"\n`);
    await chmod(script, 0o755);
    await writeFile(join(root, 'notes.evil'), 'x\n');
    const config = { servers: [{ id: 'evil', command: script, languages: [{ languageId: 'evil', extensions: ['.evil'] }], filePatterns: ['*.evil'] }] };
    await writeFile(join(root, 'dialect.json'), JSON.stringify(config));
    return { root: await realpath(root), marker };
  }

  const evalJson = async (root: string, program: string, extra: readonly string[] = []): Promise<JsonOutcome> => {
    const r = await runDialect(['eval', program, '--workspace', root, '--json', ...extra], { env, timeoutMs: 60_000 });
    expect(r.stderr).toBe('');
    return JSON.parse(r.stdout) as JsonOutcome;
  };

  it('trust, trust --list and untrust keep real paths in a private store; a trusted folder covers its subfolders', async () => {
    const project = join(base.path, 'project');
    await mkdir(join(project, 'sub'), { recursive: true });
    const link = join(base.path, 'link-to-project');
    await symlink(project, link);
    const real = await realpath(project);

    let r = await runDialect(['trust', '--list'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('no trusted folders');

    r = await runDialect(['trust', link], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`trusted ${real}\n`);
    expect(statSync(storeFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(storeFile, 'utf8'))).toMatchObject({ trusted: [real] });

    // The default folder is the current directory; a folder below a trusted one is already trusted.
    r = await runDialect(['trust'], { env, cwd: join(project, 'sub') });
    expect(r.stdout).toBe(`trusted ${real}/sub (it was already trusted through ${real})\n`);
    r = await runDialect(['trust', '--list'], { env });
    expect(r.stdout).toBe(`${real}\n${real}/sub\n`);

    // Untrusting the subfolder leaves it trusted through its parent, and says so.
    r = await runDialect(['untrust', join(project, 'sub')], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`untrusted ${real}/sub\n`);
    expect(r.stderr).toContain(`still trusted through ${real}`);
    r = await runDialect(['untrust', link], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`untrusted ${real}\n`);
    r = await runDialect(['trust', '--list'], { env });
    expect(r.stdout).toBe('');

    r = await runDialect(['trust', join(base.path, 'missing')], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('is not an existing folder');
    // Nothing half-written is left next to the store.
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(join(env['XDG_CONFIG_HOME'] as string, 'dialect'))).toEqual(['trusted.json']);
  }, 60_000);

  it('never runs a dialect.json server in an untrusted workspace, not even its version probe, and says how to trust it', async () => {
    const { root, marker } = await evilWorkspace('untrusted');
    const outcome = await evalJson(root, 'findDefinitions("x")');
    expect(outcome.kind).toBe('value');
    expect(existsSync(marker)).toBe(false);
    const notes = outcome.notes.filter((n) => n.startsWith('untrusted workspace'));
    expect(notes).toEqual([`untrusted workspace: the servers of dialect.json were not started (evil). To trust it: dialect trust ${root}`]);
  }, 60_000);

  it('runs it with --trust, and after dialect trust (the test can fail: the marker appears)', async () => {
    const { root, marker } = await evilWorkspace('trusted');
    let outcome = await evalJson(root, 'findDefinitions("x")', ['--trust']);
    expect(existsSync(marker)).toBe(true);
    expect(await readFile(marker, 'utf8')).toContain('ran --version');
    expect(outcome.notes.some((n) => n.startsWith('untrusted workspace'))).toBe(false);

    await rm(marker);
    const r = await runDialect(['trust', root], { env });
    expect(r.code).toBe(0);
    outcome = await evalJson(root, 'findDefinitions("x")');
    expect(existsSync(marker)).toBe(true);
    expect(outcome.notes.some((n) => n.startsWith('untrusted workspace'))).toBe(false);
    await runDialect(['untrust', root], { env });
  }, 60_000);

  it('dialect mcp --trust trusts the workspace for the MCP server (as an MCP client config would start it)', async () => {
    const ask = async (root: string, extra: readonly string[]): Promise<string> => {
      const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '--workspace', root, ...extra], env, stderr: 'ignore' });
      const client = new Client({ name: 'trust-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const result = (await client.callTool({ name: 'ide_operation', arguments: { program: 'findDefinitions("x")' } })) as { content: { type: string; text?: string }[] };
        return result.content.map((c) => c.text ?? '').join('\n');
      } finally {
        await client.close();
      }
    };
    const untrusted = await evilWorkspace('mcp-untrusted');
    expect(await ask(untrusted.root, [])).toContain(`untrusted workspace: the servers of dialect.json were not started (evil). To trust it: dialect trust ${untrusted.root}`);
    expect(existsSync(untrusted.marker)).toBe(false);
    const trusted = await evilWorkspace('mcp-trusted');
    expect(await ask(trusted.root, ['--trust'])).not.toContain('untrusted workspace');
    expect(existsSync(trusted.marker)).toBe(true);
  }, 90_000);

  it('cannot be granted by an agent: no Dialect function changes trust', async () => {
    const { root, marker } = await evilWorkspace('agent');
    // Every function the language has (and so every function ide_operation can call) is listed here.
    const names = createIdeRegistry().functions.map((f) => f.name);
    expect(names.filter((n) => /trust/i.test(n))).toEqual([]);
    const outcome = await evalJson(root, 'trust(".")');
    expect(outcome.kind).toBe('error');
    expect(outcome.error?.code).toBe('unknown-function');
    expect(existsSync(storeFile) ? (JSON.parse(await readFile(storeFile, 'utf8')) as { trusted: string[] }).trusted : []).not.toContain(root);
    expect(existsSync(marker)).toBe(false);
  }, 60_000);

  it('reports a DIALECT_RUST_ANALYZER that names a missing or broken program as an error', async () => {
    const root = join(base.path, 'crate');
    await mkdir(join(root, 'src'), { recursive: true });
    await writeFile(join(root, 'Cargo.toml'), '[package]\nname = "c"\nversion = "0.1.0"\nedition = "2021"\n');
    await writeFile(join(root, 'src', 'main.rs'), 'fn main() {}\n');
    const missing = join(base.path, 'no-such-rust-analyzer');
    let r = await runDialect(['eval', 'findDefinitions("main")', '--workspace', root], { env: { ...env, DIALECT_RUST_ANALYZER: missing }, timeoutMs: 60_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`DIALECT_RUST_ANALYZER names ${missing}, which is not a working rust-analyzer (no such executable)`);
    const broken = join(base.path, 'broken-rust-analyzer.sh');
    await writeFile(broken, '#!/bin/sh\necho "cannot start" >&2\nexit 2\n');
    await chmod(broken, 0o755);
    r = await runDialect(['eval', 'findDefinitions("main")', '--workspace', root], { env: { ...env, DIALECT_RUST_ANALYZER: broken }, timeoutMs: 60_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`DIALECT_RUST_ANALYZER names ${broken}, which is not a working rust-analyzer (exit code 2: cannot start)`);
    const web = join(base.path, 'web');
    await mkdir(web, { recursive: true });
    await writeFile(join(web, 'tsconfig.json'), '{}');
    await writeFile(join(web, 'index.ts'), 'export const answer = 42;\n');
    r = await runDialect(['eval', 'findDefinitions("answer")', '--workspace', web], { env: { ...env, DIALECT_TS_SERVER: missing }, timeoutMs: 60_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`DIALECT_TS_SERVER names ${missing}, which is not a working TypeScript (tsgo) (no such executable)`);
  }, 90_000);
});
