/**
 * Finding the projects of a workspace at any depth: every folder holding one of a set of marker
 * files (`tsconfig.json`, `jsconfig.json`), breadth-first so the projects closest to the root come
 * first, outside dependency, build-output, tool-cache (`SKIPPED_DIRS`) and gitignored folders (other hidden folders are entered), never through symlinked
 * folders. Monorepos put projects at `packages/x/` and deeper (`packages/group/lib/`); a server
 * that builds projects only for open files (tsgo) knows a project only if we find it.
 *
 * The scan matches the workspace's `.gitignore` rules, so it runs in the file worker under a
 * budget (`project-scan.ts`), never on this thread: a hostile `.gitignore` delays a server's
 * start by the budget at most, with a note, and blocks nothing meanwhile.
 */
import { DialectError, EvalCode } from '../../dialect/outcome.js';
import { FILE_JOB_BUDGET_MS, runFileJob } from '../file-jobs.js';
import type { AnchorRule } from '../project-anchor.js';
import type { ProjectFilesCheck } from '../project-files-check.js';
import type { FileCollection, ProjectScan, ProjectsJob } from '../project-scan.js';

/**
 * At most this many projects are returned (a note says when there were more, and answers count as
 * incomplete). Each is one open file and one loaded program in the server; monorepos of a few
 * hundred packages fit.
 */
export const MAX_PROJECTS = 250;

/** At most this many folders are read while looking for projects (a note says when the scan stopped). */
export const MAX_SCANNED_DIRECTORIES = 20_000;

/**
 * A project scan stops after this long with what it found and a note (real trees take well under a
 * second; only `.gitignore` rules slow to match take longer). Past it, plus `FILE_JOB_BUDGET_MS`
 * for a match that cannot be interrupted, the worker is terminated.
 */
export const PROJECT_SCAN_BUDGET_MS = 5_000;

/** Options of {@link findProjects}. */
export interface ProjectScanOptions {
  /** Defaults to {@link MAX_PROJECTS}. */
  readonly maxProjects?: number;
  /** Defaults to {@link MAX_SCANNED_DIRECTORIES}. */
  readonly maxDirectories?: number;
  /** Stop as soon as `maxProjects` are found, without counting the rest (no note then). */
  readonly stopAtLimit?: boolean;
  /** Defaults to {@link PROJECT_SCAN_BUDGET_MS}. */
  readonly budgetMs?: number;
  /** List every marker of a folder in `markerFiles` (`ProjectsJob.everyMarker`). */
  readonly everyMarker?: boolean;
  /** Check the project files of the root and of each folder found (`ProjectsJob.checkFiles`). */
  readonly checkFiles?: ProjectFilesCheck;
  /** Find each folder's anchor (`ProjectsJob.anchorRule`). */
  readonly anchorRule?: AnchorRule;
  /** List the files the walk passes whose name matches (`ProjectsJob.collectFiles`). */
  readonly collectFiles?: FileCollection;
}

/**
 * Every folder under `root` that holds one of `markers`, bounded by the limits of `options`.
 * Never throws: a scan that fails or overruns even its hard budget found nothing, and says so.
 */
export async function findProjects(root: string, markers: readonly string[], options: ProjectScanOptions = {}): Promise<ProjectScan> {
  const budgetMs = options.budgetMs ?? PROJECT_SCAN_BUDGET_MS;
  const job = {
    kind: 'projects',
    root,
    markers,
    maxProjects: options.maxProjects ?? MAX_PROJECTS,
    maxDirectories: options.maxDirectories ?? MAX_SCANNED_DIRECTORIES,
    stopAtLimit: options.stopAtLimit === true,
    budgetMs,
    ...(options.everyMarker === true ? { everyMarker: true } : {}),
    ...(options.checkFiles !== undefined ? { checkFiles: options.checkFiles } : {}),
    ...(options.anchorRule !== undefined ? { anchorRule: options.anchorRule } : {}),
    ...(options.collectFiles !== undefined ? { collectFiles: options.collectFiles } : {}),
  } as const;
  const overrun = (stopped: string): DialectError =>
    new DialectError({ code: EvalCode.DeadlineExceeded, message: `the search for projects ${stopped} (PROJECT_SCAN_BUDGET_MS and FILE_JOB_BUDGET_MS)` });
  // A server's start asks the same question twice at once (its preflight checks the project
  // files, its anchors open one file per project): one scan answers both.
  const key = JSON.stringify(job);
  let scan = inFlight.get(key);
  if (scan === undefined) {
    scan = batched(job, overrun).then(
      (found) => found,
      (error: unknown) => {
        const why = error instanceof Error ? error.message : String(error);
        return { projectDirs: [], markerFiles: [], warnings: [`found no projects: ${why}; answers may miss the symbols of every project`], complete: false };
      },
    );
    const settled = scan;
    inFlight.set(key, settled);
    void settled.finally(() => inFlight.delete(key));
  }
  return scan;
}

/** The scans running now, by their job: a scan is shared only while it runs, never reused after. */
const inFlight = new Map<string, Promise<ProjectScan>>();

/** Scans of one root asked for in the current turn, not sent to the worker yet. */
const pending = new Map<string, { readonly jobs: ProjectsJob[]; readonly settle: ((result: ProjectScan | Error) => void)[] }>();

/**
 * Sends `job` to the file worker with the other scans of its root asked for in the same turn: a
 * server's start asks for its projects while detection looks for other languages' markers, and
 * one walk (in one worker) answers both (`project-scan.ts` `scanManyProjectsSync`).
 */
function batched(job: ProjectsJob, overrun: (stopped: string) => DialectError): Promise<ProjectScan> {
  return new Promise((resolve, reject) => {
    let batch = pending.get(job.root);
    if (batch === undefined) {
      const created = { jobs: [] as ProjectsJob[], settle: [] as ((result: ProjectScan | Error) => void)[] };
      batch = created;
      pending.set(job.root, created);
      queueMicrotask(() => {
        pending.delete(job.root);
        const timeoutMs = Math.max(...created.jobs.map((j) => j.budgetMs)) + FILE_JOB_BUDGET_MS;
        runFileJob({ kind: 'project-scans', root: job.root, scans: created.jobs }, { timeoutMs, overrun }).then(
          (scans) => created.settle.forEach((settle, i) => settle(scans[i] ?? new Error('the file worker answered fewer scans than asked'))),
          (error: unknown) => created.settle.forEach((settle) => settle(error instanceof Error ? error : new Error(String(error)))),
        );
      });
    }
    batch.jobs.push(job);
    batch.settle.push((result) => (result instanceof Error ? reject(result) : resolve(result)));
  });
}
