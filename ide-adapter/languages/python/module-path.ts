/**
 * Python module paths: a file's dotted name as `import` writes it (`src/shapes/circle.py` →
 * `shapes.circle`). A regular package is a folder with `__init__.py`: the path starts at the
 * outermost such folder above the file, and `__init__.py` names its package itself. A file in no
 * regular package keeps its folders (namespace packages, PEP 420), except a leading source root
 * (`src/`, the layout packaging tools recommend), which is a search path, not a package.
 */
import type { ModulePathOf, ModuleSegment } from '../../lsp/module-paths.js';

/** Folders that hold packages without being one (pyright adds `src` to its search paths itself). */
const SOURCE_ROOTS = new Set(['src']);

/** Python source files: modules and stubs. */
const PYTHON_FILE = /\.pyi?$/;

/** The module path of a Python file (workspace-relative, `/`-separated). */
export const pythonModulePath: ModulePathOf = async (path, readLines) => {
  const parts = path.split('/');
  const file = (parts.pop() ?? '').replace(PYTHON_FILE, '');
  const isPackage = async (depth: number): Promise<boolean> => {
    const dir = parts.slice(0, depth).join('/');
    return (await exists(`${dir}/__init__.py`, readLines)) || (await exists(`${dir}/__init__.pyi`, readLines));
  };
  // The outermost regular package containing the file, found by walking up while folders are packages.
  let top = parts.length;
  while (top > 0 && (await isPackage(top))) top--;
  const folders = top < parts.length ? parts.slice(top) : parts.slice(parts.length > 0 && SOURCE_ROOTS.has(parts[0] as string) ? 1 : 0);
  const names = file === '__init__' ? folders : [...folders, file];
  return names.filter((n) => n !== '').map((n): ModuleSegment => [n]);
};

async function exists(path: string, readLines: Parameters<ModulePathOf>[1]): Promise<boolean> {
  try {
    await readLines(path);
    return true;
  } catch {
    return false;
  }
}
