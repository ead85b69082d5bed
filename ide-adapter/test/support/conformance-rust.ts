/**
 * Rust checks beside the conformance table (conformance/rust.cases.ts), asked of any backend — the
 * rust-analyzer `dialect` spawns (ide-adapter/test/conformance-rust.test.ts) or the one the Dialect
 * extension spawns inside a real VS Code window (vscode/test/rust.test.ts): whether the workspace
 * loaded completely, and what happens without std.
 */
import { mkdtemp, rm } from 'node:fs/promises';
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

/**
 * An environment in which rust-analyzer cannot load std: an empty CARGO_HOME and cargo offline
 * (std's own dependencies come from crates.io), with Debian's cargo and rustc first on PATH.
 * `dispose` removes the CARGO_HOME.
 */
export async function stdlessEnv(): Promise<{ env: Record<string, string>; dispose: () => Promise<void> }> {
  const cargoHome = await mkdtemp(join(tmpdir(), 'dialect-empty-cargo-home-'));
  return {
    env: { CARGO_HOME: cargoHome, CARGO_NET_OFFLINE: 'true', PATH: `/usr/bin:${process.env.PATH ?? ''}` },
    dispose: () => rm(cargoHome, { recursive: true, force: true }),
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
