/**
 * Folders never entered when looking for projects, root markers or changes: dependencies, build
 * output, version-control data, and the hidden folders tools keep caches and downloads in (a
 * project scan enters other hidden folders: monorepos keep real projects in `examples/.test/`).
 * The one list (project search, marker scans and the watcher), in a module of its own: the
 * language definitions need it, and must not load the ignore-rule matcher (`walk.ts`, which runs
 * in the file worker) with it.
 */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set([
  'node_modules',
  'target',
  'dist',
  'build',
  'out',
  '.git',
  '.hg',
  '.svn',
  '.venv',
  '__pycache__',
  // Hidden folders of tools: caches, build output, downloaded editors and toolchains.
  '.cache',
  '.yarn',
  '.pnpm-store',
  '.next',
  '.nuxt',
  '.turbo',
  '.parcel-cache',
  '.svelte-kit',
  '.vercel',
  '.output',
  '.angular',
  '.docusaurus',
  '.expo',
  '.gradle',
  '.idea',
  '.vscode-test',
  '.tox',
  '.nox',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.terraform',
  '.direnv',
]);
