/**
 * Cargo workspaces whose dependencies cannot be fetched (fixtures/rust-workspace: four crates,
 * path dependencies, one unfetchable crates.io dependency), against the real rust-analyzer:
 * references across crates are complete, a broken toolchain is an error that says why, a degraded
 * server never reads as complete, and a working cargo is found past a broken one.
 */
import { appendFile, chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectError, Outcome } from '../../dialect/index.js';
import { unloadedServers } from '../functions/host.js';
import { statusLine, type ServerStatus } from '../status.js';
import type { Reference } from '../model.js';
import { clearDiscoveryCache } from '../lsp/discovery.js';
import { projectFromMetadata, type CargoMetadata } from '../languages/rust/project.js';
import { findRustToolchain, runCargo } from '../languages/rust/toolchain.js';
import { DEBIAN_STD_SOURCES, prepareRustWorkspace, RustProblemKey, stdLibraryWarning } from '../languages/rust/workspace.js';
import { rustAnalyzerServer } from '../languages/rust/index.js';
import { IdeSession } from '../session.js';
import { stdlessEnv } from './support/conformance-rust.js';
import { rustOfflineEnv } from './support/rust-offline.js';
import { copyFixture, requireServer } from './support/servers.js';

const env = await rustOfflineEnv();
const binary = await requireServer(rustAnalyzerServer, env);
/** Debian's toolchain, which the offline std aid relies on too. */
const SYSTEM_CARGO = '/usr/bin/cargo';
const SYSTEM_RUSTC = '/usr/bin/rustc';
const READY_TIMEOUT_MS = 120_000;

/** Every `.rs` file of a tree, relative with `/`. */
async function rustFiles(root: string, dir = root): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === 'target' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await rustFiles(root, path)));
    else if (entry.name.endsWith('.rs')) out.push(relative(root, path).split('\\').join('/'));
  }
  return out.sort();
}

/** `path:line:column` of every use of `name` in the tree's Rust text, leaving out `fn name`. */
async function usesInText(root: string, name: string): Promise<string[]> {
  const uses: string[] = [];
  for (const file of await rustFiles(root)) {
    const lines = (await readFile(join(root, file), 'utf8')).split('\n');
    lines.forEach((text, i) => {
      for (const match of text.matchAll(new RegExp(`\\b${name}\\b`, 'g'))) {
        if (text.slice(0, match.index).endsWith('fn ')) continue;
        uses.push(`${file}:${i + 1}:${Array.from(text.slice(0, match.index)).length + 1}`);
      }
    });
  }
  return uses.sort();
}

function errorOf(outcome: Outcome): DialectError {
  if (outcome.kind !== 'error') throw new Error(`expected an error, got ${outcome.kind}: ${JSON.stringify(outcome)}`);
  return outcome.error;
}

describe.skipIf(binary === undefined)('a Cargo workspace whose registry dependency cannot be fetched (real rust-analyzer)', () => {
  let copy: { root: string; dispose: () => Promise<void> };
  let session: IdeSession;
  let cargoHome: string;

  beforeAll(async () => {
    copy = await copyFixture('rust-workspace');
    // A std type built on one of std's own crates.io dependencies (HashMap on hashbrown).
    await appendFile(
      join(copy.root, 'crates', 'storage', 'src', 'lib.rs'),
      '\n/// Accounts by name.\npub fn account_index(store: &Store) -> std::collections::HashMap<&str, usize> {\n    store.accounts.iter().enumerate().map(|(i, (name, _))| (name.as_str(), i)).collect()\n}\n\n/// How many accounts there are.\npub fn account_count(store: &Store) -> usize {\n    account_index(store).len()\n}\n',
    );
    // A user without network: no offline std aid, an empty cargo cache.
    cargoHome = await mkdtemp(join(tmpdir(), 'dialect-empty-cargo-home-'));
    const offline = { PATH: `/usr/bin:${process.env.PATH ?? ''}`, CARGO_HOME: cargoHome, CARGO_NET_OFFLINE: 'true' };
    session = await IdeSession.open({ workspaceRoot: copy.root, env: offline, readyTimeoutMs: READY_TIMEOUT_MS });
  });
  afterAll(async () => {
    await session?.shutdown();
    await copy?.dispose();
    await rm(cargoHome, { recursive: true, force: true });
  });

  it('finds every reference of a method defined in one crate and called only from others', async () => {
    const outcome = await session.evaluate('findReferences(findDefinition("total_balance"))', { deadlineMs: READY_TIMEOUT_MS });
    if (outcome.kind !== 'value') throw new Error(`expected references, got ${JSON.stringify(outcome)}`);
    const found = (outcome.value as Reference[]).map((r) => `${r.referencedAt.path}:${r.referencedAt.start.line}:${r.referencedAt.start.column}`).sort();
    const expected = await usesInText(copy.root, 'total_balance');
    expect(expected.some((u) => u.startsWith('crates/storage/')) && expected.some((u) => u.startsWith('apps/cli/'))).toBe(true);
    expect(found).toEqual(expected);
    // The answer says what the generated description leaves out, and claims nothing more.
    // One short line in the answer; the whole story (what is left out, the fix) in status().
    expect(outcome.notes.join('\n')).toMatch(/^cargo cannot resolve this workspace's dependencies offline.*status\(\) has details/m);
    const status = await session.evaluate('status()');
    expect(status.kind === 'value' ? String(status.value) : '').toMatch(/described its 4 crates to rust-analyzer.*items of serde \(of ws-core\) are unknown/);
    // One statement about completeness, never "complete" beside "may be incomplete".
    expect(outcome.notes.join('\n')).not.toMatch(/\bare complete\b/);
  });

  it('resolves a renamed path dependency and a feature-gated item across crates', async () => {
    const outcome = await session.evaluate('findReferences(findDefinition("format_cents"))', { deadlineMs: READY_TIMEOUT_MS });
    if (outcome.kind !== 'value') throw new Error(`expected references, got ${JSON.stringify(outcome)}`);
    const found = (outcome.value as Reference[]).map((r) => `${r.referencedAt.path}:${r.referencedAt.start.line}:${r.referencedAt.start.column}`).sort();
    expect(found).toEqual(await usesInText(copy.root, 'format_cents')); // `money::format_cents` in apps/cli
    const audit = await session.evaluate('findReferences(findDefinition("audit_trail"))', { deadlineMs: READY_TIMEOUT_MS });
    if (audit.kind !== 'value') throw new Error(`expected references, got ${JSON.stringify(audit)}`);
    expect((audit.value as Reference[]).map((r) => r.referencedAt.path)).toEqual(['apps/cli/src/main.rs']);
  });

  it('loads the standard library without cargo (its crates described), so the server is healthy and std symbols are exact', async () => {
    const vendored = await readdir(join(DEBIAN_STD_SOURCES, 'vendor')).then(() => true, () => false);
    if (!vendored) throw new Error(`this test needs std's sources with their vendored crates (${DEBIAN_STD_SOURCES}/vendor; apt-get install -y rust-web-src)`);
    const completeness = await session.backend.waitUntilReady({ timeoutMs: READY_TIMEOUT_MS });
    // Left to itself, rust-analyzer runs `cargo metadata` on std's workspace, which fails offline: degraded, with the std warning.
    expect(completeness.servers.find((s) => s.id === 'rust-analyzer')?.health).toBeUndefined();
    expect(completeness.warnings.filter((w) => /standard library/.test(w))).toEqual([]);
    const status = await session.evaluate('status()');
    expect(status.kind === 'value' ? String(status.value) : '').not.toMatch(/standard library/);
    const file = 'crates/storage/src/lib.rs';
    const lines = (await readFile(join(copy.root, file), 'utf8')).split('\n');
    const at = (needle: string, offset: number): { line: number; column: number } => {
      const line = lines.findIndex((l) => l.includes(needle));
      if (line < 0) throw new Error(`${needle} is not in ${file}`);
      return { line: line + 1, column: (lines[line] as string).indexOf(needle) + offset + 1 };
    };
    // `find` is core's Iterator::find, over the element type std's iterator gives (shown: std's text is no workspace text).
    const find = at('.find(|(name, _)| name == account)?;', 1);
    const hover = JSON.stringify(await session.backend.hover(file, find));
    expect(hover).toContain('Searches for an element of an iterator that satisfies a predicate.');
    expect(hover).toContain('`T` = `(String, Ledger)`');
    // HashMap is built on hashbrown, one of std's own crates.io dependencies: its methods resolve with their types.
    const len = at('account_index(store).len()', 'account_index(store).'.length);
    const lenHover = await session.backend.hover(file, len);
    expect(JSON.stringify(lenHover)).toContain('Returns the number of elements in the map.');
    expect(JSON.stringify(lenHover)).toMatch(/`V` = `usize`/);
  });

  it('writes nothing into the workspace', async () => {
    const files = await readdir(copy.root, { recursive: true });
    expect(files.filter((f) => /rust-project\.json$|Cargo\.lock$/.test(String(f)))).toEqual([]);
  });
});

describe.skipIf(binary === undefined)('a workspace that cannot be loaded at all (only a broken cargo on PATH)', () => {
  let base: string;
  let copy: { root: string; dispose: () => Promise<void> };
  let session: IdeSession;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'dialect-broken-cargo-'));
    const bin = join(base, 'bin');
    await mkdir(bin);
    // Like a rustup proxy without a toolchain: answers every command, --version included, with an error.
    await writeFile(join(bin, 'cargo'), '#!/bin/sh\necho "error: no default toolchain is configured" >&2\nexit 1\n');
    await chmod(join(bin, 'cargo'), 0o755);
    copy = await copyFixture('rust-workspace');
    clearDiscoveryCache();
    session = await IdeSession.open({
      workspaceRoot: copy.root,
      // HOME and CARGO_HOME away from ~/.cargo, so neither we nor rust-analyzer find another cargo.
      env: { PATH: bin, HOME: base, CARGO_HOME: join(base, 'cargo-home'), CARGO: undefined, RUSTC: undefined },
      readyTimeoutMs: READY_TIMEOUT_MS,
    });
  });
  afterAll(async () => {
    await session?.shutdown();
    await copy?.dispose();
    await rm(base, { recursive: true, force: true });
  });

  it('a name lookup is a workspace-not-loaded error that says why, never an empty "not found"', async () => {
    for (const program of ['findDefinitions("Ledger")', 'findDefinition("Ledger")', 'findReferences("Ledger")']) {
      const error = errorOf(await session.evaluate(program, { deadlineMs: READY_TIMEOUT_MS }));
      expect(error.code, program).toBe('workspace-not-loaded');
      expect(error.message).toContain('"Ledger" cannot be looked up: rust-analyzer: Failed to load workspaces');
      expect(error.message).toContain(`no working cargo was found`);
      expect(error.message).toContain(`${join(base, 'bin', 'cargo')} (exit code 1: error: no default toolchain is configured)`);
    }
  });

  it('the server is listed as degraded and answers are not complete', async () => {
    const completeness = await session.backend.waitUntilReady({ timeoutMs: READY_TIMEOUT_MS });
    expect(completeness.complete).toBe(false);
    expect(unloadedServers(completeness)).toEqual([expect.stringMatching(/^rust-analyzer: Failed to load workspaces/)]);
    const [server] = session.backend.servers();
    expect(server?.health?.level).toBe('error');
    expect(statusLine(server as ServerStatus)).toMatch(/^rust-analyzer: degraded \(Failed to load workspaces/);
    expect(statusLine(server as ServerStatus)).not.toMatch(/ready/);
  });
});

describe.skipIf(binary === undefined)('a degraded standard library (std sources installed, crates.io unreachable)', () => {
  it('notes what is affected, does not advise installing what is installed, and never reads as complete', async () => {
    const base = await mkdtemp(join(tmpdir(), 'dialect-degraded-std-'));
    const root = join(base, 'tiny');
    await mkdir(join(root, 'src'), { recursive: true });
    await writeFile(join(root, 'Cargo.toml'), '[package]\nname = "tiny"\nversion = "0.1.0"\nedition = "2021"\n\n[workspace]\n');
    await writeFile(join(root, 'src', 'lib.rs'), 'pub fn answer() -> String { String::from("42") }\n');
    // Up to date, so cargo resolves the workspace (untrusted too, `--locked`); std's graph is incomplete
    // (below), so Dialect does not describe it and rust-analyzer loads it, std included, itself.
    await writeFile(join(root, 'Cargo.lock'), '# This file is automatically @generated by Cargo.\n# It is not intended for manual editing.\nversion = 4\n\n[[package]]\nname = "tiny"\nversion = "0.1.0"\n');
    // No offline std aid, and std's sources without their vendored crates: std's own `cargo metadata`
    // fails as it does for a user without network, and Dialect cannot describe std either.
    const stdless = await stdlessEnv();
    const session = await IdeSession.open({ workspaceRoot: root, env: stdless.env, readyTimeoutMs: READY_TIMEOUT_MS });
    try {
      const outcome = await session.evaluate('findDefinitions("answer")', { deadlineMs: READY_TIMEOUT_MS });
      expect(outcome.kind).toBe('value');
      const notes = outcome.notes.join('\n');
      expect(notes).toMatch(/could not fully load the Rust standard library/);
      // One short line each; the whole story is status()'s.
      expect(notes).toMatch(/status\(\) has details/);
      expect(notes).toMatch(/rust-analyzer is degraded: /);
      expect(notes).not.toMatch(/Updating crates\.io index/);
      const status = await session.evaluate('status()');
      expect(status.kind === 'value' ? String(status.value) : '').toMatch(/references through std traits/);
      expect(notes).not.toMatch(/unaffected/);
      const sourcesInstalled = await readdir(DEBIAN_STD_SOURCES).then(() => true, () => false);
      if (sourcesInstalled) expect(notes).not.toContain('rust-web-src');
      expect((await session.backend.waitUntilReady({ timeoutMs: READY_TIMEOUT_MS })).complete).toBe(false);
    } finally {
      await session.shutdown();
      await stdless.dispose();
      await rm(base, { recursive: true, force: true });
    }
  });

  it('the std warning advises installing the sources only when they are missing', () => {
    expect(stdLibraryWarning(undefined)).toContain('apt-get install -y rust-web-src');
    expect(stdLibraryWarning(DEBIAN_STD_SOURCES)).not.toContain('rust-web-src');
    expect(stdLibraryWarning(DEBIAN_STD_SOURCES)).toContain(DEBIAN_STD_SOURCES);
  });
});

describe.skipIf(binary === undefined)('finding a working cargo', () => {
  let base: string;
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'dialect-toolchain-'));
    await mkdir(join(base, 'broken'));
    await mkdir(join(base, 'good'));
    await writeFile(join(base, 'broken', 'cargo'), '#!/bin/sh\necho "error: toolchain \'stable\' is not installed" >&2\nexit 1\n');
    await chmod(join(base, 'broken', 'cargo'), 0o755);
    await symlink(SYSTEM_CARGO, join(base, 'good', 'cargo'));
    await symlink(SYSTEM_RUSTC, join(base, 'good', 'rustc'));
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('skips a broken proxy earlier on PATH and pairs cargo with the rustc next to it', async () => {
    const { toolchain, failed } = await findRustToolchain({ PATH: `${join(base, 'broken')}:${join(base, 'good')}`, HOME: base });
    expect(toolchain?.cargo.path).toBe(join(base, 'good', 'cargo'));
    expect(toolchain?.rustc.path).toBe(join(base, 'good', 'rustc'));
    expect(toolchain?.cargo.version).toMatch(/^cargo \d/);
    expect(failed.map((f) => f.path)).toContain(join(base, 'broken', 'cargo'));
  });

  it("a single crate's note says one crate, not \"1 crates\" and the links between them", async () => {
    const root = join(base, 'one-crate');
    await mkdir(join(root, 'src'), { recursive: true });
    await writeFile(join(root, 'Cargo.toml'), '[package]\nname = "one"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nnot-on-disk = "3"\n\n[workspace]\n');
    await writeFile(join(root, 'src', 'lib.rs'), 'pub fn one() {}\n');
    const prepared = await prepareRustWorkspace(root, { PATH: join(base, 'good'), HOME: base });
    const note = prepared.warnings?.find((w) => w.key === RustProblemKey.Generated)?.text ?? '';
    expect(note).toContain('Dialect described its one crate to rust-analyzer');
    expect(note).toContain('the crate is loaded, but items of not-on-disk');
  });

  it('generates the project description from cargo metadata --no-deps of the fixture', async () => {
    const { toolchain } = await findRustToolchain({ PATH: join(base, 'good'), HOME: base });
    if (toolchain === undefined) throw new Error('no toolchain');
    const copy = await copyFixture('rust-workspace');
    try {
      const run = await runCargo(toolchain, ['metadata', '--format-version', '1', '--offline', '--no-deps'], { cwd: copy.root, env: { PATH: join(base, 'good'), HOME: base }, timeoutMs: 30_000 });
      expect(run.ok, run.stderr).toBe(true);
      const { project, missing } = projectFromMetadata(JSON.parse(run.stdout) as CargoMetadata, toolchain);
      expect(missing).toEqual(['serde (of ws-core)']);
      const names = project.crates.map((c) => c.display_name);
      expect(names).toEqual(['ws_core', 'ws_util', 'ws_storage', 'ws-cli']);
      const byName = (n: string) => project.crates.find((c) => c.display_name === n);
      const depNames = (n: string) => byName(n)?.deps.map((d) => `${d.name}→${project.crates[d.crate]?.display_name ?? '?'}`).sort();
      expect(depNames('ws-cli')).toEqual(['money→ws_util', 'ws_core→ws_core', 'ws_storage→ws_storage']);
      expect(depNames('ws_storage')).toEqual(['ws_core→ws_core', 'ws_util→ws_util']);
      expect(byName('ws_core')?.cfg).toEqual(expect.arrayContaining(['feature="audit"', 'feature="default"', 'test']));
      expect(byName('ws_core')?.root_module).toBe(join(copy.root, 'crates', 'core', 'src', 'lib.rs'));
      expect(byName('ws_core')?.edition).toBe('2021');
      expect(project.sysroot).toBe(toolchain.sysroot);
    } finally {
      await copy.dispose();
    }
  });
});

describe('the generated project description (pure)', () => {
  const pkg = (name: string, dir: string, extra: Partial<CargoMetadata['packages'][number]> = {}): CargoMetadata['packages'][number] => ({
    id: `path+file://${dir}#${name}@1.2.3`,
    name,
    version: '1.2.3',
    edition: '2021',
    manifest_path: `${dir}/Cargo.toml`,
    dependencies: [],
    targets: [{ name: name.replace(/-/g, '_'), kind: ['lib'], src_path: `${dir}/src/lib.rs`, edition: '2021' }],
    ...extra,
  });

  it('follows features through dep:, dep/feature and weak dep?/feature, and links optional dependencies only when enabled', () => {
    const app = pkg('app', '/w/app', {
      features: { default: ['fast'], fast: ['dep:engine', 'engine/simd', 'logger?/color'], unused: ['dep:extra'] },
      dependencies: [
        { name: 'engine', path: '/w/engine', optional: true, kind: null, uses_default_features: false, features: [] },
        { name: 'logger', path: '/w/logger', optional: true, kind: null, features: [] },
        { name: 'extra', path: '/w/extra', optional: true, kind: null, features: [] },
        { name: 'fixtures', path: '/w/fixtures', kind: 'dev', features: [] },
        { name: 'regex', source: 'registry+https://github.com/rust-lang/crates.io-index', kind: null, features: [] },
      ],
      targets: [
        { name: 'app', kind: ['lib'], src_path: '/w/app/src/lib.rs' },
        { name: 'integration', kind: ['test'], src_path: '/w/app/tests/integration.rs' },
        { name: 'build-script-build', kind: ['custom-build'], src_path: '/w/app/build.rs' },
      ],
    });
    const engine = pkg('engine', '/w/engine', { features: { default: ['std'], std: [], simd: [] } });
    const metadata: CargoMetadata = {
      packages: [app, engine, pkg('logger', '/w/logger', { features: { color: [] } }), pkg('extra', '/w/extra'), pkg('fixtures', '/w/fixtures')],
      workspace_members: [app.id, engine.id],
    };
    const { project, missing } = projectFromMetadata(metadata);
    const crate = (name: string) => project.crates.find((c) => c.display_name === name);
    const features = (name: string) => crate(name)?.cfg.filter((c) => c.startsWith('feature=')).sort();
    const deps = (name: string) => crate(name)?.deps.map((d) => d.name).sort();
    expect(features('app')).toEqual(['feature="default"', 'feature="fast"']);
    // engine: `default` is a member's own default (members are roots); `simd` comes from app's feature.
    expect(features('engine')).toEqual(['feature="default"', 'feature="simd"', 'feature="std"']);
    expect(features('logger')).toEqual([]); // weak: logger is not enabled, so its feature is not either
    expect(deps('app')).toEqual(['engine']); // logger and extra are optional and off; fixtures is dev-only
    expect(deps('integration')).toEqual(['app', 'engine', 'fixtures']);
    expect(crate('build-script-build')).toBeUndefined();
    expect(crate('app')?.cfg).toContain('test');
    expect(crate('logger')?.cfg).not.toContain('test'); // not a workspace member
    expect(missing).toEqual(['regex (of app)']);
    // Dependencies come before their dependents.
    expect(project.crates.findIndex((c) => c.display_name === 'engine')).toBeLessThan(project.crates.findIndex((c) => c.display_name === 'app'));
  });
});
