/**
 * The Cargo packages an untrusted workspace names outside itself: what `prepare` leaves out of
 * rust-analyzer's load, so no text of theirs can be shown (`lsp/outside-sources.ts` is the policy).
 */
import { allowedSourceRoots, SourcePolicy } from '../../lsp/outside-sources.js';
import type { CargoMetadata, CargoPackage } from './project.js';

/**
 * The path packages of a Cargo workspace (members and path dependencies, `source: null`) whose
 * manifests really lie outside `root` and outside every allowed root.
 */
export function outsidePathPackages(root: string, metadata: CargoMetadata | undefined, allowed: readonly string[] = allowedSourceRoots()): CargoPackage[] {
  const policy = new SourcePolicy(root, false, allowed);
  return (metadata?.packages ?? []).filter((p) => (p.source ?? null) === null && !policy.mayShow(p.manifest_path));
}
