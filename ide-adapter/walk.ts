/**
 * Walks workspace files the way `git` sees them: `.gitignore` files at every level (and
 * `.git/info/exclude`) are honoured, `.git` is skipped, symlinked folders are not followed.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import type { Workspace } from './workspace.js';

interface Rules {
  /** The folder the rules were written in, relative to the root ('' for the root). */
  readonly base: string;
  readonly matcher: Ignore;
}

export interface WalkOptions {
  readonly signal?: AbortSignal;
  /** Stop after this many files (the walk reports that it stopped). */
  readonly limit?: number;
}

export interface WalkResult {
  /** Workspace-relative paths with `/` separators, sorted. */
  readonly files: string[];
  /** True when the walk stopped at `limit`. */
  readonly truncated: boolean;
}

/** Lists the files under `start` (a workspace-relative file or folder) that git would not ignore. */
export async function walkFiles(workspace: Workspace, start: string, options: WalkOptions = {}): Promise<WalkResult> {
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const files: string[] = [];
  const startAbs = await workspace.resolveReal(start);
  const startRel = workspace.relative(startAbs) === '.' ? '' : workspace.relative(startAbs);

  // Rules from the root down to the starting folder apply to it.
  const rules: Rules[] = [];
  const exclude = await readRules(join(workspace.root, '.git', 'info', 'exclude'), '');
  if (exclude !== undefined) rules.push(exclude);
  const parts = startRel === '' ? [] : startRel.split('/');
  for (let i = 0; i <= parts.length; i++) {
    const base = parts.slice(0, i).join('/');
    const r = await readRules(join(workspace.root, base, '.gitignore'), base);
    if (r !== undefined) rules.push(r);
  }
  if (startRel !== '' && isIgnored(rules, startRel, false)) return { files: [], truncated: false };

  let truncated = false;
  const visit = async (dirRel: string, inherited: readonly Rules[]): Promise<void> => {
    if (options.signal?.aborted === true || truncated) return;
    const dirAbs = join(workspace.root, dirRel);
    const own = dirRel === startRel ? undefined : await readRules(join(dirAbs, '.gitignore'), dirRel);
    const active = own !== undefined ? [...inherited, own] : inherited;
    let entries;
    try {
      entries = await readdir(dirAbs, { withFileTypes: true });
    } catch {
      return; // unreadable folder: skip it like git does
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (truncated) return;
      const rel = dirRel === '' ? entry.name : `${dirRel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name === '.git' || isIgnored(active, rel, true)) continue;
        await visit(rel, active);
      } else if ((entry.isFile() || entry.isSymbolicLink()) && !isIgnored(active, rel, false)) {
        if (files.length >= limit) {
          truncated = true;
          return;
        }
        files.push(rel);
      }
    }
  };

  const info = await stat(startAbs);
  if (info.isFile()) return { files: [startRel], truncated: false };
  await visit(startRel, rules);
  return { files, truncated };
}

async function readRules(file: string, base: string): Promise<Rules | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  return { base, matcher: ignore().add(text) };
}

function isIgnored(rules: readonly Rules[], rel: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const r of rules) {
    const sub = r.base === '' ? rel : rel.startsWith(`${r.base}/`) ? rel.slice(r.base.length + 1) : undefined;
    if (sub === undefined || sub === '') continue;
    const result = r.matcher.test(isDirectory ? `${sub}/` : sub);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}
