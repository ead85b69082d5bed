/**
 * Folders never entered when looking for projects, root markers or changes: dependencies, build
 * output, version-control data. The one list (project search, marker scans and the watcher), in a
 * module of its own: the language definitions need it, and must not load the ignore-rule matcher
 * (`walk.ts`, which runs in the file worker) with it.
 */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set(['node_modules', 'target', 'dist', 'build', 'out', '.git', '.hg', '.svn', '.venv', '__pycache__']);
