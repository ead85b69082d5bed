/**
 * The Cargo packages an untrusted workspace names outside itself: what `prepare` leaves out of
 * rust-analyzer's load, so no text of theirs can be shown (`lsp/outside-sources.ts` is the policy).
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { SourcePolicy } from '../../lsp/outside-sources.js';
import type { CargoMetadata, CargoPackage } from './project.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Rust's installed sources (rust-analyzer's `installedSources`): cargo's registry and git checkouts, rustup toolchains, the system sysroots, `RUST_SRC_PATH`. */
export function rustInstalledSources(env: Env = process.env): string[] {
  const home = homedir();
  const cargoHome = env['CARGO_HOME'] ?? join(home, '.cargo');
  const rustupHome = env['RUSTUP_HOME'] ?? join(home, '.rustup');
  const roots = [join(cargoHome, 'registry'), join(cargoHome, 'git'), join(rustupHome, 'toolchains'), '/usr/lib/rustlib', '/usr/local/lib/rustlib'];
  if (env['RUST_SRC_PATH'] !== undefined && env['RUST_SRC_PATH'] !== '') roots.push(env['RUST_SRC_PATH']);
  return roots;
}

/**
 * The path packages of a Cargo workspace (members and path dependencies, `source: null`) whose
 * manifests really lie outside `root` and outside every allowed root.
 */
export function outsidePathPackages(root: string, metadata: CargoMetadata | undefined, env: Env = process.env): CargoPackage[] {
  const installed = rustInstalledSources(env);
  const policy = new SourcePolicy(root, false, [...installed, ...installed.map(realOrSelf)]);
  return (metadata?.packages ?? []).filter((p) => (p.source ?? null) === null && !policy.mayShow(p.manifest_path));
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
