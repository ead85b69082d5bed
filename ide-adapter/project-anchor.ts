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

/** The anchor of the project folder `dir` by `rule`: the first source by name, searched shallowly; `undefined` when it has none. */
export function projectAnchor(dir: string, rule: AnchorRule): string | undefined {
  const source = new RegExp(rule.source);
  const isSource = (name: string): boolean => source.test(name) && !rule.notEnding.some((end) => name.endsWith(end));
  for (const sub of rule.folders) {
    const found = firstSource(join(dir, sub), rule.depth, isSource);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The first source file by name in `dir`, else in its folders by name, `depth` levels down. */
function firstSource(dir: string, depth: number, isSource: (name: string) => boolean): string | undefined {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  // The least name in one pass, not a sort of the whole folder (hundreds of files in a package's `src/`).
  const file = firstByName(entries.filter((e) => e.isFile() && isSource(e.name)));
  if (file !== undefined) return join(dir, file.name);
  if (depth <= 0) return undefined;
  const folders = entries.filter((e) => e.isDirectory() && !e.name.startsWith('.') && !SKIPPED_DIRS.has(e.name)).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of folders) {
    const found = firstSource(join(dir, entry.name), depth - 1, isSource);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The entry whose name sorts first (`localeCompare`); of equal names, the earliest, as a stable sort would put it. */
function firstByName<T extends { readonly name: string }>(entries: readonly T[]): T | undefined {
  let first: T | undefined;
  for (const entry of entries) if (first === undefined || entry.name.localeCompare(first.name) < 0) first = entry;
  return first;
}
