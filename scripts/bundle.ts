/**
 * The bundle the `dialect` command runs (`npm run build`, after tsc): esbuild bundles the CLI and
 * the file worker from the TypeScript sources, with their dependencies, into `dist/bundle/`.
 * Loading a few large files instead of hundreds of small ones (Chevrotain alone pulls in
 * lodash-es's module tree) is most of a short command's start-up (BENCHMARKS.md, "Start-up").
 * Splitting keeps what only some commands use — the REPL, MCP, walkthroughs, the tour — in chunks
 * that `eval` never loads. Each entry keeps its path (`dist/bundle/cli/main.js`), which is how
 * `ide-adapter/package-files.ts` finds the worker's entry; package files (assets, guidance, shims)
 * are not copied but found from the package root.
 */
import { rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The package root (this script runs compiled, from `dist/scripts/`). */
const root = fileURLToPath(new URL('../..', import.meta.url));

/** The bundle's entries, by their path from the root without extension: the command and the file worker. */
const ENTRIES = ['cli/main', 'ide-adapter/file-worker'];

/**
 * Dependencies written as CommonJS call `require` (vscode-jsonrpc: `require("util")`); an ES module
 * has none, so each output file makes its own.
 */
const REQUIRE_BANNER = "import { createRequire as __dialectRequire } from 'node:module'; const require = __dialectRequire(import.meta.url);";

const outdir = `${root}dist/bundle`;
await rm(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: Object.fromEntries(ENTRIES.map((entry) => [entry, `${entry}.ts`])),
  outdir,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
  sourcemap: 'linked',
  banner: { js: REQUIRE_BANNER },
  legalComments: 'linked',
  logLevel: 'warning',
  metafile: true,
});
// What each output file holds and imports: `cli/test/bundle.test.ts` checks what `eval` loads.
await writeFile(`${outdir}/meta.json`, JSON.stringify(result.metafile));
const files = Object.keys(result.metafile.outputs).filter((file) => file.endsWith('.js'));
process.stderr.write(`bundle: ${files.length} files in dist/bundle/\n`);
