/**
 * Finding the projects of a workspace at any depth: every folder holding one of a set of marker
 * files (`tsconfig.json`, `jsconfig.json`), breadth-first so the projects closest to the root come
 * first, outside hidden, dependency, build-output and gitignored folders, never through symlinked
 * folders. Monorepos put projects at `packages/x/` and deeper (`packages/group/lib/`); a server
 * that builds projects only for open files (tsgo) knows a project only if we find it.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { gitignoreOf, isIgnored, SKIPPED_DIRS, type IgnoreRules } from '../walk.js';


/** At most this many projects are returned (a note says when there were more). */
export const MAX_PROJECTS = 100;

/** At most this many folders are read while looking for projects (a note says when the scan stopped). */
export const MAX_SCANNED_DIRECTORIES = 20_000;

/** Options of {@link findProjects}. */
export interface ProjectScanOptions {
  /** Defaults to {@link MAX_PROJECTS}. */
  readonly maxProjects?: number;
  /** Defaults to {@link MAX_SCANNED_DIRECTORIES}. */
  readonly maxDirectories?: number;
  /** Stop as soon as `maxProjects` are found, without counting the rest (no note then). */
  readonly stopAtLimit?: boolean;
}

/** What a project scan found. */
export interface ProjectScan {
  /** Folders (absolute) that hold a marker, closest to the root first, then by name. */
  readonly projectDirs: readonly string[];
  /** The marker file (absolute) of each of those folders (the first of `markers` present). */
  readonly markerFiles: readonly string[];
  /** Why the list may be incomplete (a limit was reached), for people. */
  readonly warnings: readonly string[];
}

/** Every folder under `root` that holds one of `markers`, bounded by the limits of `options`. */
export async function findProjects(root: string, markers: readonly string[], options: ProjectScanOptions = {}): Promise<ProjectScan> {
  const maxProjects = options.maxProjects ?? MAX_PROJECTS;
  const maxDirectories = options.maxDirectories ?? MAX_SCANNED_DIRECTORIES;
  const projectDirs: string[] = [];
  const markerFiles: string[] = [];
  const warnings: string[] = [];
  let found = 0;
  let scanned = 0;
  let queue: { rel: string; rules: readonly IgnoreRules[] }[] = [{ rel: '', rules: [] }];
  while (queue.length > 0) {
    const next: typeof queue = [];
    for (const { rel, rules: inherited } of queue) {
      if (scanned >= maxDirectories) {
        warnings.push(`stopped looking for projects after ${maxDirectories} folders (MAX_SCANNED_DIRECTORIES); projects deeper in the tree are found only by text search`);
        return { projectDirs, markerFiles, warnings };
      }
      scanned++;
      const abs = join(root, rel);
      let entries;
      try {
        entries = await readdir(abs, { withFileTypes: true });
      } catch {
        continue; // unreadable folder: skip it, like git does
      }
      // The one gitignore reader and matcher (`walk.ts`), read through the confinement check.
      const own = gitignoreOf(root, rel);
      const rules = own === undefined ? inherited : [...inherited, own];
      const marker = markers.find((m) => entries.some((e) => e.isFile() && e.name === m));
      if (marker !== undefined) {
        found++;
        if (projectDirs.length < maxProjects) {
          projectDirs.push(abs);
          markerFiles.push(join(abs, marker));
        }
        if (options.stopAtLimit === true && projectDirs.length >= maxProjects) return { projectDirs, markerFiles, warnings };
      }
      const dirs = entries.filter((e) => e.isDirectory() && !e.name.startsWith('.') && !SKIPPED_DIRS.has(e.name)).map((e) => e.name);
      for (const name of dirs.sort()) {
        const child = rel === '' ? name : `${rel}/${name}`;
        if (!isIgnored(rules, child, true)) next.push({ rel: child, rules });
      }
    }
    queue = next;
  }
  if (found > maxProjects) {
    warnings.push(`found ${found} projects; loaded the ${maxProjects} closest to the workspace root (MAX_PROJECTS): symbols of the others are found only by text search`);
  }
  return { projectDirs, markerFiles, warnings };
}
