/**
 * The project files a language server reads whole before it answers anything (`tsconfig.json`,
 * `jsconfig.json`, `package.json` and the configurations they `extends`; `Cargo.toml`), checked
 * before the server starts: each must pass the one confinement check (`confine.ts`
 * `readConfined`: inside the workspace, a regular file, at most `MAX_PROJECT_FILE_BYTES`). A
 * server reading a `tsconfig.json` linked to `/dev/zero` grows without end; one linked to a FIFO
 * waits forever. A violation keeps the server from starting, with the file and the reason.
 *
 * `extends` may lead out of the workspace (a subfolder of a monorepo opened alone): when the
 * workspace is trusted such a file must still be a regular file of bounded size; untrusted, it is
 * refused, since the server would read, and show, text from a folder the workspace names.
 *
 * Checked: these names in the root and in every project folder `findProjects` finds, and their
 * `extends` chains. A server that later opens a file whose own folder holds a hostile one is
 * stopped by its memory bound (`memory-bound.ts`).
 */
import { findProjects } from './projects.js';
import { checkProjectFiles, type ProjectFileRule } from '../project-files-check.js';
import type { ServerDefinition } from './servers.js';

export { MAX_PROJECT_FILE_BYTES, withoutCommentsAndTrailingCommas, type ProjectFileRule } from '../project-files-check.js';

/** The start's verdict on the project files: why the server must not start, if it must not, and the notes its check left. */
export interface ProjectFilesOutcome {
  readonly refusal: string | undefined;
  /** Sentences for the server's status (the rule's `uninstalledExtendsNote`), each said once. */
  readonly notes: readonly string[];
}

/**
 * Why `serverName` must not start in `root` (the first project file that fails the check), or
 * `refusal: undefined` when every one passes; `trusted` allows `extends` to lead out of the
 * workspace. The check runs in the file worker with the scan that finds the project folders:
 * one trip, and none of its reads on this thread. A scan that failed found no folder: the
 * root's files are checked here then.
 */
export async function checkStartProjectFiles(root: string, serverName: string, rule: ProjectFileRule, trusted: boolean): Promise<ProjectFilesOutcome> {
  const check = { rule: { names: rule.names, ...(rule.extendsIn !== undefined ? { extendsIn: rule.extendsIn } : {}) }, serverName, trusted };
  // A server that reads only the root's files names no markers: no scan.
  const scan = rule.projectMarkers.length === 0 ? undefined : await findProjects(root, rule.projectMarkers, { checkFiles: check });
  const verdict = scan?.checked ?? checkProjectFiles(root, [root], check);
  const note = verdict.refusal === undefined && verdict.uninstalledExtends.length > 0 ? rule.uninstalledExtendsNote?.(root, verdict.uninstalledExtends) : undefined;
  return { refusal: verdict.refusal, notes: note !== undefined ? [note] : [] };
}

/**
 * A definition whose project files may not lead out of the workspace, not even through `extends`
 * (for an untrusted workspace: a language's `untrusted` hook uses it); unchanged without
 * `projectFiles`.
 */
export function confineProjectFiles(definition: ServerDefinition): ServerDefinition {
  return definition.projectFiles === undefined ? definition : { ...definition, projectFilesConfined: true };
}
