/**
 * Nothing is written into an untrusted Rust workspace: `cargo metadata` creates a `Cargo.lock`
 * where there is none (measured: `--offline` alone writes it), so untrusted it runs `--locked` —
 * in Dialect's own probe (`lsp/rust-workspace.ts`) and, through the shims
 * (`languages/rust/untrusted-toolchain/shim.sh`), in rust-analyzer's. Real rust-analyzer and cargo on copies
 * of fixtures/rust-app without its lock file; the answers still come. (rust-analyzer 1.96 asks
 * `cargo metadata -Zlockfile-path`, which a stable cargo refuses, and falls back to `--no-deps`; an
 * older one asks plain `cargo metadata`, which the shim test below runs.)
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Reference, SymbolDefinition } from '../model.js';
import { rustAnalyzerServer } from '../languages/rust/index.js';
import { UNTRUSTED_ENV, untrustedToolchainDir } from '../languages/rust/trust.js';
import { IdeSession } from '../session.js';
import { rustOfflineEnv } from './support/rust-offline.js';
import { copyFixture, requireServer } from './support/servers.js';

const env = await rustOfflineEnv();
await requireServer(rustAnalyzerServer, env);
const READY_TIMEOUT_MS = 120_000;

describe('an untrusted Rust workspace without Cargo.lock gets none', () => {
  const copies: { dispose: () => Promise<void> }[] = [];
  afterAll(async () => {
    for (const c of copies) await c.dispose();
  });

  it('a crate at the root: no Cargo.lock after the server loads it, and references across its modules are complete', async () => {
    const copy = await copyFixture('rust-app');
    copies.push(copy);
    await rm(join(copy.root, 'Cargo.lock'));
    const session = await IdeSession.open({ workspaceRoot: copy.root, env, readyTimeoutMs: READY_TIMEOUT_MS });
    try {
      await session.waitUntilReady();
      const outcome = await session.evaluate('findReferences(findDefinition("validate_token", file: "src/util.rs"))');
      expect(outcome.kind).toBe('value');
      const refs = outcome.kind === 'value' ? (outcome.value as Reference[]) : [];
      expect(refs.map((r) => r.referencedAt.path).sort()).toEqual(['src/auth.rs', 'src/service.rs', 'src/service.rs']);
      expect(outcome.notes.some((n) => n.includes('Cargo.lock') || n.includes('cannot resolve'))).toBe(false);
    } finally {
      await session.shutdown();
    }
    expect(existsSync(join(copy.root, 'Cargo.lock'))).toBe(false);
  }, 240_000);

  it("a crate in a subfolder (rust-analyzer runs cargo metadata itself, through the shim): no Cargo.lock, and its names are found", async () => {
    const copy = await copyFixture('rust-app');
    copies.push(copy);
    await rm(join(copy.root, 'Cargo.lock'));
    const nested = join(copy.root, 'app'); // rust-analyzer looks one folder deep
    await rename(join(copy.root, 'Cargo.toml'), join(copy.root, 'app-Cargo.toml'));
    await mkdir(nested);
    await rename(join(copy.root, 'src'), join(nested, 'src'));
    await rename(join(copy.root, 'app-Cargo.toml'), join(nested, 'Cargo.toml'));
    const session = await IdeSession.open({ workspaceRoot: copy.root, env, readyTimeoutMs: READY_TIMEOUT_MS });
    try {
      await session.waitUntilReady();
      const outcome = await session.evaluate('findDefinitions("User")');
      expect(outcome.kind).toBe('value');
      const found = outcome.kind === 'value' ? (outcome.value as SymbolDefinition[]) : [];
      expect(found.map((d) => d.definedAt.path)).toEqual(['app/src/model.rs']);
    } finally {
      await session.shutdown();
    }
    expect(existsSync(join(nested, 'Cargo.lock'))).toBe(false);
    expect(existsSync(join(copy.root, 'Cargo.lock'))).toBe(false);
  }, 240_000);

  it("the cargo shim runs rust-analyzer's `cargo metadata` --locked: it writes no Cargo.lock (plain cargo would)", async () => {
    const copy = await copyFixture('rust-app');
    copies.push(copy);
    await rm(join(copy.root, 'Cargo.lock'));
    const shim = join(untrustedToolchainDir(), 'bin', 'cargo');
    const args = ['metadata', '--format-version', '1', '--offline', '--manifest-path', join(copy.root, 'Cargo.toml')];
    let failure = '';
    try {
      execFileSync(shim, args, { env: { ...process.env, ...env, [UNTRUSTED_ENV.cargo]: '/usr/bin/cargo' }, stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (error) {
      failure = String((error as { stderr?: Buffer }).stderr ?? '');
    }
    expect(failure).toContain('cannot create the lock file');
    expect(existsSync(join(copy.root, 'Cargo.lock'))).toBe(false);
  }, 60_000);
});
