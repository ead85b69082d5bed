/**
 * TypeScript and JavaScript: tsgo's definition (TypeScript 7's bundled native server), its detection and
 * project anchors (one file per project, and the JavaScript no project covers: `loose-scripts.ts`),
 * project files, and its untrusted form (`trust.ts`).
 */
import { readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { packageRequire } from '../../package-files.js';
import { SKIPPED_DIRS } from '../../skipped-dirs.js';
import { findProjects, PROJECT_SCAN_BUDGET_MS } from '../../lsp/projects.js';
import { projectFilesRefusal, type ProjectFileRule } from '../../lsp/project-files.js';
import { withOverride, type LaterAnchors, type ProjectAnchors, type ServerDefinition } from '../../lsp/servers.js';
import { COMMONJS_EXPORTS } from './commonjs.js';
import { looseScripts, type LooseScripts } from './loose-scripts.js';
import { untrustedTypeScript } from './trust.js';

/** TypeScript's and JavaScript's project files. */
export const TYPESCRIPT_PROJECT_FILES: ProjectFileRule = {
  names: ['tsconfig.json', 'jsconfig.json', 'package.json'],
  projectMarkers: ['tsconfig.json', 'jsconfig.json'],
  extendsIn: ['tsconfig.json', 'jsconfig.json'],
};

/** TypeScript 7's package of this platform: its `lib/` holds the tsgo binary and the TypeScript libraries. */
const PLATFORM_PACKAGE = `@typescript/typescript-${process.platform}-${process.arch}`;

/**
 * TypeScript 7's platform package is a dependency of this package itself (optional, one per
 * platform, as `typescript@7` lists them), not `typescript@7`: that package's `tsc` command would
 * be linked into a project that installs Dialect locally, replacing the project's own `tsc`. The
 * checkout also has `tsnative` (`typescript@7`, a dev dependency), whose launcher is the fallback.
 */
function platformPackageJson(): string | undefined {
  for (const require of [packageRequire(), ...launcherPackageJson().map((launcher) => createRequire(launcher))]) {
    try {
      return require.resolve(`${PLATFORM_PACKAGE}/package.json`);
    } catch {
      // Not installed beside this package: try the next place.
    }
  }
  return undefined;
}

/** The `tsnative` launcher package, where installed (a checkout's dev dependency). */
function launcherPackageJson(): string[] {
  try {
    return [packageRequire().resolve('tsnative/package.json')];
  } catch {
    return [];
  }
}

/**
 * The tsgo executable: the platform binary itself (so our process-group kill and RSS reading see
 * the real server), then, in a checkout, the Node launcher `tsnative/bin/tsc`.
 */
export function bundledTypeScriptServer(): string[] {
  const platform = platformPackageJson();
  return [
    ...(platform !== undefined ? [join(dirname(platform), 'lib', process.platform === 'win32' ? 'tsc.exe' : 'tsc')] : []),
    ...launcherPackageJson().map((launcher) => join(dirname(launcher), 'bin', 'tsc')),
  ];
}

/** The folders of the bundled server's packages: its TypeScript libraries are installed sources (`installedSources`). */
function bundledTypeScriptSources(): string[] {
  const platform = platformPackageJson();
  return [...launcherPackageJson(), ...(platform !== undefined ? [platform] : [])].map((p) => dirname(p));
}

/** The files that make a TypeScript/JavaScript folder a project. */
const TS_PROJECT_MARKERS = ['tsconfig.json', 'jsconfig.json'];

/**
 * tsgo's settings (it asks for the `js/ts`, `typescript`, `javascript` and `editor` sections).
 * Automatic type acquisition is off: for a JavaScript workspace tsgo would run `npm install
 * @types/…` for the dependencies its package.json names (network, writes to
 * ~/.cache/typescript, minutes of `indexing (Installing types for …)` — seen on expressjs/express,
 * untrusted). Answers come from what is on disk.
 */
const TSGO_SETTINGS = {
  'js/ts': { tsserver: { automaticTypeAcquisition: { enabled: false } } },
} as const;

/**
 * tsgo logs at VS Code's output-channel levels (0 off … 3 info, 4 warning, 5 error) and at info
 * sends several `window/logMessage`s per opened document (snapshot clones, cache statistics):
 * some 600 messages while a 10,000-file monorepo loads, which tsgo spends time composing and we
 * spend time reading, on the same cores. Warnings and errors still come (kept for crash reports).
 */
const TSGO_INITIALIZATION_OPTIONS = { logVerbosity: 4 } as const;

/** TypeScript and JavaScript via tsgo (`tsc --lsp --stdio` of TypeScript 7). Override: `DIALECT_TS_SERVER`. */
export const typeScriptServer: ServerDefinition = {
  id: 'typescript',
  displayName: 'TypeScript (tsgo)',
  languages: [
    { languageId: 'typescript', extensions: ['.ts', '.mts', '.cts'] },
    { languageId: 'typescriptreact', extensions: ['.tsx'] },
    { languageId: 'javascript', extensions: ['.js', '.mjs', '.cjs'] },
    { languageId: 'javascriptreact', extensions: ['.jsx'] },
  ],
  rootMarkers: ['tsconfig.json', 'jsconfig.json', 'package.json'],
  candidates: (env) => withOverride('DIALECT_TS_SERVER', env, ...bundledTypeScriptServer()),
  overrideVar: 'DIALECT_TS_SERVER',
  args: ['--lsp', '--stdio'],
  settings: TSGO_SETTINGS,
  initializationOptions: TSGO_INITIALIZATION_OPTIONS,
  // tsgo loads a document's project before its next message and reports no progress for it: it
  // is ready when it answers a request sent after the anchors, with no settle delay.
  readiness: 'in-order',
  installedSources: bundledTypeScriptSources,
  installHint: `npm install (Dialect bundles TypeScript 7's server as ${PLATFORM_PACKAGE}; reinstall dialect-ide if it is missing)`,
  projectMarkers: TS_PROJECT_MARKERS,
  projectAnchors: typeScriptAnchors,
  projectFiles: TYPESCRIPT_PROJECT_FILES,
  preflight: (root) => projectFilesRefusal(root, 'TypeScript (tsgo)', TYPESCRIPT_PROJECT_FILES, true),
  // tsgo reads a project when a document of it opens, not at `initialize`: it launches while the
  // preflight checks the project files, and its anchors open once the preflight passed.
  readsNothingBeforeOpen: true,
  // tsgo's workspace/symbol returns at most 256 items, whatever the query.
  workspaceSymbolLimit: 256,
  // tsgo outlines any file of its projects from disk; opening one per outline re-snapshots the project.
  outlinesClosedFiles: true,
  // Overloads and class + namespace merges share a file; interfaces, namespaces, enums and
  // variables (a `require` binding) are still confirmed.
  standaloneKinds: ['function', 'method', 'class'],
  untrusted: untrustedTypeScript,
  wholeModuleExports: COMMONJS_EXPORTS,
  renamedReferencesChecked: true,
};

const TS_SOURCE = /\.(m|c)?tsx?$/;

/**
 * One source file per TypeScript/JavaScript project at any depth (a folder with tsconfig.json or
 * jsconfig.json, outside gitignored and dependency folders, bounded by `MAX_PROJECTS`): the
 * first `.ts`-like file in its `src/`, `lib/` or the folder itself, searched shallowly.
 */
async function typeScriptAnchors(workspaceRoot: string): Promise<ProjectAnchors> {
  const started = performance.now();
  const { projectDirs, warnings, complete } = await findProjects(workspaceRoot, TS_PROJECT_MARKERS);
  // One budget for the start's whole look at the tree: the listing gets what the scan left.
  const left = Math.round(PROJECT_SCAN_BUDGET_MS - (performance.now() - started));
  // JavaScript in no project is known to tsgo only once opened: open all of it (bounded). The
  // projects' anchors open first, without waiting for that listing (a walk of the whole tree):
  // tsgo loads their projects meanwhile. The listing begins once they are sent (`later`), so that
  // its reading of the projects' configurations (on this thread) does not hold them up.
  const found = await Promise.all(projectDirs.map((dir) => projectAnchor(dir)));
  const later = (): Promise<LaterAnchors> =>
    looseScripts(workspaceRoot, projectDirs, { budgetMs: left })
      .catch((): LooseScripts => ({ files: [], warning: 'the JavaScript files outside a project could not be listed: only the ones a question opens are searched' }))
      .then((loose) => ({ files: loose.files, warnings: loose.warning !== undefined ? [`TypeScript: ${loose.warning}`] : [] }));
  const anchors = found.filter((file): file is string => file !== undefined);
  return { files: anchors, warnings: warnings.map((w) => `TypeScript: ${w}`), complete, later };
}

/** The first source of a project folder: in its `src/`, else `lib/`, else the folder itself. */
async function projectAnchor(dir: string): Promise<string | undefined> {
  for (const sub of ['src', 'lib', '.']) {
    const found = await firstSource(join(dir, sub), 2);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The first source file by name in `dir`, else in its folders by name, `depth` levels down. */
async function firstSource(dir: string, depth: number): Promise<string | undefined> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  // The least name in one pass, not a sort of the whole folder (hundreds of files in a package's `src/`).
  const file = firstByName(entries.filter((e) => e.isFile() && TS_SOURCE.test(e.name) && !e.name.endsWith('.d.ts')));
  if (file !== undefined) return join(dir, file.name);
  if (depth <= 0) return undefined;
  const folders = entries.filter((e) => e.isDirectory() && !e.name.startsWith('.') && !SKIPPED_DIRS.has(e.name)).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of folders) {
    const found = await firstSource(join(dir, entry.name), depth - 1);
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
