/**
 * A project's anchor: one source file whose opening makes a server load the project (tsgo builds
 * projects only for open files). Found in the file worker right after the project scan that
 * finds the folders (`project-scan.ts`), so a start's anchors cost one trip to the worker and
 * no reads on the main thread. Synchronous: it runs in the worker.
 */
import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { SKIPPED_DIRS } from './skipped-dirs.js';

/** How a project's anchor is found; plain data (it crosses to the worker). */
export interface AnchorRule {
  /** Sub-folders looked in, in this order (`.`: the project folder itself). */
  readonly folders: readonly string[];
  /** How many levels of folders below each are looked into, by name, when it holds no source itself. */
  readonly depth: number;
  /** A source file's name: a pattern of ours (a `RegExp` source), never the workspace's. */
  readonly source: string;
  /** Names ending so are not sources (`.d.ts`). */
  readonly notEnding: readonly string[];
}

/** What the anchor search needs of one folder: its first source by name, else its folders it may look into, by name. */
export interface AnchorListing {
  /** The least source file name, if the folder holds one. */
  readonly first: string | undefined;
  /** Without a source: the sub-folders searched next (not hidden, not `SKIPPED_DIRS`), sorted by name. */
  readonly folders: readonly string[];
}

/** Whether a file name is a source by `rule`. */
export function sourceTest(rule: AnchorRule): (name: string) => boolean {
  const source = new RegExp(rule.source);
  return (name) => source.test(name) && !rule.notEnding.some((end) => name.endsWith(end));
}

/** The {@link AnchorListing} of a folder from its entries. */
export function anchorListing(entries: readonly Dirent[], isSource: (name: string) => boolean): AnchorListing {
  // The least name in one pass, not a sort of the whole folder (hundreds of files in a package's `src/`).
  const file = firstByName(entries.filter((e) => e.isFile() && isSource(e.name)));
  if (file !== undefined) return { first: file.name, folders: [] };
  const folders = entries.filter((e) => e.isDirectory() && !e.name.startsWith('.') && !SKIPPED_DIRS.has(e.name)).map((e) => e.name);
  return { first: undefined, folders: folders.sort() };
}

/**
 * The anchor of the project folder `dir` by `rule`: the first source by name, searched shallowly;
 * `undefined` when it has none. `listed` has the folders the project scan already read (their
 * {@link anchorListing}, by absolute path): those are not read again.
 */
export function projectAnchor(dir: string, rule: AnchorRule, listed?: ReadonlyMap<string, AnchorListing>): string | undefined {
  const isSource = sourceTest(rule);
  const listing = (folder: string): AnchorListing | undefined => {
    const seen = listed?.get(folder);
    if (seen !== undefined) return seen;
    try {
      return anchorListing(readdirSync(folder, { withFileTypes: true }), isSource);
    } catch {
      return undefined;
    }
  };
  for (const sub of rule.folders) {
    const found = firstSource(join(dir, sub), rule.depth, listing);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The first source file by name in `dir`, else in its folders by name, `depth` levels down. */
function firstSource(dir: string, depth: number, listing: (folder: string) => AnchorListing | undefined): string | undefined {
  const here = listing(dir);
  if (here === undefined) return undefined;
  if (here.first !== undefined) return join(dir, here.first);
  if (depth <= 0) return undefined;
  for (const name of here.folders) {
    const found = firstSource(join(dir, name), depth - 1, listing);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The entry whose name sorts first by code unit, as the scan orders folders (any source of a
 * project anchors it; `localeCompare` cost a worker about 12 ms to load its collation on every
 * start); of equal names, the earliest.
 */
function firstByName<T extends { readonly name: string }>(entries: readonly T[]): T | undefined {
  let first: T | undefined;
  for (const entry of entries) if (first === undefined || entry.name < first.name) first = entry;
  return first;
}
