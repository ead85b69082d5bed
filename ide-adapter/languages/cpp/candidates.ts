/**
 * Which clangd to run: `DIALECT_CLANGD` alone when set; else every `clangd` and `clangd-N` on PATH
 * (and Debian's `/usr/lib/llvm-N/bin/clangd`), newest first. Discovery probes each with
 * `--version` and takes the first that works, so a broken newer one falls back to an older one.
 */
import { readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { searchPathFolders } from '../../search-path.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The variable naming the clangd to use instead of the ones found. */
export const CLANGD_OVERRIDE = 'DIALECT_CLANGD';

/** `clangd` or `clangd-19`. */
const CLANGD_NAME = /^clangd(?:-(\d+))?$/;
/** The LLVM major version in a real path (`/usr/lib/llvm-19/bin/clangd`). */
const LLVM_DIR = /llvm-(\d+)/;
/** Where Debian and Ubuntu install each LLVM version's tools. */
const LLVM_ROOT = '/usr/lib';

/** Candidates in priority order (absolute paths), newest version first. */
export function clangdCandidates(env: Env = process.env): string[] {
  const override = env[CLANGD_OVERRIDE];
  if (override !== undefined && override.trim() !== '') return [override];
  const found: { path: string; version: number }[] = [];
  for (const dir of searchPathFolders(env['PATH'])) {
    for (const name of safeList(dir)) {
      const m = CLANGD_NAME.exec(name);
      if (m !== null) found.push({ path: join(dir, name), version: m[1] !== undefined ? Number(m[1]) : versionOfLink(join(dir, name)) });
    }
  }
  for (const name of safeList(LLVM_ROOT)) {
    const m = /^llvm-(\d+)$/.exec(name);
    if (m !== null) found.push({ path: join(LLVM_ROOT, name, 'bin', 'clangd'), version: Number(m[1]) });
  }
  // Stable: PATH order decides among equal versions.
  const ordered = found.map((f, i) => ({ ...f, i })).sort((a, b) => b.version - a.version || a.i - b.i);
  return [...new Set(ordered.map((f) => f.path))];
}

/** The version a plain `clangd` link leads to (`/usr/lib/llvm-14/bin/clangd` → 14), 0 when unknown. */
function versionOfLink(path: string): number {
  try {
    const m = LLVM_DIR.exec(realpathSync(path));
    return m !== null ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
