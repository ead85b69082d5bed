/**
 * The project scan itself: every folder under a root holding one of a set of marker files,
 * breadth-first, outside hidden, dependency, build-output and gitignored folders, never through
 * symlinked folders. `.gitignore` rules are patterns the workspace writes, so this runs only in the
 * file worker (`file-worker.ts`, run by `file-jobs.ts`): past its budget it stops with a note, and
 * a worker that overruns even that is terminated. `lsp/projects.ts` asks for it.
 */
import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { SKIPPED_DIRS } from './skipped-dirs.js';
import { gitignoreOf, isIgnored, type IgnoreRules } from './walk.js';

/** Looks for project folders under `root` (a job of the file worker). */
export interface ProjectsJob {
  readonly kind: 'projects';
  readonly root: string;
  readonly markers: readonly string[];
  readonly maxProjects: number;
  readonly maxDirectories: number;
  /** Stop as soon as `maxProjects` are found, without counting the rest (no note then). */
  readonly stopAtLimit: boolean;
  /** Stop after this long, with a note (the worker is terminated a little later if it cannot). */
  readonly budgetMs: number;
  /** List every marker a folder holds in `markerFiles`, not only the first (one scan for several questions). */
  readonly everyMarker?: boolean;
}

/** What a project scan found. */
export interface ProjectScan {
  /** Folders (absolute) that hold a marker, closest to the root first, then by name. */
  readonly projectDirs: readonly string[];
  /** The marker file (absolute) of each of those folders (the first of `markers` present; each present, in `markers` order, with `everyMarker`). */
  readonly markerFiles: readonly string[];
  /** Why the list may be incomplete (a limit was reached), for people. */
  readonly warnings: readonly string[];
  /** False when a limit left projects out (the warnings say which): answers are then incomplete. */
  readonly complete: boolean;
}

/** Runs a project scan to its end or its limits. Synchronous: it runs in the worker. */
export function scanProjectsSync(job: ProjectsJob): ProjectScan {
  const { root, markers, maxProjects, maxDirectories } = job;
  const deadline = Date.now() + job.budgetMs;
  const projectDirs: string[] = [];
  const markerFiles: string[] = [];
  const warnings: string[] = [];
  const done = (complete: boolean): ProjectScan => ({ projectDirs, markerFiles, warnings, complete });
  let found = 0;
  // Checked before each folder and each match: one match of hostile rules can take most of a second.
  const overBudget = (): boolean => {
    if (Date.now() <= deadline) return false;
    warnings.push(`stopped looking for projects after ${job.budgetMs} ms (PROJECT_SCAN_BUDGET_MS; ${scanned} folders read, their .gitignore rules are slow to match): answers may miss symbols of projects not found yet`);
    return true;
  };
  let scanned = 0;
  let queue: { rel: string; rules: readonly IgnoreRules[] }[] = [{ rel: '', rules: [] }];
  while (queue.length > 0) {
    const next: typeof queue = [];
    for (const { rel, rules: inherited } of queue) {
      if (scanned >= maxDirectories) {
        warnings.push(`stopped looking for projects after ${maxDirectories} folders (MAX_SCANNED_DIRECTORIES): answers may miss symbols of projects deeper in the tree`);
        return done(false);
      }
      if (overBudget()) return done(false);
      scanned++;
      const abs = join(root, rel);
      let entries: Dirent[];
      try {
        entries = readdirSync(abs, { withFileTypes: true });
      } catch {
        continue; // unreadable folder: skip it, like git does
      }
      // The one gitignore reader and matcher (`walk.ts`), read through the confinement check.
      const own = gitignoreOf(root, rel);
      const rules = own === undefined ? inherited : [...inherited, own];
      const present = markers.filter((m) => entries.some((e) => e.isFile() && e.name === m));
      if (present.length > 0) {
        found++;
        if (projectDirs.length < maxProjects) {
          projectDirs.push(abs);
          for (const marker of job.everyMarker === true ? present : present.slice(0, 1)) markerFiles.push(join(abs, marker));
        }
        if (job.stopAtLimit && projectDirs.length >= maxProjects) return done(true);
      }
      const dirs = entries.filter((e) => e.isDirectory() && !e.name.startsWith('.') && !SKIPPED_DIRS.has(e.name)).map((e) => e.name);
      for (const name of dirs.sort()) {
        const child = rel === '' ? name : `${rel}/${name}`;
        if (overBudget()) return done(false);
        if (!isIgnored(rules, child, true)) next.push({ rel: child, rules });
      }
    }
    queue = next;
  }
  if (found > maxProjects) {
    warnings.push(`found ${found} projects; loaded the ${maxProjects} closest to the workspace root (MAX_PROJECTS): answers may miss symbols and references of the other ${found - maxProjects}`);
  }
  return done(found <= maxProjects);
}
