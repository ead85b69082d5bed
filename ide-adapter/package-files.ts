/**
 * Where the Dialect package's own files are: the one owner of that question. The code runs in
 * three layouts — from the TypeScript sources (tsx, vitest), from tsc's output in `dist/` (the
 * benchmarks, tests that import `dist/`) and from the esbuild bundle in `dist/bundle/` (the
 * `dialect` command) — and only the sources' folders (`walkthrough/assets/`, `mcp/guidance/`,
 * `ide-adapter/languages/rust/untrusted-toolchain/`, `fixtures/`, `package.json`) hold the files. So every
 * lookup starts at the package root (the nearest folder above the running module whose
 * `package.json` is named "dialect-ide"), never at a path relative to `import.meta.url`, which differs
 * per layout (a bundle chunk sits anywhere in `dist/bundle/`).
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's name in its `package.json` (as published on npm): how the root is recognised. */
export const PACKAGE_NAME = 'dialect-ide';

/**
 * The VS Code extension's name: its bundle runs the same modules, and `vscode/build.ts` copies the
 * files they look up (the untrusted toolchain shims) below the extension's root.
 */
const EXTENSION_PACKAGE_NAME = 'dialect-ide-vscode';

/** The folder of the bundle, below the package root (written by `scripts/bundle.mjs`). */
const BUNDLE_DIR = join('dist', 'bundle');

/**
 * The folder of dependencies' files that the package ships built (`scripts/bundle.ts` copies
 * {@link VENDORED_FILES} there): an installed package has no dev dependencies.
 */
const VENDOR_DIR = join('dist', 'vendor');

/**
 * Dependencies' files the running code reads (not imports), by their module specifier: the
 * browser bundles a walkthrough page inlines, and their licences. The bundle's layout reads the
 * copies in `dist/vendor/`; the sources and tsc's output read them from `node_modules`.
 */
export const VENDORED_FILES = ['mermaid/dist/mermaid.min.js', 'mermaid/LICENSE', 'dompurify/dist/purify.min.js', 'dompurify/LICENSE'] as const;

/** One of {@link VENDORED_FILES}. */
export type VendoredFile = (typeof VENDORED_FILES)[number];

/** The folder of tsc's output, below the package root. */
const COMPILED_DIR = 'dist';

/** How the running code was loaded: its sources, tsc's output, or the bundle. */
type PackageLayout = 'source' | 'compiled' | 'bundle';

/** This module's own file: in the bundle, the chunk it was bundled into. */
const HERE = fileURLToPath(import.meta.url);

let found: { readonly root: string; readonly manifest: PackageManifest } | undefined;

/** The fields of `package.json` Dialect reads. */
interface PackageManifest {
  readonly name?: unknown;
  readonly version?: unknown;
}

function readManifest(file: string): PackageManifest | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PackageManifest;
  } catch {
    return undefined;
  }
}

function locate(): { readonly root: string; readonly manifest: PackageManifest } {
  if (found !== undefined) return found;
  let dir = dirname(HERE);
  for (;;) {
    const file = join(dir, 'package.json');
    const manifest = existsSync(file) ? readManifest(file) : undefined;
    if (manifest?.name === PACKAGE_NAME || manifest?.name === EXTENSION_PACKAGE_NAME) return (found = { root: dir, manifest });
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package.json in any folder above ${HERE}: the package is incomplete, reinstall it`);
    dir = parent;
  }
}

/**
 * A file or folder of the package, by its path from the package root (`packageFile('mcp',
 * 'guidance')`); `packageFile()` is the root itself: the nearest folder above the running module
 * whose `package.json` is named "dialect-ide" (or "dialect-ide-vscode", in the extension's bundle).
 */
export function packageFile(...segments: string[]): string {
  return join(locate().root, ...segments);
}

/** The version in the package's `package.json`. */
export function packageVersion(): string {
  const { version } = locate().manifest;
  return typeof version === 'string' ? version : '0.0.0';
}

/**
 * `require` as the package root resolves it: the package's dependencies (`mermaid/dist/…`,
 * `tsnative/package.json`) are found from the root whatever folder the running code is in.
 */
export function packageRequire(): NodeJS.Require {
  return createRequire(packageFile('package.json'));
}

/**
 * Where a dependency's file the code reads is (see {@link VENDORED_FILES}): its copy in
 * `dist/vendor/` when the bundle runs (the installed command), else the installed dependency.
 * Throws when it is missing.
 */
export function vendoredFile(specifier: VendoredFile): string {
  if (packageLayout() === 'bundle') {
    const copy = packageFile(VENDOR_DIR, specifier);
    if (!existsSync(copy)) throw new Error(`${copy} is missing: the package is incomplete (npm run build copies it), reinstall it`);
    return copy;
  }
  return dependencyFile(specifier);
}

/**
 * A file of an installed dependency by its specifier (`dompurify/LICENSE`), found in the
 * `node_modules` folders the package root resolves from — by path, not through the dependency's
 * `exports`, which need not list the files a page inlines. Throws when it is not installed.
 */
export function dependencyFile(specifier: string): string {
  const parts = specifier.split('/');
  const nameLength = parts[0]?.startsWith('@') === true ? 2 : 1;
  const name = parts.slice(0, nameLength).join('/');
  for (const dir of packageRequire().resolve.paths(name) ?? []) {
    if (existsSync(join(dir, name, 'package.json'))) {
      const file = join(dir, name, ...parts.slice(nameLength));
      // Its real path, as Node's resolution gives it (node_modules may be a link).
      if (existsSync(file)) return realpathSync(file);
      break;
    }
  }
  throw new Error(`${specifier} is not installed (npm install ${name})`);
}

/** The copy of a vendored file in the package (`scripts/bundle.ts` writes it); without one, their folder. */
export function vendoredCopy(specifier?: VendoredFile): string {
  return specifier === undefined ? packageFile(VENDOR_DIR) : packageFile(VENDOR_DIR, specifier);
}

/** How the running code was loaded (see the module comment). */
function packageLayout(): PackageLayout {
  if (HERE.endsWith('.ts')) return 'source';
  const path = relative(packageFile(), HERE);
  return path.startsWith(BUNDLE_DIR + sep) ? 'bundle' : 'compiled';
}

/**
 * The extension of a worker thread's entry in the bundle: one CommonJS file, with nothing to
 * import — a worker starts on every cold start, and a module graph of shared chunks took it
 * about 15 ms longer to boot (BENCHMARKS.md, "Scale: start-up by itself").
 */
export const BUNDLED_WORKER_EXTENSION = '.cjs';

/**
 * One of the package's own modules that runs as a separate entry (a worker thread), by its path
 * from the root without extension (`ide-adapter/file-worker`), in the layout the running code
 * uses: the `.ts` source, tsc's `.js` in `dist/`, or the bundle's file of the same path in
 * `dist/bundle/` ({@link BUNDLED_WORKER_EXTENSION}; `scripts/bundle.ts` builds it).
 */
export function packageModule(path: string): string {
  switch (packageLayout()) {
    case 'source':
      return packageFile(`${path}.ts`);
    case 'compiled':
      return packageFile(COMPILED_DIR, `${path}.js`);
    case 'bundle':
      return packageFile(BUNDLE_DIR, `${path}${BUNDLED_WORKER_EXTENSION}`);
  }
}
