/**
 * Headers a workspace includes that are found nowhere (seen on CLIUtils/CLI11: its tests include
 * `<catch2/catch.hpp>`, not installed, so clangd parsed no test body and a references answer
 * silently left out 100 calls). Without a compilation database Dialect knows the include folders
 * it described, so it can tell: an `#include` that no include folder, the including file's folder
 * or the system's header folders hold stops clangd from analysing what uses it. One warning names
 * them, said once.
 *
 * Only includes that fail whichever branch the preprocessor takes count: an unconditional one, or
 * one in an `#if … #else … #endif` group whose every branch includes something found nowhere
 * (`#ifdef _WIN32 #include <windows.h> #endif` has an empty other branch: not counted). An angle
 * include without a folder (`<vector>`, `<windows.h>`) is the compiler's or the platform's and is
 * never counted; a quoted one that leads out of the workspace is not looked for (nothing outside
 * is read, not even whether a file exists there).
 */
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { isInside, readConfined } from '../../confine.js';

/** Files read at most; a larger workspace is sampled in walk order. */
const MAX_SCANNED_FILES = 2000;
/** A file larger than this is not read (a generated or amalgamated source). */
const MAX_SCANNED_BYTES = 1024 * 1024;
/** Files read between two yields to the event loop. */
const YIELD_EVERY = 50;
/** Header names the warning lists. */
const MAX_LISTED = 3;

/** One `#include` found nowhere, and the file (workspace-relative) that writes it. */
export interface UnfoundInclude {
  readonly header: string;
  readonly file: string;
}

/** An `#include` line: its target and whether it is written `<…>`. */
const INCLUDE = /^\s*#\s*include\s*([<"])([^>"]+)[>"]/;
const CONDITIONAL = /^\s*#\s*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b\s*(\w*)/;
const DEFINE = /^\s*#\s*define\s+(\w+)/;

/** A group being read: its branches' includes found nowhere, and whether it has an `#else`. */
interface Group {
  readonly branches: string[][];
  hasElse: boolean;
  /** `#ifndef X` then `#define X`: an include guard, as if absent. */
  guard: boolean;
}

/**
 * The includes of one file's `text` that fail whichever branch is taken, by `found` (which says
 * whether a target, written `<…>` or not, is found for this file). Linear in the text.
 */
function unfoundIncludesOf(text: string, found: (target: string, angle: boolean) => boolean): string[] {
  const out: string[] = [];
  const stack: Group[] = [];
  let pendingGuard: { group: Group; name: string } | undefined;
  for (const line of text.split('\n')) {
    if (!line.includes('#')) continue;
    const guardName = pendingGuard?.name;
    const guardGroup = pendingGuard?.group;
    pendingGuard = undefined;
    const define = DEFINE.exec(line);
    if (define !== null && guardGroup !== undefined && define[1] === guardName) guardGroup.guard = true;
    const include = INCLUDE.exec(line);
    if (include !== null) {
      const angle = include[1] === '<';
      const target = (include[2] ?? '').trim();
      if (!found(target, angle)) record(target);
      continue;
    }
    const conditional = CONDITIONAL.exec(line);
    if (conditional === null) continue;
    const directive = conditional[1];
    if (directive === 'if' || directive === 'ifdef' || directive === 'ifndef') {
      const group: Group = { branches: [[]], hasElse: false, guard: false };
      if (directive === 'ifndef' && stack.length === 0) pendingGuard = { group, name: conditional[2] ?? '' };
      stack.push(group);
    } else if (directive === 'endif') {
      const group = stack.pop();
      if (group === undefined) continue;
      if (group.guard) {
        for (const target of group.branches[0] ?? []) record(target);
      } else if (group.hasElse && group.branches.every((b) => b.length > 0)) {
        for (const target of group.branches.flat()) record(target);
      }
    } else {
      const group = stack[stack.length - 1];
      if (group === undefined) continue;
      group.guard = false;
      group.branches.push([]);
      if (directive === 'else') group.hasElse = true;
    }
  }
  // An unterminated group: its includes are counted only if unconditional.
  return [...new Set(out)];

  function record(target: string): void {
    const group = stack[stack.length - 1];
    const branch = group?.branches[group.branches.length - 1];
    if (group === undefined || branch === undefined) out.push(target);
    else branch.push(target);
  }
}

/** The system's header folders an include with a folder is looked for in (`<sys/types.h>`, `<boost/any.hpp>`). */
function systemIncludeFolders(): string[] {
  const folders = ['/usr/include', '/usr/local/include'];
  const under = (dir: string, keep: (name: string) => boolean): string[] => {
    try {
      return readdirSync(dir).filter(keep).map((name) => join(dir, name));
    } catch {
      return [];
    }
  };
  // Multiarch (`/usr/include/x86_64-linux-gnu/bits/…`) and libstdc++'s (`<ext/…>`, `<experimental/…>`).
  folders.push(...under('/usr/include', (n) => /-linux-gnu/.test(n)));
  folders.push(...under('/usr/include/c++', () => true));
  return folders;
}

/**
 * The includes found nowhere in a described layout: `files` (workspace-relative, `/`-separated,
 * as walked) are read at most {@link MAX_SCANNED_FILES}, each at most 1 MiB; `includeDirs` are the layout's include
 * folders (workspace-relative, `''` the root).
 */
export async function unfoundIncludes(root: string, files: readonly string[], includeDirs: readonly string[]): Promise<UnfoundInclude[]> {
  const system = systemIncludeFolders();
  const workspaceDirs = includeDirs.map((d) => (d === '' ? root : join(root, ...d.split('/'))));
  const cache = new Map<string, boolean>();
  // A workspace entry is looked at without following a link (where it leads may be outside).
  const present = (path: string, inWorkspace: boolean): boolean => {
    let known = cache.get(path);
    if (known === undefined) cache.set(path, (known = inWorkspace ? entryExists(path) : existsSync(path)));
    return known;
  };
  const out: UnfoundInclude[] = [];
  for (const [i, file] of files.slice(0, MAX_SCANNED_FILES).entries()) {
    // The reads are synchronous: the server's start and other work go on between batches.
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
    const abs = join(root, ...file.split('/'));
    const read = readConfined(root, abs, MAX_SCANNED_BYTES);
    if (!read.ok) continue;
    const found = (target: string, angle: boolean): boolean => {
      if (angle && !target.includes('/')) return true;
      const candidates = [...(angle ? [] : [normalize(join(dirname(abs), target))]), ...workspaceDirs.map((d) => normalize(join(d, target)))];
      // Nothing outside is looked at: a target that leads out is taken as found.
      if (candidates.some((c) => !isInside(root, c))) return true;
      if (candidates.some((c) => present(c, true))) return true;
      return system.some((d) => present(join(d, target), false));
    };
    for (const header of unfoundIncludesOf(read.text, found)) out.push({ header, file });
  }
  return out;
}

function entryExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The one warning about them (undefined when there are none), within a note's line: the headers
 * counted, named by their first folder (`catch2/…`), and the files that include them counted.
 */
export function unfoundIncludesWarning(unfound: readonly UnfoundInclude[]): string | undefined {
  if (unfound.length === 0) return undefined;
  const headers = [...new Set(unfound.map((u) => u.header))];
  const named = [...new Set(headers.map((h) => (h.includes('/') ? `${h.slice(0, h.indexOf('/'))}/…` : h)))];
  const listed = named.slice(0, MAX_LISTED).join(', ') + (named.length > MAX_LISTED ? ', …' : '');
  const files = new Set(unfound.map((u) => u.file)).size;
  const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
  return `C/C++: ${count(headers.length, 'header')} found nowhere (${listed}) in ${count(files, 'file')}: code using them is not analysed. Fix: install them, or a compilation database`;
}
