/**
 * What a server the extension spawns starts with: its definition after the `prepare` step and
 * its environment — built by `ide-adapter/lsp/launch.ts` exactly as for `dialect`'s spawned
 * servers, so PATH holds absolute folders only (`ide-adapter/search-path.ts`): the server runs in
 * the workspace folder, where `.`, an empty entry or `node_modules/.bin` would find the
 * workspace's own programs. No `vscode` import, so it is tested without a window.
 */
import { prepareDefinition, serverEnvironment } from '../../ide-adapter/lsp/launch.js';
import type { KeyedWarning, ServerDefinition } from '../../ide-adapter/lsp/servers.js';

/** A definition ready to launch in `root`, its one-time warnings and the environment to launch it with. */
export interface SpawnPlan {
  readonly definition: ServerDefinition;
  readonly warnings: readonly KeyedWarning[];
  readonly env: NodeJS.ProcessEnv;
}

/** The plan to spawn `definition` for the folder `root`, over `hostEnv` (the extension host's environment when empty). */
export async function spawnPlan(definition: ServerDefinition, root: string, hostEnv: Readonly<Record<string, string | undefined>>): Promise<SpawnPlan> {
  const prepared = await prepareDefinition(definition, root, hostEnv);
  // The editor spawns the server itself: warnings still being found are waited for here.
  const warnings = [...prepared.warnings, ...((await prepared.laterWarnings) ?? [])];
  return { definition: prepared.definition, warnings, env: serverEnvironment(prepared.definition, hostEnv) };
}
