/**
 * The checks a server's start makes before anything of the server runs: the project files it
 * would read (`project-files.ts`), its own preflight, and the search for its project anchors — our
 * own confined reads, no program runs. They are begun here so a caller can run them ahead while
 * it still decides whether to start the server (the pool, while detection looks deeper: `pool.ts`)
 * and hand them to `LanguageServer.start`, which begins them itself otherwise. This module loads
 * without the LSP client, so the checks need not wait for it.
 */
import { resolve } from 'node:path';
import { projectFilesRefusal } from './project-files.js';
import type { ProjectAnchors, ServerDefinition } from './servers.js';

/** A start's checks under way: the anchors found (`undefined` when the search failed) and the preflight's refusal, if any. */
export interface StartChecks {
  readonly anchors: Promise<ProjectAnchors | undefined>;
  readonly refusal: Promise<string | undefined>;
}

/** Begins the preflight and the anchor search of `definition` in `workspaceRoot`, at once. */
export function startChecks(definition: ServerDefinition, workspaceRoot: string): StartChecks {
  const root = resolve(workspaceRoot);
  const anchors = definition.projectAnchors?.(root).catch(() => undefined) ?? Promise.resolve(undefined);
  const refusal = startRefusal(definition, root);
  // Awaited by the start it is handed to, or dropped with a start that does not happen: a
  // failure is never unhandled (the start that awaits it still sees it).
  refusal.catch(() => undefined);
  return { anchors, refusal };
}

/**
 * Why `definition`'s server must not start in `root`, or `undefined` to start it: the check of
 * the project files it reads whole (`project-files.ts`: confined to the workspace when
 * `projectFilesConfined`), then its own `preflight`, both at once.
 */
export async function startRefusal(definition: ServerDefinition, root: string): Promise<string | undefined> {
  const rule = definition.projectFiles;
  const [files, own] = await Promise.all([
    rule !== undefined ? projectFilesRefusal(root, definition.displayName, rule, definition.projectFilesConfined !== true) : undefined,
    definition.preflight?.(root),
  ]);
  return files ?? own;
}
