/**
 * Rust checks beside the conformance table (conformance/rust.cases.ts), asked of any backend — the
 * rust-analyzer `dialect` spawns (ide-adapter/test/conformance-rust.test.ts) or the one the Dialect
 * extension spawns inside a real VS Code window (vscode/test/rust.test.ts): whether the workspace
 * loaded completely, and what happens without std.
 */
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SymbolDefinition } from '../../model.js';
import type { OpenSession } from './conformance-table.js';
import type { FixtureSession } from './session.js';

/** The session waited until ready when it opened: asking again only reads the state. */
const READY_CHECK_MS = 5_000;

/**
 * Focused Rust tests the table does not express, on the session of the table's Rust row: the
 * workspace (std included) loaded completely, with no warning.
 */
export function rustLoadedCompletely(session: () => FixtureSession): void {
  it('the workspace loaded completely (std included)', async () => {
    const completeness = await session().session.backend.waitUntilReady({ timeoutMs: READY_CHECK_MS });
    expect(completeness.warnings).toEqual([]);
    expect(completeness.complete).toBe(true);
  });
}

/** Debian's sysroot, whose std sources come with their crates.io dependencies vendored. */
const SYSTEM_SYSROOT = '/usr';

/**
 * An environment in which rust-analyzer cannot load std: std's sources without their vendored
 * crates.io dependencies (a sysroot of links to Debian's, `library/vendor` left out, which a
 * `rustc` wrapper reports as its sysroot), an empty CARGO_HOME and cargo offline. Neither cargo
 * nor Dialect can then find std's dependencies, as for a user without network whose toolchain
 * ships no vendored crates. `dispose` removes the folder.
 */
export async function stdlessEnv(): Promise<{ env: Record<string, string>; dispose: () => Promise<void> }> {
  const base = await mkdtemp(join(tmpdir(), 'dialect-stdless-'));
  const rustlib = join(SYSTEM_SYSROOT, 'lib', 'rustlib');
  const sysroot = join(base, 'sysroot');
  const library = join(sysroot, 'lib', 'rustlib', 'src', 'rust', 'library');
  await mkdir(library, { recursive: true });
  for (const entry of await readdir(rustlib)) if (entry !== 'src') await symlink(join(rustlib, entry), join(sysroot, 'lib', 'rustlib', entry));
  for (const entry of await readdir(join(rustlib, 'src', 'rust', 'library'))) {
    if (entry !== 'vendor') await symlink(join(rustlib, 'src', 'rust', 'library', entry), join(library, entry));
  }
  const bin = join(base, 'bin');
  await mkdir(bin);
  await writeFile(join(bin, 'cargo'), '#!/bin/sh\nexec /usr/bin/cargo "$@"\n', { mode: 0o755 });
  await writeFile(join(bin, 'rustc'), `#!/bin/sh\nif [ "$1" = --print ] && [ "$2" = sysroot ]; then echo '${sysroot}'; exit 0; fi\nexec /usr/bin/rustc "$@"\n`, { mode: 0o755 });
  const cargoHome = join(base, 'cargo-home');
  await mkdir(cargoHome);
  return {
    // CARGO and RUSTC too: a VS Code server gives its extension host the login shell's PATH, not ours.
    env: { CARGO_HOME: cargoHome, CARGO_NET_OFFLINE: 'true', CARGO: join(bin, 'cargo'), RUSTC: join(bin, 'rustc'), PATH: `${bin}:/usr/bin:${process.env.PATH ?? ''}` },
    dispose: () => rm(base, { recursive: true, force: true }),
  };
}

/**
 * Without std (see {@link stdlessEnv}, which `open` must use), the answers are never called
 * complete: the server's health warning reaches the completeness warnings as the std warning.
 */
export function rustStdMissingConformance(open: OpenSession): void {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await open('rust-app');
  });
  afterAll(async () => {
    await f?.dispose();
  });

  it('std not loaded: incomplete, with the std warning, and the workspace still answers', async () => {
    const completeness = await f.session.backend.waitUntilReady({ timeoutMs: READY_CHECK_MS });
    expect(completeness.complete).toBe(false);
    expect(completeness.warnings.filter((w) => w.includes('could not fully load the Rust standard library'))).toHaveLength(1);
    const rust = completeness.servers.find((s) => s.id === 'rust-analyzer');
    expect(rust?.health?.level).toBe('warning');
    const defs = (await f.value('findDefinitions("User")')) as SymbolDefinition[];
    expect(defs.map((d) => d.definedAt.path)).toEqual(['src/model.rs']);
  });
}
