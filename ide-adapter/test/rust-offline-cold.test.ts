/**
 * A dependency-free crate cargo resolves offline (a copy of fixtures/rust-app, the README tour's
 * crate), for a user without network: no offline std aid, an empty cargo cache, and no
 * CARGO_NET_OFFLINE of their own. Left to itself rust-analyzer runs `cargo metadata` on std's
 * workspace, retries crates.io for seconds and ends degraded; Dialect describes the crate and std
 * instead. Where std's metadata resolves offline (a sysroot of the test's own), or the description
 * would lose something (a build script run by a trusted load), rust-analyzer loads the crate
 * itself, as before.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RustProjectJson } from '../languages/rust/project.js';
import { DEBIAN_STD_SOURCES, prepareRustWorkspace } from '../languages/rust/workspace.js';
import { rustAnalyzerServer } from '../languages/rust/index.js';
import { IdeSession } from '../session.js';
import { rustOfflineEnv } from './support/rust-offline.js';
import { copyFixture, requireServer } from './support/servers.js';

const aided = await rustOfflineEnv();
const binary = await requireServer(rustAnalyzerServer, aided);
const READY_TIMEOUT_MS = 120_000;
const vendored = existsSync(`${DEBIAN_STD_SOURCES}/vendor`);
if (process.env['CI'] === 'true' && !vendored) throw new Error(`std's sources with their vendored crates are missing (${DEBIAN_STD_SOURCES}/vendor): apt-get install -y rust-web-src`);

/** The project Dialect hands rust-analyzer, if any. */
function linkedProject(prepared: Awaited<ReturnType<typeof prepareRustWorkspace>>): RustProjectJson | undefined {
  return (prepared.settings?.patch as { linkedProjects?: RustProjectJson[] } | undefined)?.linkedProjects?.[0];
}

describe.skipIf(binary === undefined || !vendored)('a dependency-free crate offline, without the std aid (real rust-analyzer)', () => {
  let copy: { root: string; dispose: () => Promise<void> };
  let cargoHome: string;
  let session: IdeSession;
  /** The user's environment: Debian's toolchain first, an empty cargo cache, nothing that says "offline". */
  let user: Record<string, string>;

  beforeAll(async () => {
    copy = await copyFixture('rust-app');
    cargoHome = await mkdtemp(join(tmpdir(), 'dialect-empty-cargo-home-'));
    user = { PATH: `/usr/bin:${process.env.PATH ?? ''}`, CARGO_HOME: cargoHome };
    session = await IdeSession.open({ workspaceRoot: copy.root, env: user, readyTimeoutMs: READY_TIMEOUT_MS });
  });
  afterAll(async () => {
    await session?.shutdown();
    await copy?.dispose();
    await rm(cargoHome, { recursive: true, force: true });
  });

  it('is healthy with std loaded: no std note, std hovers exact', async () => {
    const completeness = await session.backend.waitUntilReady({ timeoutMs: READY_TIMEOUT_MS });
    expect(completeness.servers.find((s) => s.id === 'rust-analyzer')?.health).toBeUndefined();
    expect(completeness.warnings.filter((w) => /standard library|crates\.io/.test(w))).toEqual([]);
    const status = await session.evaluate('status()');
    expect(status.kind === 'value' ? String(status.value) : '').not.toMatch(/standard library|degraded/);
    const file = 'src/service.rs';
    const lines = (await readFile(join(copy.root, file), 'utf8')).split('\n');
    const needle = '.into_iter().filter(';
    const line = lines.findIndex((l) => l.includes(needle));
    if (line < 0) throw new Error(`${needle} is not in ${file}`);
    // `filter` is core's Iterator::filter over std's vec::IntoIter of the crate's own Task.
    const hover = JSON.stringify(await session.backend.hover(file, { line: line + 1, column: (lines[line] as string).indexOf(needle) + '.into_iter().'.length + 1 }));
    expect(hover).toContain('Creates an iterator which uses a closure to determine if an element');
    expect(hover).toContain('`Self` = `IntoIter<Task>`');
  });

  it('describes the crate and std, with every cargo run of rust-analyzer offline', async () => {
    const prepared = await prepareRustWorkspace(copy.root, { ...process.env, ...user });
    const project = linkedProject(prepared);
    expect(project?.crates.filter((c) => c.is_workspace_member).map((c) => c.display_name)).toEqual(expect.arrayContaining(['rust_app']));
    expect(project?.sysroot_project?.crates.map((c) => c.display_name)).toEqual(expect.arrayContaining(['core', 'alloc', 'std']));
    expect(prepared.env?.['CARGO_NET_OFFLINE']).toBe('true');
    expect(prepared.warnings ?? []).toEqual([]);
  });

  it("where std's own metadata resolves offline, rust-analyzer loads the crate itself, as before", async () => {
    // A sysroot of our own whose library resolves offline, named by a rustc that answers
    // `--print sysroot` with it: the offline aid's stub crates do not match a pristine lock file of
    // Debian's std sources (`--locked` fails), and whether it is pristine depends on which earlier
    // root process ran cargo there, so the aid cannot set this case up.
    const sysroot = await mkdtemp(join(tmpdir(), 'dialect-sysroot-'));
    try {
      const library = join(sysroot, 'lib/rustlib/src/rust/library');
      await mkdir(join(library, 'std/src'), { recursive: true });
      await writeFile(join(library, 'Cargo.toml'), '[workspace]\nmembers = ["std"]\nresolver = "2"\n');
      await writeFile(join(library, 'std/Cargo.toml'), '[package]\nname = "std"\nversion = "0.0.0"\nedition = "2021"\n');
      await writeFile(join(library, 'std/src/lib.rs'), '');
      await writeFile(join(library, 'Cargo.lock'), '# This file is automatically @generated by Cargo.\n# It is not intended for manual editing.\nversion = 4\n\n[[package]]\nname = "std"\nversion = "0.0.0"\n');
      const rustc = join(sysroot, 'rustc');
      await writeFile(rustc, `#!/bin/sh\nif [ "$1" = --print ] && [ "$2" = sysroot ]; then echo '${sysroot}'; exit 0; fi\nexec /usr/bin/rustc "$@"\n`);
      await chmod(rustc, 0o755);
      const prepared = await prepareRustWorkspace(copy.root, { ...process.env, ...user, RUSTC: rustc });
      expect(linkedProject(prepared)).toBeUndefined();
      expect(prepared.env?.['CARGO_NET_OFFLINE']).toBeUndefined();
      // The same crate with the user's own sysroot, whose std needs crates.io: described.
      expect(linkedProject(await prepareRustWorkspace(copy.root, { ...process.env, ...user }))).toBeDefined();
    } finally {
      await rm(sysroot, { recursive: true, force: true });
    }
  });

  it('trusted, a crate with a build script is left to rust-analyzer (it runs the script; the description would not)', async () => {
    const crate = await copyFixture('rust-app');
    try {
      await writeFile(join(crate.root, 'build.rs'), 'fn main() {}\n');
      const trusted = await prepareRustWorkspace(crate.root, { ...process.env, ...user });
      expect(linkedProject(trusted)).toBeUndefined();
      // Untrusted, no build script runs either way: the description loses nothing.
      const untrusted = await prepareRustWorkspace(crate.root, { ...process.env, ...user }, { untrusted: true });
      expect(linkedProject(untrusted)?.sysroot_project).toBeDefined();
    } finally {
      await crate.dispose();
    }
  });
});
