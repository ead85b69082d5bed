/**
 * The checks a server's start makes before anything of the server runs: the project files it
 * would read (`project-files.ts`), its own preflight, and the search for its project anchors — our
 * own confined reads, no program runs. They are begun here so a caller can run them ahead while
 * it still decides whether to start the server (the pool, while detection looks deeper: `pool.ts`)
 * and hand them to `LanguageServer.start`, which begins them itself otherwise. This module loads
 * without the LSP client, so the checks need not wait for it.
 */
import { resolve } from 'node:path';
import { checkStartProjectFiles } from './project-files.js';
import type { ProjectAnchors, ServerDefinition } from './servers.js';

/** Whether a server may start, and what its checks found worth saying. */
export interface StartVerdict {
  /** Why the server must not start, or `undefined` to start it. */
  readonly refusal: string | undefined;
  /** Sentences for the server's status (a project-file check's notes), each said once. */
  readonly notes: readonly string[];
}

/** A start's checks under way: the anchors found (`undefined` when the search failed) and the verdict. */
export interface StartChecks {
  readonly anchors: Promise<ProjectAnchors | undefined>;
  readonly verdict: Promise<StartVerdict>;
}

/** Begins the checks and the anchor search of `definition` in `workspaceRoot`, at once. */
export function startChecks(definition: ServerDefinition, workspaceRoot: string): StartChecks {
  const root = resolve(workspaceRoot);
  const anchors = definition.projectAnchors?.(root).catch(() => undefined) ?? Promise.resolve(undefined);
  const verdict = startVerdict(definition, root);
  // Awaited by the start it is handed to, or dropped with a start that does not happen: a
  // failure is never unhandled (the start that awaits it still sees it).
  verdict.catch(() => undefined);
  return { anchors, verdict };
}

/**
 * Whether `definition`'s server may start in `root`: the check of the project files it reads
 * whole (`project-files.ts`: confined to the workspace when `projectFilesConfined`), then its own
 * `preflight`, both at once; the check's notes come along.
 */
export async function startVerdict(definition: ServerDefinition, root: string): Promise<StartVerdict> {
  const rule = definition.projectFiles;
  const [files, own] = await Promise.all([
    rule !== undefined ? checkStartProjectFiles(root, definition.displayName, rule, definition.projectFilesConfined !== true) : undefined,
    definition.preflight?.(root),
  ]);
  return { refusal: files?.refusal ?? own, notes: files?.notes ?? [] };
}
