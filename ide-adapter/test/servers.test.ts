/** Server definitions, workspace detection and binary discovery (no long-running servers). */
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearDiscoveryCache, findServerBinary, launchCommand, probeCandidate } from '../lsp/discovery.js';
import { isLspClientError } from '../lsp/errors.js';
import { RingLog } from '../lsp/ring-log.js';
import { bundledTypeScriptServer, typeScriptServer } from '../languages/typescript/index.js';
import { defineServer, detectServers, languageFor, withSettings, type ServerDefinition } from '../lsp/servers.js';
import { rustAnalyzerServer } from '../languages/rust/index.js';
import { builtinServers, withBuiltinServers } from '../languages/index.js';
import { fakeServerScript, fixture } from './support/servers.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dialect-servers-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function script(name: string, body: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}

describe('detectServers', () => {
  const ids = async (root: string, extra: ServerDefinition[] = []) => (await detectServers(root, withBuiltinServers(extra))).map((d) => d.definition.id);

  it('picks rust-analyzer for a Cargo workspace and tsgo for a TypeScript project', async () => {
    expect(await ids(fixture('rust-app'))).toEqual(['rust-analyzer']);
    expect(await ids(fixture('ts-app'))).toEqual(['typescript']);
  });

  it('gives a polyglot workspace several servers, with the files that gave them away', async () => {
    const detected = await detectServers(fixture('polyglot'), builtinServers());
    const evidence = (id: string): readonly string[] | undefined => detected.find((d) => d.definition.id === id)?.evidence;
    expect(detected.map((d) => d.definition.id)).toEqual(expect.arrayContaining(['rust-analyzer', 'typescript']));
    expect(evidence('rust-analyzer')).toEqual(['Cargo.toml']);
    expect(evidence('typescript')).toEqual(expect.arrayContaining(['web/package.json', 'web/tsconfig.json']));
  });

  it('looks two levels deep only and skips build output', async () => {
    const root = join(dir, 'nested');
    await mkdir(join(root, 'a', 'b'), { recursive: true });
    await mkdir(join(root, 'target'), { recursive: true });
    await mkdir(join(root, 'node_modules', 'x'), { recursive: true });
    await writeFile(join(root, 'a', 'b', 'Cargo.toml'), '');
    await writeFile(join(root, 'target', 'Cargo.toml'), '');
    await writeFile(join(root, 'node_modules', 'x', 'package.json'), '{}');
    expect(await ids(root)).toEqual([]);
    await writeFile(join(root, 'a', 'Cargo.toml'), '');
    expect(await ids(root)).toEqual(['rust-analyzer']);
  });

  it('detects custom servers by file pattern, ahead of built-ins for the same language', async () => {
    const root = join(dir, 'py');
    await mkdir(join(root, 'pkg'), { recursive: true });
    await writeFile(join(root, 'pkg', 'main.py'), 'print(1)\n');
    // A custom Python server takes the language over from the built-in pyright.
    const myPython = defineServer({ id: 'my-python', command: 'my-python-server', languages: [{ languageId: 'python', extensions: ['.py'] }], filePatterns: ['*.py', '*/*.py'] });
    expect(await ids(root, [myPython])).toEqual(['my-python']);
    expect(await ids(root)).toEqual(['pyright']);
    const myTs = defineServer({ id: 'my-ts', command: 'my-ts-server', languages: [{ languageId: 'typescript', extensions: ['ts'] }], rootMarkers: ['tsconfig.json'] });
    // The built-in still serves the languages the custom server does not claim (JavaScript, TSX).
    const detected = await detectServers(fixture('ts-app'), withBuiltinServers([myTs]));
    expect(detected.map((d) => d.definition.id)).toEqual(['my-ts', 'typescript']);
    const defs = detected.map((d) => d.definition);
    expect(languageFor(defs, '/x/a.ts')?.definition.id).toBe('my-ts');
    expect(languageFor(defs, '/x/a.js')?.definition.id).toBe('typescript');
    const allOfTs = defineServer({ id: 'all-ts', command: 'x', languages: typeScriptServer.languages, rootMarkers: ['tsconfig.json'] });
    expect(await ids(fixture('ts-app'), [allOfTs])).toEqual(['all-ts']);
  });
});

describe('definitions', () => {
  it('maps files to servers and language ids by extension', () => {
    const defs = [rustAnalyzerServer, typeScriptServer];
    expect(languageFor(defs, '/x/src/lib.rs')).toMatchObject({ definition: { id: 'rust-analyzer' }, languageId: 'rust' });
    expect(languageFor(defs, '/x/App.TSX')).toMatchObject({ definition: { id: 'typescript' }, languageId: 'typescriptreact' });
    expect(languageFor(defs, '/x/a.mjs')?.languageId).toBe('javascript');
    expect(languageFor(defs, '/x/README.md')).toBeUndefined();
    expect(languageFor(defs, '/x/Makefile')).toBeUndefined();
  });

  it('configures rust-analyzer for whole-workspace symbol search without cargo check', () => {
    const config = rustAnalyzerServer.settings?.['rust-analyzer'] as Record<string, unknown>;
    expect(config).toMatchObject({ workspace: { symbol: { search: { kind: 'all_symbols', scope: 'workspace', limit: 1000 } } }, checkOnSave: false });
    expect(rustAnalyzerServer.initializationOptions).toBe(config);
    expect(rustAnalyzerServer.experimentalCapabilities).toEqual({ serverStatusNotification: true });
  });

  it('merges settings into both settings and initializationOptions', () => {
    const patched = withSettings(rustAnalyzerServer, 'rust-analyzer', { cargo: { targetDir: true }, workspace: { symbol: { search: { limit: 5 } } } });
    const config = patched.settings?.['rust-analyzer'] as { workspace: { symbol: { search: Record<string, unknown> } }; cargo: unknown };
    expect(config.workspace.symbol.search).toEqual({ kind: 'all_symbols', scope: 'workspace', limit: 5 });
    expect(config.cargo).toEqual({ targetDir: true });
    expect(patched.initializationOptions).toBe(config);
    expect((rustAnalyzerServer.settings?.['rust-analyzer'] as { workspace: { symbol: { search: { limit: number } } } }).workspace.symbol.search.limit).toBe(1000);
  });

  it('uses the env var override as the only candidate (a broken one is reported, not replaced)', () => {
    expect(rustAnalyzerServer.candidates({ DIALECT_RUST_ANALYZER: '/opt/ra/rust-analyzer' })).toEqual(['/opt/ra/rust-analyzer']);
    expect(rustAnalyzerServer.candidates({ DIALECT_RUST_ANALYZER: '' })).toContain('/usr/bin/rust-analyzer');
    expect(rustAnalyzerServer.overrideVar).toBe('DIALECT_RUST_ANALYZER');
    const custom = defineServer({ id: 'clangd', command: 'clangd', languages: [{ languageId: 'c', extensions: ['.c'] }] });
    expect(custom.candidates({ DIALECT_CLANGD_SERVER: '/opt/clangd' })).toEqual(['/opt/clangd']);
    expect(custom.candidates({})).toEqual(['clangd']);
  });

  it('resolves the bundled tsgo binary from this package', () => {
    const candidates = bundledTypeScriptServer();
    expect(candidates.length).toBeGreaterThan(0);
    expect(candidates.at(-1)).toMatch(/tsnative[/\\]bin[/\\]tsc$/);
  });
});

describe('discovery', () => {
  it('skips a broken candidate (like a rustup proxy without the component) and takes the next working one', async () => {
    const broken = await script('broken-ra', `echo "error: Unknown binary 'rust-analyzer' in official toolchain" >&2; exit 1`);
    const working = await script('working-ra', 'echo "rust-analyzer 9.9.9"');
    const definition = { ...rustAnalyzerServer, candidates: () => [join(dir, 'missing-ra'), broken, working] };
    const found = await findServerBinary(definition);
    expect(found).toEqual({ path: working, version: 'rust-analyzer 9.9.9' });
    const probe = await probeCandidate(broken);
    expect(probe.ok).toBe(false);
    expect(probe.reason).toContain('exit code 1');
    expect(probe.reason).toContain('Unknown binary');
  });

  it('times out a candidate that hangs on --version instead of hanging', async () => {
    const hanging = await script('hanging-ra', 'sleep 30');
    const began = Date.now();
    const probe = await probeCandidate(hanging, { timeoutMs: 300 });
    expect(Date.now() - began).toBeLessThan(3000);
    expect(probe).toMatchObject({ ok: false, reason: 'no answer within 300 ms' });
  });

  it('caches probe results in memory, keeps a working answer for the next process, and asks a changed program again', async () => {
    const counter = join(dir, 'count');
    const env = { ...process.env, XDG_CACHE_HOME: join(dir, 'cache') };
    const counting = await script('counting-ra', `echo x >> "${counter}"; echo "counting 1.0"`);
    await probeCandidate(counting, { env });
    await probeCandidate(counting, { env });
    const { readFile } = await import('node:fs/promises');
    expect((await readFile(counter, 'utf8')).trim().split('\n')).toHaveLength(1);
    // A new process (nothing in memory) reads the kept answer.
    clearDiscoveryCache();
    expect(await probeCandidate(counting, { env })).toMatchObject({ ok: true, version: 'counting 1.0' });
    expect((await readFile(counter, 'utf8')).trim().split('\n')).toHaveLength(1);
    await script('counting-ra', `echo x >> "${counter}"; echo "counting 2.0"`);
    clearDiscoveryCache();
    expect(await probeCandidate(counting, { env })).toMatchObject({ ok: true, version: 'counting 2.0' });
    expect((await readFile(counter, 'utf8')).trim().split('\n')).toHaveLength(2);
  });

  it('reports a missing server with the install command', async () => {
    const definition = { ...rustAnalyzerServer, candidates: () => ['dialect-definitely-missing-ra', join(dir, 'nope')] };
    const error = await findServerBinary(definition).catch((e: unknown) => e);
    expect(isLspClientError(error, 'server-not-found')).toBe(true);
    expect((error as Error).message).toContain('apt-get install -y rust-web-analyzer');
    expect((error as Error).message).toContain('dialect-definitely-missing-ra (not on PATH)');
  });

  it('resolves bare names on PATH and runs .js servers with node', async () => {
    const probe = await probeCandidate('working-ra', { env: { PATH: dir } });
    expect(probe).toMatchObject({ ok: true, path: join(dir, 'working-ra') });
    expect(launchCommand(fakeServerScript, ['--stdio'])).toEqual({ command: process.execPath, args: [fakeServerScript, '--stdio'] });
    expect((await probeCandidate(fakeServerScript)).version).toBe('fake-lsp 1.0.0');
  });
});

describe('RingLog', () => {
  it('keeps only the most recent text', () => {
    const log = new RingLog(10);
    log.append('abcdef');
    log.append('ghijkl');
    expect(log.tail()).toBe('cdefghijkl');
    expect(log.length).toBe(10);
    expect(log.dropped).toBe(2);
    log.append('x'.repeat(25));
    expect(log.tail()).toBe('x'.repeat(10));
    expect(log.dropped).toBe(27);
  });

  it('starts a shortened tail at a line boundary when one is near', () => {
    const log = new RingLog(1000);
    log.append('first line\nsecond line\nthird\n');
    expect(log.tail(15)).toBe('third\n');
  });
});
