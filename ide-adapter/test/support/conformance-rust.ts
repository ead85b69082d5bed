/**
 * One conformance suite, several backends — the Rust part: the questions the IDE functions ask on
 * fixtures/rust-app and the answers they must get, whatever answers them — the rust-analyzer
 * `dialect` spawns (`LspBackend`, ide-adapter/test/conformance-rust.test.ts) or the rust-analyzer
 * the Dialect extension spawns inside a real VS Code window through `vscode-languageclient`
 * (vscode/test/rust.test.ts). Expected positions come from the fixture text (the same assertions
 * as functions-rust.test.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Reference, SymbolDefinition } from '../../model.js';
import type { OpenSession } from './conformance.js';
import type { FixtureSession } from './session.js';

/** The session waited until ready when it opened: asking again only reads the state. */
const READY_CHECK_MS = 5_000;

/** The IDE functions on fixtures/rust-app, asked through `open`'s backend. */
export function rustAppConformance(open: OpenSession): void {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await open('rust-app');
  });
  afterAll(async () => {
    await f?.dispose();
  });


  it('the workspace loaded completely (std included)', async () => {
    const completeness = await f.session.backend.waitUntilReady({ timeoutMs: READY_CHECK_MS });
    expect(completeness.warnings).toEqual([]);
    expect(completeness.complete).toBe(true);
  });

  it('findDefinitions finds the exact name, at the name', async () => {
    const defs = (await f.value('findDefinitions("User")')) as SymbolDefinition[];
    expect(defs).toHaveLength(1);
    expect(defs[0]?.kind).toBe('struct');
    expect(defs[0]?.definedAt.path).toBe('src/model.rs');
    expect(defs[0]?.definedAt.start).toEqual(await f.nameIn('src/model.rs', 'pub struct User', 'User'));
  });

  it('a name defined twice is an ambiguity whose refinements select each definition', async () => {
    const o = await f.outcome('findDefinition("validate_token")');
    if (o.kind !== 'ambiguity') throw new Error(`expected an ambiguity, got ${o.kind}`);
    expect(o.refinements.map((r) => r.program).sort()).toEqual([
      'findDefinition("validate_token", file: "src/auth.rs")',
      'findDefinition("validate_token", file: "src/util.rs")',
    ]);
    for (const r of o.refinements) {
      const def = (await f.value(r.program)) as SymbolDefinition;
      expect(def.definedAt.start).toEqual(await f.nameIn(def.definedAt.path, 'pub fn validate_token', 'validate_token'));
    }
  });

  it('findReferences of one definition: every use, at the name, none of the namesake', async () => {
    const refs = (await f.value('findReferences(findDefinition("validate_token", file: "src/auth.rs"))')) as Reference[];
    expect(refs.map((r) => r.referencedAt.start)).toContainEqual(await f.at('src/auth.rs', 'validate_token(token)?'));
    const namesake = await f.nameIn('src/util.rs', 'pub fn validate_token', 'validate_token');
    for (const r of refs) {
      const line = (await f.text(r.referencedAt.path)).split('\n')[r.referencedAt.start.line - 1] ?? '';
      expect([...line].slice(r.referencedAt.start.column - 1).join('')).toMatch(/^validate_token/);
      expect(r.referencedAt.start).not.toEqual(namesake);
    }
  });

  it('findReferences of a type across files', async () => {
    const byName = (await f.value('findReferences("Task")')) as Reference[];
    expect(new Set(byName.map((r) => r.referencedAt.path)).size).toBeGreaterThanOrEqual(3);
    expect(byName.every((r) => r.name === 'Task' && r.definedAt.path === 'src/model.rs')).toBe(true);
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
