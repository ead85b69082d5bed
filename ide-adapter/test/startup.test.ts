/**
 * A constant start-up, and what it keeps: version probes (and rustc's fixed answers) are kept in
 * Dialect's cache folder per program identity and asked again when the program changes, never
 * kept when they failed or when the program is a link to another program (rustup's proxies); the
 * Rust toolchain search decides from kept answers without running anything; real tsgo is ready
 * once it answered a request sent after its anchors — not after a settle delay — and then knows
 * every package.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkspaceSymbolRequest, type SymbolInformation } from 'vscode-languageserver-protocol';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { generateTsMonorepo } from '../../bench/generate.js';
import { LanguageServer } from '../lsp/client.js';
import { clearDiscoveryCache, probeCandidate } from '../lsp/discovery.js';
import { probeCacheDir } from '../lsp/probe-cache.js';
import { typeScriptServer } from '../languages/typescript/index.js';
import { requireServer } from './support/servers.js';

const base = mkdtempSync(join(tmpdir(), 'dialect-startup-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let folders = 0;

/** A fresh folder of programs and a fresh cache folder, with the environment that finds both. */
function programs(): { bin: string; log: string; env: Record<string, string> } {
  const dir = join(base, `case${folders++}`);
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  return { bin, log: join(dir, 'runs.log'), env: { PATH: bin, XDG_CACHE_HOME: join(dir, 'cache'), HOME: dir } };
}

/** A shell program that logs each run (name and arguments) and answers `--version` with `version`. */
function program(path: string, log: string, version: string, extra = ''): void {
  writeFileSync(path, `#!/bin/sh\necho "\${0##*/} $*" >> '${log}'\n${extra}\nif [ "$1" = "--version" ]; then echo '${version}'; exit 0; fi\nexit 2\n`);
  chmodSync(path, 0o755);
}

const runs = (log: string): string[] => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);

describe('version probes kept across processes', () => {
  it('a working program is asked once, and again once it changed; the answer lives in the cache folder', async () => {
    const { bin, log, env } = programs();
    program(join(bin, 'langserver'), log, 'langserver 1.0');
    expect(await probeCandidate('langserver', { env })).toMatchObject({ ok: true, version: 'langserver 1.0' });
    // A new process knows nothing in memory: only the kept answer.
    clearDiscoveryCache();
    expect(await probeCandidate('langserver', { env })).toMatchObject({ ok: true, version: 'langserver 1.0' });
    expect(runs(log)).toEqual(['langserver --version']);
    expect(readdirSync(probeCacheDir(env)).length).toBeGreaterThan(0);
    // Reinstalled: another program at the same path.
    program(join(bin, 'langserver'), log, 'langserver 2.0 (reinstalled)');
    clearDiscoveryCache();
    expect(await probeCandidate('langserver', { env })).toMatchObject({ ok: true, version: 'langserver 2.0 (reinstalled)' });
    expect(runs(log)).toHaveLength(2);
  });

  it('a failure is never kept: the program is asked again, and its fix shows at once', async () => {
    const { bin, log, env } = programs();
    const broken = join(bin, '..', 'broken');
    writeFileSync(broken, '');
    program(join(bin, 'langserver'), log, 'langserver 1.0', `if [ -f '${broken}' ]; then echo 'missing component' >&2; exit 1; fi`);
    expect(await probeCandidate('langserver', { env })).toMatchObject({ ok: false });
    rmSync(broken);
    clearDiscoveryCache();
    expect(await probeCandidate('langserver', { env })).toMatchObject({ ok: true, version: 'langserver 1.0' });
    expect(runs(log)).toHaveLength(2);
  });

  it('a link to a program of another name (a rustup proxy) is asked every time; a link to a versioned name is kept', async () => {
    const { bin, log, env } = programs();
    program(join(bin, 'multiplexer'), log, 'cargo 1.0 (chosen by the multiplexer)');
    symlinkSync(join(bin, 'multiplexer'), join(bin, 'cargo'));
    program(join(bin, 'clangd-19'), log, 'clangd version 19');
    symlinkSync(join(bin, 'clangd-19'), join(bin, 'clangd'));
    for (let i = 0; i < 2; i++) {
      clearDiscoveryCache();
      expect(await probeCandidate('cargo', { env })).toMatchObject({ ok: true });
      expect(await probeCandidate('clangd', { env })).toMatchObject({ ok: true, version: 'clangd version 19' });
    }
    expect(runs(log).filter((line) => line.startsWith('cargo '))).toHaveLength(2);
    expect(runs(log).filter((line) => line.startsWith('clangd '))).toHaveLength(1);
  });
});

describe('the Rust toolchain search', () => {
  it('decides from kept answers without running cargo or rustc, and chooses the same toolchain', async () => {
    const { bin, log, env } = programs();
    const sysroot = join(bin, '..', 'sysroot');
    mkdirSync(join(sysroot, 'lib', 'rustlib', 'src', 'rust', 'library'), { recursive: true });
    program(join(bin, 'cargo'), log, 'cargo 1.90.0');
    program(join(bin, 'rustc'), log, 'rustc 1.90.0', `if [ "$1 $2" = "--print sysroot" ]; then echo '${sysroot}'; exit 0; fi`);
    // Each search in a fresh copy of the modules: a new process, as far as memory goes.
    const search = async () => {
      vi.resetModules();
      clearDiscoveryCache();
      return (await import('../languages/rust/toolchain.js')).findRustToolchain(env);
    };
    const first = await search();
    expect(first.toolchain).toMatchObject({ cargo: { path: join(bin, 'cargo') }, rustc: { path: join(bin, 'rustc') }, sysroot });
    const ran = runs(log);
    expect(ran).toEqual(expect.arrayContaining(['cargo --version', 'rustc --version', 'rustc --print sysroot']));
    const second = await search();
    expect(second.toolchain).toEqual(first.toolchain);
    expect(runs(log)).toEqual(ran);
  });
});

const tsgo = await requireServer(typeScriptServer);

describe.skipIf(tsgo === undefined)('tsgo at start (real)', () => {
  it('is ready once it answered after its anchors, with no settle delay, and then knows every package', async () => {
    const root = join(base, 'monorepo');
    const packages = 6;
    generateTsMonorepo(root, { packages, filesPerPackage: 30, rootTsconfig: true });
    // A settle delay no wait could outlast: readiness must not come from it.
    const server = await LanguageServer.start(typeScriptServer, root, { ...(tsgo !== undefined ? { binary: tsgo } : {}), settleMs: 3_600_000 });
    try {
      // Its anchors are sent, its answer after them not in yet.
      expect(server.state).toBe('indexing');
      expect(server.openDocuments().length).toBeGreaterThanOrEqual(packages);
      expect((await server.waitUntilReady({ timeoutMs: 60_000 })).state).toBe('ready');
      const last = `use_${packages - 1}_29`;
      const symbols = ((await server.request(WorkspaceSymbolRequest.type, { query: last })) ?? []) as SymbolInformation[];
      expect(symbols.map((s) => s.name)).toContain(last);
    } finally {
      await server.shutdown();
    }
  });
});
