/**
 * Python module paths: a file's dotted name as `import` writes it (`src/shapes/circle.py` →
 * `shapes.circle`). Every folder from the source root down is a package: a regular one (with
 * `__init__.py`, which names its package itself) or a namespace package (PEP 420: jaraco's
 * `jaraco/functools/__init__.py` is `jaraco.functools`, though `jaraco/` has no `__init__.py`).
 * The source root is the workspace or its `src/` (the layout packaging tools recommend), which is
 * a search path, not a package. A path holding more folders than an import writes is harmless:
 * qualifiers may skip segments, so `shapes.circle` still names `app.shapes.circle`.
 */
import type { ModulePathOf, ModuleSegment } from '../../lsp/module-paths.js';

/** Folders that hold packages without being one (pyright adds `src` to its search paths itself). */
const SOURCE_ROOTS = new Set(['src']);

/** Python source files: modules and stubs. */
const PYTHON_FILE = /\.pyi?$/;

/** The module path of a Python file (workspace-relative, `/`-separated). */
export const pythonModulePath: ModulePathOf = async (path) => {
  const parts = path.split('/');
  const file = (parts.pop() ?? '').replace(PYTHON_FILE, '');
  const folders = parts.slice(parts.length > 0 && SOURCE_ROOTS.has(parts[0] as string) ? 1 : 0);
  const names = file === '__init__' ? folders : [...folders, file];
  return names.filter((n) => n !== '').map((n): ModuleSegment => [n]);
};
