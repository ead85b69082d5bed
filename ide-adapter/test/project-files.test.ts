/**
 * The project files a server reads whole (`lsp/project-files.ts`), checked before it starts: a
 * `tsconfig.json` linked to `/dev/zero` (which made tsgo grow past 3 GB), one too large, a FIFO
 * named by `extends`, and a `Cargo.toml` linked out keep the server from starting, with the file
 * and the reason (pyright's `pyrightconfig.json` and `pyproject.toml` too); an `extends` out of
 * the workspace is allowed only when it is trusted; ordinary
 * projects (comments, trailing commas, package `extends`) start as before.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isLspClientError } from '../lsp/errors.js';
import { ServerPool } from '../lsp/pool.js';
import { MAX_PROJECT_FILE_BYTES } from '../lsp/project-files.js';
import { builtinServers } from '../languages/index.js';
import { pythonServer } from '../languages/python/index.js';
import { rustAnalyzerServer } from '../languages/rust/index.js';
import { typeScriptServer } from '../languages/typescript/index.js';
import { startVerdict } from '../lsp/start-checks.js';
import { restrictServers } from '../lsp/untrusted.js';
import { requireServer } from './support/servers.js';

const ts = await requireServer(typeScriptServer);

let dirs: string[] = [];
const pools: ServerPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.shutdown()));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  dirs = [];
});

/** A workspace (under a parent folder that can hold files "outside" it) with `files`. */
async function workspace(files: Record<string, string>): Promise<{ root: string; outside: string }> {
  const parent = await mkdtemp(join(tmpdir(), 'dialect-project-files-'));
  dirs.push(parent);
  const root = join(parent, 'ws');
  const outside = join(parent, 'outside');
  await mkdir(outside, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return { root, outside };
}

/** Starts the TypeScript server of `root` through a pool; the error, or undefined when it started. */
async function startTypeScript(root: string, trusted = true): Promise<unknown> {
  const pool = new ServerPool(root, { definitions: restrictServers(builtinServers(), trusted) });
  pools.push(pool);
  return pool.server('typescript').then(
    () => undefined,
    (e: unknown) => e,
  );
}

/** Why the server of `definition` must not start in `root` (the start's verdict), if it must not. */
const refusalOf = async (definition: typeof typeScriptServer, root: string): Promise<string | undefined> => (await startVerdict(definition, root)).refusal;

const SOURCE = { 'src/index.ts': 'export const x = 1;\n' };

describe.skipIf(ts === undefined)('project files are checked before a server starts', () => {
  it('refuses a tsconfig.json linked to /dev/zero, saying which file and why, and starts no process', async () => {
    const { root } = await workspace(SOURCE);
    await symlink('/dev/zero', join(root, 'tsconfig.json'));
    const pool = new ServerPool(root, { definitions: builtinServers() });
    pools.push(pool);
    const error = await pool.server('typescript').catch((e: unknown) => e);
    expect(isLspClientError(error, 'server-refused'), String(error)).toBe(true);
    expect((error as Error).message).toMatch(/^TypeScript \(tsgo\) was not started: tsconfig\.json leads outside the workspace \(to \/dev\/zero\)/);
    expect(pool.servers().find((s) => s.id === 'typescript')).toMatchObject({ state: 'unavailable' });
    expect(pool.servers().every((s) => s.pid === undefined)).toBe(true);
  });

  it('refuses an oversized tsconfig.json and a FIFO named by extends in a project folder', async () => {
    const big = await workspace({ ...SOURCE, 'tsconfig.json': `{"compilerOptions": {}, "files": ["${'a'.repeat(MAX_PROJECT_FILE_BYTES)}"]}` });
    expect(String(await startTypeScript(big.root))).toMatch(/tsconfig\.json is larger than 1024 KiB \(MAX_PROJECT_FILE_BYTES\)/);

    const fifo = await workspace({ ...SOURCE, 'packages/a/tsconfig.json': '{ // a project\n "extends": "./base", }\n', 'packages/a/src/a.ts': 'export {};\n' });
    execFileSync('mkfifo', [join(fifo.root, 'packages/a/base.json')]);
    expect(String(await startTypeScript(fifo.root))).toMatch(/packages\/a\/base\.json is not a regular file/);
  });

  it('checks every extends of a monorepo of many packages, not only the first few (a FIFO named by the 40th package)', async () => {
    const packages = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [
        [`packages/p${i}/tsconfig.json`, `{ "extends": "./tsconfig.build.json" }`],
        [`packages/p${i}/src/index.ts`, 'export {};\n'],
        ...(i < 39 ? [[`packages/p${i}/tsconfig.build.json`, '{ "compilerOptions": { "strict": true } }']] : []),
      ]).flat(),
    ) as Record<string, string>;
    const { root } = await workspace({ ...SOURCE, ...packages });
    execFileSync('mkfifo', [join(root, 'packages/p39/tsconfig.build.json')]);
    expect(await refusalOf(typeScriptServer, root)).toMatch(/packages\/p39\/tsconfig\.build\.json is not a regular file \(a FIFO/);
  });

  it('follows extends through configurations of any name: a FIFO, or (untrusted) a file outside, two links down is refused', async () => {
    const chained = await workspace({ ...SOURCE, 'tsconfig.json': '{ "extends": "./configs/base.json" }', 'configs/base.json': '{ "extends": "./strict" }' });
    execFileSync('mkfifo', [join(chained.root, 'configs/strict.json')]);
    expect(await refusalOf(typeScriptServer, chained.root)).toMatch(/configs\/strict\.json is not a regular file \(a FIFO/);

    const { root, outside } = await workspace({ ...SOURCE, 'tsconfig.json': '{ "extends": "./tsconfig.base.json" }', 'tsconfig.base.json': '{ "extends": "../outside/base.json" }' });
    await writeFile(join(outside, 'base.json'), '{"compilerOptions": {"strict": true}}');
    const untrusted = restrictServers([typeScriptServer], false)[0] ?? typeScriptServer;
    expect(await refusalOf(untrusted, root)).toMatch(/outside\/base\.json is outside this untrusted workspace \(named by an `extends`\)/);
    expect(await refusalOf(typeScriptServer, root)).toBeUndefined();
  });

  it('allows an extends out of the workspace only when it is trusted', async () => {
    const { root, outside } = await workspace({ ...SOURCE, 'tsconfig.json': '{"extends": "../outside/base.json"}' });
    await writeFile(join(outside, 'base.json'), '{"compilerOptions": {"strict": true}}');
    expect(String(await startTypeScript(root, false))).toMatch(/outside\/base\.json is outside this untrusted workspace \(named by an `extends`\)/);
    expect(await startTypeScript(root, true)).toBeUndefined();
  }, 60_000);

  it('starts as before on ordinary projects: comments, trailing commas, a package extends inside', async () => {
    const { root } = await workspace({
      ...SOURCE,
      'tsconfig.json': '{\n  // strict\n  "extends": ["@base/config/tsconfig.json", "./tsconfig.more.json"],\n  "compilerOptions": { "strict": true, /* yes */ },\n}\n',
      'tsconfig.more.json': '{"compilerOptions": {"noEmit": true,},}',
      'node_modules/@base/config/tsconfig.json': '{"compilerOptions": {"target": "es2022"}}',
    });
    expect(await startTypeScript(root, false)).toBeUndefined();
  }, 60_000);

  it('refuses a Cargo.toml linked out of the workspace for rust-analyzer', async () => {
    const { root, outside } = await workspace({ 'src/lib.rs': 'pub fn f() {}\n' });
    await writeFile(join(outside, 'Cargo.toml'), '[package]\nname = "x"\nversion = "0.1.0"\n');
    await symlink(join(outside, 'Cargo.toml'), join(root, 'Cargo.toml'));
    expect(await refusalOf(rustAnalyzerServer, root)).toMatch(/^rust-analyzer was not started: Cargo\.toml leads outside the workspace/);
  });

  it("refuses pyright's configuration as a FIFO (pyright read it and held every answer to the deadline), and, untrusted, an extends out of the workspace", async () => {
    const fifo = await workspace({ 'm.py': 'def hello():\n    return 1\n' });
    execFileSync('mkfifo', [join(fifo.root, 'pyrightconfig.json')]);
    expect(await refusalOf(pythonServer, fifo.root)).toMatch(/^Python \(pyright\) was not started: pyrightconfig\.json is not a regular file \(a FIFO/);

    const { root, outside } = await workspace({ 'm.py': '', 'pyrightconfig.json': '{ "extends": "../outside/base.json" }', 'pyproject.toml': '[project]\nname = "m"\n' });
    await writeFile(join(outside, 'base.json'), '{ "include": ["."] }');
    const untrusted = restrictServers([pythonServer], false)[0] ?? pythonServer;
    expect(untrusted.projectFilesConfined).toBe(true);
    expect(await refusalOf(untrusted, root)).toMatch(/outside\/base\.json is outside this untrusted workspace \(named by an `extends`\)/);
    expect(await refusalOf(pythonServer, root)).toBeUndefined();
  });
});
