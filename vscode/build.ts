/**
 * Bundles the extension into one CommonJS file (`dist/extension.cjs`) with esbuild, so it needs no
 * `node_modules` at run time: the editor loads it with `require`, and only the module `vscode`
 * (the editor's own) stays outside. `tsx vscode/build.ts [folder]` writes an unpacked extension
 * (package.json + dist/) into the folder (default: `vscode/` itself) and prints the folder.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** This folder: the extension's sources and its package.json. */
export const EXTENSION_SOURCE_DIR = dirname(fileURLToPath(import.meta.url));

/** The bundle's path inside an unpacked extension, as `main` in package.json names it. */
const BUNDLE = join('dist', 'extension.cjs');

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
  if (resolve(outDir) !== resolve(EXTENSION_SOURCE_DIR)) await copyFile(join(EXTENSION_SOURCE_DIR, 'package.json'), join(outDir, 'package.json'));
  return outDir;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(await buildExtension(process.argv[2] !== undefined ? resolve(process.argv[2]) : undefined));
}
