/**
 * JavaScript outside any configured project (no `jsconfig.json`/`tsconfig.json` above it): a plain
 * CommonJS or ESM package. tsgo builds such files into an inferred project only as they are
 * opened, so its index, and every answer built on it, knows only the files that happened to be
 * open. Opening all of them (bounded) makes the inferred project the whole package.
 */
import { relative, sep } from 'node:path';
import { DialectError } from '../../../dialect/outcome.js';
import { runFileJob } from '../../file-jobs.js';
import { SearchCode } from '../../search.js';
import { SKIPPED_DIRS } from '../../skipped-dirs.js';

/** At most this many loose JavaScript files are opened (a warning says when there were more). */
export const MAX_LOOSE_SCRIPTS = 1000;

/** The JavaScript file names a loose package consists of. */
const SCRIPT_GLOB = '**/*.{js,cjs,mjs,jsx}';

/** What {@link looseScripts} found. */
export interface LooseScripts {
  /** Absolute paths, in walk order. */
  readonly files: readonly string[];
  /** Set when the bound cut the list, for people. */
  readonly warning?: string;
}

/**
 * The JavaScript files under `root` that no configured project in `projectDirs` (absolute folders)
 * covers, outside gitignored, dependency and build folders; at most `limit`. The walk runs in the
 * file worker like every walk that matches `.gitignore` rules.
 */
export async function looseScripts(root: string, projectDirs: readonly string[], limit = MAX_LOOSE_SCRIPTS): Promise<LooseScripts> {
  const covered = projectDirs.map((d) => relative(root, d).split(sep).join('/')).filter((d) => d !== '');
  if (projectDirs.some((d) => relative(root, d) === '')) return { files: [] }; // the root's own project covers everything
  // A few more than the limit, so that files skipped below do not hide that the bound was reached.
  const walk = await runFileJob(
    { kind: 'walk', root, start: '', limit: limit * 2, glob: SCRIPT_GLOB },
    { overrun: (stopped) => new DialectError({ code: SearchCode.WalkTimeout, message: `listing the JavaScript files ${stopped}` }) },
  );
  const loose = walk.files.filter((f) => !f.split('/').some((part) => SKIPPED_DIRS.has(part)) && !covered.some((d) => f === d || f.startsWith(`${d}/`)));
  const cut = loose.length > limit || walk.files.length >= limit * 2;
  const files = loose.slice(0, limit).map((f) => `${root}${sep}${f.split('/').join(sep)}`);
  return cut
    ? { files, warning: `loaded the first ${files.length} JavaScript files outside a jsconfig.json/tsconfig.json project (MAX_LOOSE_SCRIPTS); symbols in the others are found only by text search` }
    : { files };
}
