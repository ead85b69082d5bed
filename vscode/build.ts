/**
 * Bundles the extension into one CommonJS file (`dist/extension.cjs`) with esbuild, so it needs no
 * `node_modules` at run time: the editor loads it with `require`, and only the module `vscode`
 * (the editor's own) stays outside. `tsx vscode/build.ts [folder]` writes an unpacked extension
 * (package.json, dist/ and the package files it looks up) into the folder (default: `vscode/` itself) and prints the folder.
 */
import { copyFile, cp, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** This folder: the extension's sources and its package.json. */
export const EXTENSION_SOURCE_DIR = dirname(fileURLToPath(import.meta.url));

/** The bundle's path inside an unpacked extension, as `main` in package.json names it. */
const BUNDLE = join('dist', 'extension.cjs');

/**
 * Files of the package the bundled modules look up below the extension's root (see
 * ide-adapter/package-files.ts): the untrusted toolchain shims, without which the extension's own
 * rust-analyzer could not start in an untrusted window (`bin/cargo` and `bin/rustc` are scripts,
 * not links: a .vsix, like an npm package, holds none).
 */
const PACKAGE_FILES = [join('ide-adapter', 'languages', 'rust', 'untrusted-toolchain')];

/** The repository root, where {@link PACKAGE_FILES} are. */
const REPOSITORY_ROOT = dirname(EXTENSION_SOURCE_DIR);

/**
 * The walkthrough page's files, copied to `dist/walkthrough/` (the panel loads them from there:
 * a webview gets nothing from the network): the page's own script and stylesheet, and the
 * browser bundles of mermaid and DOMPurify from their npm packages.
 */
function pageAssets(): { readonly from: string; readonly name: string }[] {
  const require = createRequire(join(REPOSITORY_ROOT, 'package.json'));
  return [
    { from: join(REPOSITORY_ROOT, 'walkthrough', 'assets', 'page.js'), name: 'page.js' },
    { from: join(REPOSITORY_ROOT, 'walkthrough', 'assets', 'page.css'), name: 'page.css' },
    { from: require.resolve('mermaid/dist/mermaid.min.js'), name: 'mermaid.min.js' },
    { from: require.resolve('dompurify/dist/purify.min.js'), name: 'purify.min.js' },
  ];
}

/**
 * The file worker (`ide-adapter/file-worker.ts`: search, findFiles, every user pattern under its
 * budget) runs as its own thread from its own file; `packageModule` finds it in the compiled
 * layout, `dist/ide-adapter/file-worker.js`, as an ES module (the manifest's `"type": "module"`).
 */
const FILE_WORKER = 'ide-adapter/file-worker';

/** CommonJS dependencies call `require`; the worker's ES module makes its own (as scripts/bundle.ts does). */
const REQUIRE_BANNER = "import { createRequire as __dialectRequire } from 'node:module'; const require = __dialectRequire(import.meta.url);";

/** The Node the editor's extension host runs (VS Code 1.90+ ships Node 20 or later). */
const TARGET = 'node20';

/** Bundles the extension into `outDir` (package.json + dist/extension.cjs); returns `outDir`. */
export async function buildExtension(outDir: string = EXTENSION_SOURCE_DIR): Promise<string> {
  await mkdir(join(outDir, 'dist'), { recursive: true });
  await build({
    entryPoints: [join(EXTENSION_SOURCE_DIR, 'src', 'extension.ts')],
    outfile: join(outDir, BUNDLE),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: TARGET,
    external: ['vscode'],
    sourcemap: 'linked',
    logLevel: 'warning',
    // Shared modules read `import.meta.url` (to find bundled programs); in a CommonJS bundle it is
    // this file's URL.
    define: { 'import.meta.url': '__dialectImportMetaUrl' },
    banner: { js: "const __dialectImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
  await build({
    entryPoints: [join(REPOSITORY_ROOT, `${FILE_WORKER}.ts`)],
    outfile: join(outDir, 'dist', `${FILE_WORKER}.js`),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: TARGET,
    sourcemap: 'linked',
    logLevel: 'warning',
    banner: { js: REQUIRE_BANNER },
  });
  await mkdir(join(outDir, 'dist', 'walkthrough'), { recursive: true });
  for (const asset of pageAssets()) await copyFile(asset.from, join(outDir, 'dist', 'walkthrough', asset.name));
  for (const file of PACKAGE_FILES) await cp(join(REPOSITORY_ROOT, file), join(outDir, file), { recursive: true, dereference: true, force: true });
  if (resolve(outDir) !== resolve(EXTENSION_SOURCE_DIR)) await copyFile(join(EXTENSION_SOURCE_DIR, 'package.json'), join(outDir, 'package.json'));
  return outDir;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(await buildExtension(process.argv[2] !== undefined ? resolve(process.argv[2]) : undefined));
}
