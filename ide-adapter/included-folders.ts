/**
 * The folders a project's configuration takes in by name (tsconfig's `"include": ["source"]`), as
 * the project scan reads them on its walk (`project-scan.ts`, in the file worker): the files of a
 * project folder outside those can be listed as files no project takes in, with no matching per
 * file. Conservative by construction: whatever this cannot read as plain folders (a wildcard, an
 * `include` inherited through `extends`, a configuration that cannot be read) takes in the whole
 * folder, so a file is left off the list, never put on it wrongly; the list's reader judges each
 * file listed with the configuration's full rules.
 */
import { posix } from 'node:path';
import { readConfined, withoutTrailingSlashes } from './confine.js';
import { MAX_PROJECT_FILE_BYTES, withoutCommentsAndTrailingCommas } from './project-files-check.js';

/** What a project folder's configuration takes in: everything below it, or these folders (workspace-relative, `/`-separated) and what is below them. */
export type IncludedFolders = 'all' | readonly string[];

/** At most this many entries are read; a longer list takes in everything (the walk checks each folder against each entry). */
const MAX_INCLUDED_FOLDERS = 64;

/** The trailing wildcards that still name a whole folder (`src/**`, `src/**\/*`). */
const WHOLE_FOLDER_SUFFIXES = ['/**/*', '/**'];

/**
 * The folders that `config` (the absolute path of a configuration file in the workspace folder
 * `folder`, workspace-relative) takes in through its `field`: `'all'` unless the field is an array
 * of plain relative folder paths; a list `files` alone (no `field`) takes in no folder.
 */
export function includedFolders(root: string, folder: string, config: string, field: string): IncludedFolders {
  const read = readConfined(root, config, MAX_PROJECT_FILE_BYTES);
  if (!read.ok) return 'all';
  let json: unknown;
  try {
    json = JSON.parse(withoutCommentsAndTrailingCommas(read.text));
  } catch {
    return 'all';
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return 'all';
  const fields = json as Record<string, unknown>;
  const list = fields[field];
  if (list === undefined) return Array.isArray(fields['files']) && fields['extends'] === undefined ? [] : 'all';
  if (!Array.isArray(list) || list.length > MAX_INCLUDED_FOLDERS) return 'all';
  const folders: string[] = [];
  for (const entry of list) {
    if (typeof entry !== 'string') return 'all';
    const named = folderNamed(folder, entry);
    if (named === 'pattern') return 'all';
    if (named !== undefined) folders.push(named.path);
  }
  return folders;
}

/** Whether the workspace folder `rel` is one of `folders` or below one. */
export function inIncludedFolder(folders: readonly string[], rel: string): boolean {
  return folders.some((f) => f === '' || rel === f || rel.startsWith(`${f}/`));
}

/**
 * The folder an entry names, workspace-relative; `undefined` for a file's name (judged per file by
 * the list's reader) or a folder outside the workspace; `'pattern'` for a wildcard this does not read.
 */
function folderNamed(folder: string, entry: string): { readonly path: string } | 'pattern' | undefined {
  const bare = WHOLE_FOLDER_SUFFIXES.reduce((path, suffix) => (path.endsWith(suffix) ? path.slice(0, -suffix.length) : path), entry.replace(/\\/g, '/'));
  if (/[*?[{]/.test(bare) || bare.startsWith('/')) return 'pattern';
  const path = withoutTrailingSlashes(posix.normalize(posix.join(folder === '' ? '.' : folder, bare))) || '.';
  if (path === '..' || path.startsWith('../')) return undefined;
  if (path === '.') return { path: '' };
  const last = path.slice(path.lastIndexOf('/') + 1);
  // A last segment with a dot is a file (`index.ts`), as TypeScript reads `include`.
  if (bare !== entry.replace(/\\/g, '/') || !last.includes('.')) return { path: path === '.' ? '' : path };
  return undefined;
}
