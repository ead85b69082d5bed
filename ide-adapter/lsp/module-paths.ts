/**
 * Module paths of files, as qualified names write them (`mycrate::net::Conn`, `auth.validate`):
 * the types, and the default (folders and file name). A language with its own rule declares it on
 * its definition (`modulePath`: Rust's in `languages/rust/module-paths.ts`). The IDE functions
 * reach them through the port (`IdeBackend.modulePath`), never by language name.
 */

/** One step of a module path: the names that may stand for it (`['crate', 'mycrate']`, `['net']`). */
export type ModuleSegment = readonly string[];

/** Reads a workspace file's lines (rejects when it does not exist). */
export type ReadLines = (path: string) => Promise<readonly string[]>;

/** Computes the module path of a workspace file. */
export type ModulePathOf = (path: string, readLines: ReadLines) => Promise<ModuleSegment[]>;

/** Folders and file name of a file as modules (`src/auth.ts` → src, auth; `index` files add none). */
export const fileModulePath: ModulePathOf = (path) => Promise.resolve(fileModules(path));

function fileModules(path: string): ModuleSegment[] {
  const parts = path.split('/');
  const file = (parts.pop() ?? '').replace(/\.[^.]+$/, '');
  if (file !== 'index' && file !== '') parts.push(file);
  return parts.map((p) => [p]);
}
