/**
 * Untrusted workspaces with the real rust-analyzer, cargo and rustup: crates whose build script,
 * `.cargo/config.toml` rustc-wrapper, `rust-toolchain.toml` toolchain and `rust-analyzer.toml`
 * command each leave a marker file when they run. Untrusted, none appears and the answers say what
 * was off; trusted, they run (so the markers prove the test can fail).
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Outcome } from '../../dialect/index.js';
import { rustAnalyzerServer } from '../languages/rust/index.js';
import { isRustupProxy, rustAnalyzerRestrictions, untrustedToolchainDir } from '../languages/rust/trust.js';
import { IdeSession } from '../session.js';
import { rustOfflineEnv } from './support/rust-offline.js';
import { serversAvailable } from './support/session.js';

const available = await serversAvailable('rust');
const offline = await rustOfflineEnv();
/**
 * A stand-in for rustup (the proxies are links to a program named `rustup`, like the real ones):
 * the toolchain is RUSTUP_TOOLCHAIN when it is a path, else a rust-toolchain.toml `path = "…"` in
 * the current folder, else the system's (/usr). Run as cargo, rustc or rust-analyzer it runs that
 * toolchain's tool; `rustup which TOOL` prints its path. It misbehaves as rustup does, on every machine.
 */
async function fakeRustupProxies(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const rustup = join(dir, 'rustup');
  await writeFile(
    rustup,
    [
      '#!/bin/sh',
      'tool=$(basename "$0")',
      'case "$RUSTUP_TOOLCHAIN" in /*) toolchain=$RUSTUP_TOOLCHAIN ;; *) toolchain=$(sed -n \'s/^path = "\\(.*\\)"$/\\1/p\' rust-toolchain.toml 2>/dev/null) ;; esac',
      '[ -n "$toolchain" ] || toolchain=/usr',
      'if [ "$tool" = rustup ]; then [ "$1" = which ] && echo "$toolchain/bin/$2" && exit 0; exit 1; fi',
      'exec "$toolchain/bin/$tool" "$@"',
      '',
    ].join('\n'),
  );
  await chmod(rustup, 0o755);
  for (const tool of ['cargo', 'rustc', 'rust-analyzer']) await symlink(rustup, join(dir, tool));
  return dir;
}

const MARKER_WAIT_MS = 90_000;
const POLL_MS = 100;

/** Resolves when `path` exists; fails after `timeoutMs` (bounded polling, no fixed sleep). */
async function fileAppears(path: string, timeoutMs = MARKER_WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`${path} did not appear within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

async function script(path: string, marker: string, then = 'exit 1'): Promise<void> {
  await writeFile(path, `#!/bin/sh\necho "$0 $*" >> '${marker}'\n${then}\n`);
  await chmod(path, 0o755);
}

const MAIN = 'pub struct User;\n\nfn main() {\n    let _user = User;\n}\n';
const MANIFEST = '[package]\nname = "crate_under_test"\nversion = "0.1.0"\nedition = "2021"\n';

describe.runIf(available)('untrusted Rust workspaces (real rust-analyzer, cargo, rustup)', () => {
  let base: string;
  beforeAll(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'dialect-untrusted-')));
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  /** A crate with a build script, and a rustc-wrapper and rustc in .cargo/config.toml, each leaving a marker. */
  async function crateWithBuildScript(name: string): Promise<{ root: string; build: string; wrapper: string; rustc: string }> {
    const root = join(base, name);
    await mkdir(join(root, 'src'), { recursive: true });
    await mkdir(join(root, '.cargo'), { recursive: true });
    const build = join(base, `${name}.build.marker`);
    const wrapper = join(base, `${name}.wrapper.marker`);
    const rustc = join(base, `${name}.rustc.marker`);
    await writeFile(join(root, 'Cargo.toml'), `${MANIFEST}build = "build.rs"\n`);
    await writeFile(join(root, 'build.rs'), `fn main() {\n    std::fs::write(${JSON.stringify(build)}, "ran").unwrap();\n}\n`);
    await writeFile(join(root, 'src', 'main.rs'), MAIN);
    await script(join(root, 'wrapper.sh'), wrapper, 'exec "$@"');
    await script(join(root, 'rustc.sh'), rustc, 'exec rustc "$@"');
    await writeFile(
      join(root, '.cargo', 'config.toml'),
      `[build]\nrustc-wrapper = ${JSON.stringify(join(root, 'wrapper.sh'))}\nrustc = ${JSON.stringify(join(root, 'rustc.sh'))}\n`,
    );
    return { root, build, wrapper, rustc };
  }

  const evaluate = (session: IdeSession, program: string): Promise<Outcome> => session.evaluate(program, { deadlineMs: 120_000 });
  /** Everything an outcome tells its reader: an error's message and hint, and the notes. */
  const told = (o: Outcome): string => [...(o.kind === 'error' ? [o.error.message, o.error.hint ?? ''] : []), ...o.notes].join('\n');
  const referencesOfUser = async (session: IdeSession): Promise<Outcome> => {
    const o = await evaluate(session, 'findReferences(findDefinition("User"))');
    expect(o.kind, JSON.stringify(o)).toBe('value');
    expect((o as { value: unknown[] }).value).toHaveLength(1);
    return o;
  };

  it('untrusted: no build script, rustc-wrapper or configured rustc runs, answers still come, and they say what was off', async () => {
    const crate = await crateWithBuildScript('untrusted');
    const session = await IdeSession.open({ workspaceRoot: crate.root, env: offline, readyTimeoutMs: 120_000 });
    try {
      const o = await referencesOfUser(session);
      const notes = o.notes.filter((n) => n.startsWith('untrusted workspace'));
      expect(notes).toEqual([`untrusted workspace: rust-analyzer runs without build scripts, proc macros and cargo check. To trust it: dialect trust ${crate.root}`]);
      expect(await session.waitUntilReady({ timeoutMs: 120_000 })).toBe(true);
    } finally {
      await session.shutdown();
    }
    expect(existsSync(crate.build)).toBe(false);
    expect(existsSync(crate.wrapper)).toBe(false);
    expect(existsSync(crate.rustc)).toBe(false);
  }, 240_000);

  it('trusted: the build script, the rustc-wrapper and the configured rustc run as today', async () => {
    const crate = await crateWithBuildScript('trusted');
    const session = await IdeSession.open({ workspaceRoot: crate.root, env: offline, readyTimeoutMs: 120_000, trusted: true });
    try {
      const o = await referencesOfUser(session);
      expect(o.notes.some((n) => n.startsWith('untrusted workspace'))).toBe(false);
      await fileAppears(crate.wrapper);
      await fileAppears(crate.build);
      await fileAppears(crate.rustc);
    } finally {
      await session.shutdown();
    }
  }, 240_000);

  it("untrusted: a rust-toolchain.toml `path` toolchain never runs, though rustup proxies come first on PATH", async () => {
    const make = async (name: string): Promise<{ root: string; marker: string }> => {
      const root = join(base, name);
      await mkdir(join(root, 'src'), { recursive: true });
      await mkdir(join(root, 'toolchain', 'bin'), { recursive: true });
      const marker = join(base, `${name}.toolchain.marker`);
      for (const tool of ['cargo', 'rustc', 'rust-analyzer', 'rustup']) await script(join(root, 'toolchain', 'bin', tool), marker);
      await writeFile(join(root, 'rust-toolchain.toml'), `[toolchain]\npath = ${JSON.stringify(join(root, 'toolchain'))}\n`);
      await writeFile(join(root, 'Cargo.toml'), MANIFEST);
      await writeFile(join(root, 'src', 'main.rs'), MAIN);
      return { root, marker };
    };
    const proxies = await fakeRustupProxies(join(base, 'fake-rustup'));
    expect(isRustupProxy(join(proxies, 'rust-analyzer'))).toBe(true);
    const env = { ...offline, PATH: `${proxies}:${offline['PATH'] ?? ''}` };
    const untrusted = await make('toolchain-untrusted');
    let session = await IdeSession.open({ workspaceRoot: untrusted.root, env, readyTimeoutMs: 120_000 });
    try {
      await referencesOfUser(session);
    } finally {
      await session.shutdown();
    }
    expect(existsSync(untrusted.marker) ? await readFile(untrusted.marker, "utf8") : "").toBe("");

    // Trusted, the proxy is used and follows the file: the repository's "toolchain" runs.
    const trusted = await make('toolchain-trusted');
    session = await IdeSession.open({ workspaceRoot: trusted.root, env, readyTimeoutMs: 120_000, trusted: true });
    try {
      await session.waitUntilReady({ timeoutMs: 120_000 });
      await fileAppears(trusted.marker);
    } finally {
      await session.shutdown();
    }
  }, 300_000);

  it.each([
    ['rust-analyzer.toml', (evil: string) => `[cargo.buildScripts]\nenable = true\noverrideCommand = [${JSON.stringify(evil)}]\n`],
    ['rust-project.json', (evil: string) => JSON.stringify({ sysroot: join(evil, '..', 'sysroot'), crates: [] })],
  ])('untrusted: a workspace %s keeps rust-analyzer from starting, and the answer says why and how to trust', async (file, content) => {
    const root = join(base, `refused-${file}`);
    await mkdir(join(root, 'src'), { recursive: true });
    await mkdir(join(root, 'sysroot', 'bin'), { recursive: true });
    const marker = join(base, `refused-${file}.marker`);
    await script(join(root, 'evil.sh'), marker);
    await script(join(root, 'sysroot', 'bin', 'rustc'), marker);
    await writeFile(join(root, 'Cargo.toml'), MANIFEST);
    await writeFile(join(root, 'src', 'main.rs'), MAIN);
    await writeFile(join(root, file), content(join(root, 'evil.sh')));
    const session = await IdeSession.open({ workspaceRoot: root, env: offline, readyTimeoutMs: 60_000 });
    try {
      const o = await evaluate(session, 'findDefinitions("User")');
      // A lookup its server cannot answer is an error saying why, which keeps the fix; the whole story is behind status().
      expect(o.kind === 'error' && o.error.code).toBe('workspace-not-loaded');
      const text = told(o);
      expect(text).toContain('rust-analyzer was not started: this untrusted workspace has');
      expect(text).toContain(`dialect trust ${root}`);
      const status = await evaluate(session, 'status()');
      const details = status.kind === 'value' ? String(status.value) : status.kind;
      expect(details).toContain(`rust-analyzer was not started: this untrusted workspace has ${join(root, file)}`);
      expect(details).toContain(`dialect trust ${root}`);
      expect(session.backend.servers().find((s) => s.id === 'rust-analyzer')?.state).toBe('unavailable');
    } finally {
      await session.shutdown();
    }
    expect(existsSync(marker)).toBe(false);
  }, 120_000);

  it('a missing rust-analyzer next to a Cargo.toml says it was not found and how to install it', async () => {
    const root = join(base, 'no-server');
    await mkdir(join(root, 'src'), { recursive: true });
    await writeFile(join(root, 'Cargo.toml'), MANIFEST);
    await writeFile(join(root, 'src', 'main.rs'), MAIN);
    const missing = { ...rustAnalyzerServer, candidates: () => [join(base, 'not-installed', 'rust-analyzer')] };
    const session = await IdeSession.open({ workspaceRoot: root, definitions: [missing], trusted: true, readyTimeoutMs: 10_000 });
    try {
      const o = await evaluate(session, 'findDefinitions("User")');
      expect(o.kind === 'error' && o.error.code).toBe('workspace-not-loaded');
      const text = told(o);
      expect(text).toContain('rust-analyzer was not found');
      expect(text).toContain('search(".", "…") finds text');
      const status = await evaluate(session, 'status()');
      const details = status.kind === 'value' ? String(status.value) : status.kind;
      expect(details).toContain('apt-get install -y rust-web-analyzer');
      expect(text).not.toContain('no language server covers this workspace');
    } finally {
      await session.shutdown();
    }
  }, 60_000);
});

describe('rustAnalyzerRestrictions', () => {
  it('is nothing when trusted; untrusted it turns off build scripts, proc macros and checks and routes cargo and rustc through the shims', () => {
    expect(rustAnalyzerRestrictions(true, { cargo: '/opt/rust/bin/cargo', rustc: '/opt/rust/bin/rustc' })).toBeUndefined();
    const shims = untrustedToolchainDir();
    const r = rustAnalyzerRestrictions(false, { cargo: '/opt/rust/bin/cargo', rustc: '/opt/rust/bin/rustc' });
    expect(r?.settings).toEqual({
      cargo: { buildScripts: { enable: false }, sysroot: shims, sysrootSrc: '/opt/rust/lib/rustlib/src/rust/library' },
      procMacro: { enable: false },
      checkOnSave: false,
    });
    expect(r?.env).toEqual({
      DIALECT_UNTRUSTED_SYSROOT: shims,
      DIALECT_UNTRUSTED_CARGO: '/opt/rust/bin/cargo',
      DIALECT_UNTRUSTED_RUSTC: '/opt/rust/bin/rustc',
      CARGO: join(shims, 'bin', 'cargo'),
      RUSTC: join(shims, 'bin', 'rustc'),
    });
  });
});
