/**
 * TypeScript and JavaScript: tsgo's definition (TypeScript 7's bundled native server), its detection and
 * project anchors (one file per project, and the JavaScript no project covers: `loose-scripts.ts`),
 * project files, and its untrusted form (`trust.ts`).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { packageRequire } from '../../package-files.js';
import type { AnchorRule } from '../../project-anchor.js';
import { findProjects, PROJECT_SCAN_BUDGET_MS } from '../../lsp/projects.js';
import type { ProjectFileRule } from '../../lsp/project-files.js';
import { withOverride, type LaterAnchors, type ProjectAnchors, type ServerDefinition } from '../../lsp/servers.js';
import { COMMONJS_EXPORTS } from './commonjs.js';
import { JS_VALUE_ALIASES } from './value-aliases.js';
import { LOOSE_SCRIPT_COLLECTION, looseScripts, type LooseScripts } from './loose-scripts.js';
import { untrustedTypeScript } from './trust.js';
import { dependenciesWarnings } from './dependencies.js';
import { uninstalledExtendsNote } from './uninstalled-extends.js';

/** TypeScript's and JavaScript's project files. */
export const TYPESCRIPT_PROJECT_FILES: ProjectFileRule = {
  names: ['tsconfig.json', 'jsconfig.json', 'package.json'],
  projectMarkers: ['tsconfig.json', 'jsconfig.json'],
  extendsIn: ['tsconfig.json', 'jsconfig.json'],
  uninstalledExtendsNote,
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

/** The extensions of the sources that mark a TypeScript/JavaScript workspace, as a glob's alternatives. */
const SOURCE_EXTENSIONS = 'ts,tsx,mts,cts,js,jsx,mjs,cjs';

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
  // Sources alone are enough, as for Python and Go: a browser extension, a static site's scripts,
  // a Deno module have no package.json (their files in no project are opened: `loose-scripts.ts`).
  // A tool's dotfile (`.eslintrc.js` in a Python project) is not the workspace's code.
  filePatterns: [`[!.]*.{${SOURCE_EXTENSIONS}}`, `*/[!.]*.{${SOURCE_EXTENSIONS}}`],
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
  // Dependencies never installed are said from the start (a read of package.json, a stat).
  prepare: (root) => Promise.resolve({ warnings: dependenciesWarnings(root) }),
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
  valueAliases: JS_VALUE_ALIASES,
  renamedReferencesChecked: true,
};

/** A project's anchor: the first TypeScript source (not a declaration file) by name in its `src/`, else `lib/`, else the folder itself, two levels down. */
const TS_ANCHOR_RULE: AnchorRule = { folders: ['src', 'lib', '.'], depth: 2, source: '\\.(m|c)?tsx?$', notEnding: ['.d.ts'] };

/**
 * One source file per TypeScript/JavaScript project at any depth (a folder with tsconfig.json or
 * jsconfig.json, outside gitignored and dependency folders, bounded by `MAX_PROJECTS`): the
 * first `.ts`-like file in its `src/`, `lib/` or the folder itself, searched shallowly.
 */
async function typeScriptAnchors(workspaceRoot: string): Promise<ProjectAnchors> {
  const started = performance.now();
  // The anchors are found by the worker with the scan (`project-anchor.ts`): no reads here.
  const { projectDirs, warnings, complete, anchors = [], files: listed } = await findProjects(workspaceRoot, TS_PROJECT_MARKERS, { anchorRule: TS_ANCHOR_RULE, collectFiles: LOOSE_SCRIPT_COLLECTION });
  // One budget for the start's whole look at the tree: the listing gets what the scan left.
  const left = Math.round(PROJECT_SCAN_BUDGET_MS - (performance.now() - started));
  // JavaScript (and TypeScript) in no project is known to tsgo only once opened: open all of it (bounded). The scan
  // listed the script files on its walk; which ones no project takes in is judged once the
  // anchors are sent (`later`), so that its reading of the projects' configurations (on this
  // thread) does not hold them up while tsgo loads their projects.
  const later = (): Promise<LaterAnchors> =>
    looseScripts(workspaceRoot, projectDirs, { budgetMs: left, ...(listed !== undefined ? { listed } : {}) })
      .catch((): LooseScripts => ({ files: [], warning: 'the JavaScript/TypeScript files outside a project could not be listed: only the ones a question opens are searched' }))
      .then((loose) => ({ files: loose.files, warnings: loose.warning !== undefined ? [`TypeScript: ${loose.warning}`] : [] }));
  return { files: anchors, warnings: warnings.map((w) => `TypeScript: ${w}`), complete, later };
}

