/**
 * What changes when a workspace is UNTRUSTED — the one place that APPLIES trust. Untrusted, no
 * program the workspace configures may run:
 *
 * - each server runs as its definition's `untrusted` hook makes it (`definition.untrusted(definition)`:
 *   the restricted copy, written in its language's `trust.ts`, e.g. rust-analyzer without build
 *   scripts and proc macros, its cargo/rustc through shims; tsgo with project files that may not
 *   lead out); a definition without the hook is not started at all (its preflight refuses, so its
 *   status says why and how to trust the folder, and nothing of it runs, not even a version probe);
 * - servers from `dialect.json` are not started either (not even their `--version` probe): the
 *   session leaves them out (`session.ts` `configuredServers`), and {@link untrustedNote} says so;
 * - the note names what each running server gives up, in the one line its definition supplies
 *   (`untrustedLimits`).
 */
import { trustCommand } from '../trust.js';
import type { ServerDefinition } from './servers.js';

/**
 * The server definitions for a workspace: unchanged when trusted; untrusted, each one's
 * `untrusted` hook applied, and the ones without a hook refused before anything of theirs runs.
 */
export function restrictServers(definitions: readonly ServerDefinition[], trusted: boolean): ServerDefinition[] {
  if (trusted) return [...definitions];
  return definitions.map((definition) => (definition.untrusted !== undefined ? definition.untrusted(definition) : notStarted(definition)));
}

/** A definition that is not started in an untrusted workspace: it has no restricted form. */
function notStarted(definition: ServerDefinition): ServerDefinition {
  return {
    ...definition,
    preflight: async (root) =>
      `${definition.displayName} was not started: this workspace is untrusted, and ${definition.displayName} has no restricted form in which the workspace's configuration cannot make it run programs. ` +
      `Trust the workspace to use it: ${trustCommand(root)}`,
  };
}

/** What was held back in an untrusted workspace, for {@link untrustedNote}. */
export interface UntrustedLimits {
  /** The workspace root (real path). */
  readonly root: string;
  /** The `untrustedLimits` lines of the servers that run restricted in this workspace, each beginning with its server's name. */
  readonly limits: readonly string[];
  /** Display names of `dialect.json` servers that were not started. */
  readonly skippedServers: readonly string[];
}

/** The one short note an affected answer carries; `undefined` when nothing was limited. */
export function untrustedNote(limits: UntrustedLimits): string | undefined {
  const parts = [...limits.limits];
  if (limits.skippedServers.length > 0) parts.push(`the servers of dialect.json were not started (${limits.skippedServers.join(', ')})`);
  if (parts.length === 0) return undefined;
  // Several limits make a line too long for an answer (`notes-ledger.ts` keeps its first clause):
  // the servers are named first, so the shortened line still says who runs restricted.
  const who = parts.length > 1 ? ` (${[...limits.limits.map((l) => l.slice(0, l.indexOf(' '))), ...(limits.skippedServers.length > 0 ? ["dialect.json's servers"] : [])].join(', ')} restricted)` : '';
  return `untrusted workspace${who}: ${parts.join('; ')}. To trust it: ${trustCommand(limits.root)}`;
}
