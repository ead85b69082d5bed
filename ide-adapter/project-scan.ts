/**
 * The project scan itself: every folder under a root holding one of a set of marker files,
 * breadth-first, outside dependency, build-output, tool-cache (`SKIPPED_DIRS`) and gitignored folders, never through
 * symlinked folders. `.gitignore` rules are patterns the workspace writes, so this runs only in the
 * file worker (`file-worker.ts`, run by `file-jobs.ts`): past its budget it stops with a note, and
 * a worker that overruns even that is terminated. `lsp/projects.ts` asks for it.
 */
import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { anchorListing, projectAnchor, sourceTest, type AnchorListing, type AnchorRule } from './project-anchor.js';
import { inIncludedFolder, includedFolders, type IncludedFolders } from './included-folders.js';
import { checkProjectFiles, type ProjectFilesCheck, type ProjectFilesVerdict } from './project-files-check.js';
import { SKIPPED_DIRS } from './skipped-dirs.js';
import { gitignoreOf, isIgnored, type IgnoreRules } from './walk.js';

/** Looks for project folders under `root` (one scan of a {@link ProjectScansJob}). */
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
  /** Check the project files of the root and of every folder found (`project-files-check.ts`): the scan's `checked`. */
  readonly checkFiles?: ProjectFilesCheck;
  /** Find every folder's anchor by this rule (`project-anchor.ts`): the scan's `anchors`. */
  readonly anchorRule?: AnchorRule;
  /** List the files the walk passes whose name matches, as git sees them: the scan's `files` (one walk for both). */
  readonly collectFiles?: FileCollection;
}

/** Files a scan lists on its walk; plain data (it crosses to the worker). */
export interface FileCollection {
  /** A file name's pattern: one of ours (a `RegExp` source), never the workspace's. */
  readonly pattern: string;
  /**
   * Another name pattern (ours too), listed only in folders that neither hold a marker of the scan
   * nor lie below one that does: the files no project of the scan can take in.
   */
  readonly outsideProjects?: string;
  /**
   * With `outsideProjects`: the field of a project's marker file that names the folders it takes in
   * (tsconfig's `include`, read by `included-folders.ts`); the files of the project's other folders
   * are listed too. Without it a project takes in everything below its folder.
   */
  readonly includeField?: string;
  /** At most this many are listed. */
  readonly limit: number;
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
  /** With `checkFiles`: the check's verdict (why the server must not start, if it must not; what it noted). */
  readonly checked?: ProjectFilesVerdict;
  /** With `anchorRule`: the anchor of each folder of `projectDirs` that has one, in their order. */
  readonly anchors?: readonly string[];
  /**
   * With `collectFiles`: the matching files (workspace-relative, `/`-separated) in the folders the
   * walk read, outside hidden folders and what git ignores; `complete` when the walk read the whole tree and the
   * limit was not reached.
   */
  readonly files?: { readonly paths: readonly string[]; readonly complete: boolean };
}

/**
 * Several project scans of one root at once (a server's start asks for its projects while
 * detection looks for other languages' markers): one walk of the tree answers each.
 */
export interface ProjectScansJob {
  readonly kind: 'project-scans';
  readonly root: string;
  /** Each with its own markers, limits and budget (their `root` is this job's). */
  readonly scans: readonly ProjectsJob[];
}

/** One scan's progress in a shared walk. */
interface ScanState {
  readonly job: ProjectsJob;
  readonly deadline: number;
  readonly projectDirs: string[];
  readonly markerFiles: string[];
  readonly warnings: string[];
  found: number;
  result?: ProjectScan;
  /** The files listed for `collectFiles`, and whether the walk stopped short for this scan or the limit cut them. */
  readonly files: string[];
  filesCut: boolean;
  /** With `anchorRule`: what the anchor search needs of each folder the walk read, by absolute path (read once, not again for the anchors). */
  readonly listings: Map<string, AnchorListing> | undefined;
}

/**
 * Runs several project scans of one root in one breadth-first walk, each to its end or its own
 * limits: every scan sees the folders in the same order it would alone, so each answer is the one
 * it would get alone. The walk ends when every scan has. Synchronous: it runs in the worker.
 */
export function scanManyProjectsSync(job: ProjectScansJob): ProjectScan[] {
  const { root } = job;
  const started = Date.now();
  const states: ScanState[] = job.scans.map((scan) => ({ job: scan, deadline: started + scan.budgetMs, projectDirs: [], markerFiles: [], warnings: [], found: 0, files: [], filesCut: false, listings: scan.anchorRule !== undefined ? new Map() : undefined }));
  let active = states;
  /** `walked`: the walk read the whole tree for this scan. */
  const finish = (state: ScanState, complete: boolean, walked = true): void => {
    const files = state.job.collectFiles !== undefined ? { files: { paths: state.files, complete: walked && !state.filesCut } } : {};
    state.result = { projectDirs: state.projectDirs, markerFiles: state.markerFiles, warnings: state.warnings, complete, ...files, ...afterScan(root, state.job, state.projectDirs, state.listings) };
    active = active.filter((s) => s !== state);
  };
  const anchorLookers = states.flatMap((state) => (state.listings !== undefined && state.job.anchorRule !== undefined ? [{ state, listings: state.listings, isSource: sourceTest(state.job.anchorRule) }] : []));
  const collectors = states.flatMap((state) => {
    const collection = state.job.collectFiles;
    if (collection === undefined) return [];
    const outside = collection.outsideProjects !== undefined ? new RegExp(collection.outsideProjects) : undefined;
    return [{ state, pattern: new RegExp(collection.pattern), outside, includeField: collection.includeField, limit: collection.limit }];
  });
  let scanned = 0;
  // Checked before each folder and each match: one match of hostile rules can take most of a second.
  const overBudget = (): boolean => {
    const now = Date.now();
    for (const state of active) {
      if (now <= state.deadline) continue;
      state.warnings.push(`stopped looking for projects after ${state.job.budgetMs} ms (PROJECT_SCAN_BUDGET_MS; ${scanned} folders read, their .gitignore rules are slow to match): answers may miss symbols of projects not found yet`);
      finish(state, false, false);
    }
    return active.length === 0;
  };
  // `inProject`: what the nearest project at or above the folder takes in, for each scan with one (shared until one is found).
  let queue: { rel: string; rules: readonly IgnoreRules[]; hidden: boolean; inProject: ReadonlyMap<ScanState, IncludedFolders> }[] = [{ rel: '', rules: [], hidden: false, inProject: new Map() }];
  walk: while (queue.length > 0 && active.length > 0) {
    const next: typeof queue = [];
    for (const { rel, rules: inherited, hidden, inProject: above } of queue) {
      for (const state of active) {
        if (scanned < state.job.maxDirectories) continue;
        state.warnings.push(`stopped looking for projects after ${state.job.maxDirectories} folders (MAX_SCANNED_DIRECTORIES): answers may miss symbols of projects deeper in the tree`);
        finish(state, false, false);
      }
      if (active.length === 0 || overBudget()) break walk;
      scanned++;
      const abs = join(root, rel);
      let entries: Dirent[];
      try {
        entries = readdirSync(abs, { withFileTypes: true });
      } catch {
        continue; // unreadable folder: skip it, like git does
      }
      // The one gitignore reader and matcher (`walk.ts`), read through the confinement check; only where the listing has one.
      const own = entries.some((e) => e.name === '.gitignore') ? gitignoreOf(root, rel) : undefined;
      const rules = own === undefined ? inherited : [...inherited, own];
      const files = new Set(entries.filter((e) => e.isFile()).map((e) => e.name));
      let inProject = above;
      for (const state of active) {
        const present = state.job.markers.filter((m) => files.has(m));
        if (present.length === 0) continue;
        const field = collectors.find((c) => c.state === state)?.includeField;
        inProject = new Map([...inProject, [state, field !== undefined ? includedFolders(root, rel, join(abs, present[0] as string), field) : 'all']]);
        state.found++;
        if (state.projectDirs.length < state.job.maxProjects) {
          state.projectDirs.push(abs);
          for (const marker of state.job.everyMarker === true ? present : present.slice(0, 1)) state.markerFiles.push(join(abs, marker));
        }
        if (state.job.stopAtLimit && state.projectDirs.length >= state.job.maxProjects) finish(state, true, false);
      }
      for (const { state, listings, isSource } of anchorLookers) if (state.result === undefined) listings.set(abs, anchorListing(entries, isSource));
      for (const { state, pattern, outside, limit } of collectors) {
        // Files are listed outside hidden folders (tools' scripts, committed editor SDKs).
        if (state.result !== undefined || state.filesCut || hidden) continue;
        const included = inProject.get(state);
        const outsideHere = included === undefined || (included !== 'all' && !inIncludedFolder(included, rel)) ? outside : undefined;
        for (const entry of entries) {
          if (!entry.isFile() || !(pattern.test(entry.name) || outsideHere?.test(entry.name) === true)) continue;
          const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
          // Each match of the workspace's rules is checked against the budget, as each folder is.
          if (overBudget()) break walk;
          if (isIgnored(rules, path, false)) continue;
          if (state.files.length >= limit) {
            state.filesCut = true;
            break;
          }
          state.files.push(path);
        }
      }
      if (active.length === 0) break walk;
      // Hidden folders too, but for tools' own (`SKIPPED_DIRS`): monorepos keep projects in `examples/.test/`.
      const dirs = entries.filter((e) => e.isDirectory() && !SKIPPED_DIRS.has(e.name)).map((e) => e.name);
      for (const name of dirs.sort()) {
        const child = rel === '' ? name : `${rel}/${name}`;
        if (overBudget()) break walk;
        if (!isIgnored(rules, child, true)) next.push({ rel: child, rules, hidden: hidden || name.startsWith('.'), inProject });
      }
    }
    queue = next;
  }
  for (const state of active) {
    const { maxProjects } = state.job;
    if (state.found > maxProjects) {
      state.warnings.push(`found ${state.found} projects; loaded the ${maxProjects} closest to the workspace root (MAX_PROJECTS): answers may miss symbols and references of the other ${state.found - maxProjects}`);
    }
    finish(state, state.found <= maxProjects);
  }
  return states.map((state) => state.result as ProjectScan);
}

/** What a scan's job asks of the folders it found: their project files checked, their anchors. */
function afterScan(root: string, job: ProjectsJob, projectDirs: readonly string[], listings: ReadonlyMap<string, AnchorListing> | undefined): Pick<ProjectScan, 'checked' | 'anchors'> {
  const out: { checked?: ProjectScan['checked']; anchors?: string[] } = {};
  if (job.checkFiles !== undefined) out.checked = checkProjectFiles(root, [root, ...projectDirs.filter((d) => d !== root)], job.checkFiles);
  const rule = job.anchorRule;
  if (rule !== undefined) out.anchors = projectDirs.map((dir) => projectAnchor(dir, rule, listings)).filter((file): file is string => file !== undefined);
  return out;
}
