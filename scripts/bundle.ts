/**
 * The bundle the `dialect` command runs (`npm run build`, after tsc): esbuild bundles the CLI and
 * the file worker from the TypeScript sources, with their dependencies, into `dist/bundle/`.
 * Loading a few large files instead of hundreds of small ones (Chevrotain alone pulls in
 * lodash-es's module tree) is most of a short command's start-up (BENCHMARKS.md, "Start-up").
 * Splitting keeps what only some commands use — the REPL, MCP, walkthroughs, the tour — in chunks
 * that `eval` never loads. Each entry keeps its path (`dist/bundle/cli/main.js`), which is how
 * `ide-adapter/package-files.ts` finds the worker's entry; package files (assets, guidance, shims)
 * are not copied but found from the package root. The browser bundles a page inlines (mermaid,
 * DOMPurify) are copied into `dist/vendor/` (`VENDORED_FILES`), so they are dev dependencies: the
 * installed package needs none of its dependencies but the TypeScript server.
 *
 * `--if-stale` (the `prepack` script: `npm pack` and `npm publish`) builds only when the bundle is
 * missing or older than one of its inputs (every source and dependency file esbuild read, listed
 * in the last build's metafile), this script or package.json — so packing a fresh checkout does
 * not rewrite the bundle other processes may be running.
 */
import { existsSync, statSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { BUNDLED_WORKER_EXTENSION, dependencyFile, packageFile, VENDORED_FILES, vendoredCopy } from '../ide-adapter/package-files.js';

/** The package root, found as the running code finds it (this script runs compiled from `dist/scripts/`, or under tsx). */
const root = `${packageFile()}/`;

/**
 * The bundle's entries, by their path from the root without extension: the command and the
 * library (`IdeSession` and the IDE functions, as the MCP server and the background server open
 * them: the start-up bench times a session from it).
 */
const ENTRIES = ['cli/main', 'ide-adapter/index'];

/** The file worker's entry, bundled alone into one CommonJS file (`packageModule` finds it): a worker boots on every cold start. */
const WORKER_ENTRY = 'ide-adapter/file-worker';

/** The warm `dialect eval`'s entry, bundled alone into one file (`bin/dialect.js` runs `eval` through it). */
const WARM_ENTRY = 'cli/warm-eval';

/**
 * Dependencies written as CommonJS call `require` (vscode-jsonrpc: `require("util")`); an ES module
 * has none, so each output file makes its own.
 */
const REQUIRE_BANNER = "import { createRequire as __dialectRequire } from 'node:module'; const require = __dialectRequire(import.meta.url);";

/** Marks a resolution made by {@link sideEffectFreeSources} itself, so it does not recurse. */
const RESOLVING = Symbol('resolving');

/**
 * Our own modules declare only functions, classes and constants at their top level (none is
 * imported for an effect of loading it), so esbuild may leave out a module whose exports a bundle
 * entry does not use — as `"sideEffects": false` says for a package. Without it, one import
 * through a barrel (`dialect/index.ts`) would load every module the barrel names: the warm
 * `dialect eval` would load the parser and Chevrotain to get `DialectError`.
 */
const sideEffectFreeSources: Plugin = {
  name: 'side-effect-free-sources',
  setup(plugin) {
    plugin.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData === RESOLVING || args.importer.includes('/node_modules/')) return undefined;
      const resolved = await plugin.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: RESOLVING });
      if (resolved.errors.length > 0 || resolved.external || resolved.path.includes('/node_modules/')) return undefined;
      return { path: resolved.path, sideEffects: false };
    });
  },
};

const outdir = `${root}dist/bundle`;
const METAFILE = `${outdir}/meta.json`;

/** Why the bundle must be built, or `undefined` when it is newer than everything it was made from. */
async function staleness(): Promise<string | undefined> {
  if (!existsSync(METAFILE)) return 'there is no bundle';
  const built = statSync(METAFILE).mtimeMs;
  const meta = JSON.parse(await readFile(METAFILE, 'utf8')) as Metafile;
  const inputs = [...Object.keys(meta.inputs), join('scripts', 'bundle.ts'), 'package.json'];
  for (const input of inputs) {
    const path = input.startsWith('/') ? input : join(root, input);
    if (!existsSync(path)) return `${input} is gone`;
    if (statSync(path).mtimeMs > built) return `${input} changed`;
  }
  for (const file of VENDORED_FILES) if (!existsSync(vendoredCopy(file))) return `dist/vendor/${file} is missing`;
  return undefined;
}

if (process.argv.includes('--if-stale')) {
  const why = await staleness();
  if (why === undefined) {
    process.stderr.write('bundle: dist/bundle/ is up to date\n');
    process.exit(0);
  }
  process.stderr.write(`bundle: building (${why})\n`);
}

await rm(outdir, { recursive: true, force: true });
// What both builds share: the runtime, the compiler settings, the banner and the metafile the tests read.
const common = {
  absWorkingDir: root,
  outdir,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
  sourcemap: 'linked',
  banner: { js: REQUIRE_BANNER },
  legalComments: 'linked',
  logLevel: 'warning',
  metafile: true,
  plugins: [sideEffectFreeSources],
} as const satisfies BuildOptions;
const split = await build({
  ...common,
  entryPoints: Object.fromEntries(ENTRIES.map((entry) => [entry, `${entry}.ts`])),
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
});
// The warm `dialect eval` (cli/warm-eval.ts) as one file beside the command's entry: a warm call
// loads it alone (each further module costs a warm call about a millisecond); when the command
// must run, it imports the entry `./main.js` of the build above.
const warm = await build({
  ...common,
  entryPoints: { [WARM_ENTRY]: `${WARM_ENTRY}.ts` },
  external: ['./main.js'],
});
// The file worker as one CommonJS file: no module graph to resolve and link while a start waits for it.
const worker = await build({
  ...common,
  entryPoints: { [WORKER_ENTRY]: `${WORKER_ENTRY}.ts` },
  format: 'cjs',
  banner: {},
  outExtension: { '.js': BUNDLED_WORKER_EXTENSION },
});
const builds = [split, warm, worker];
const result = { metafile: { inputs: Object.assign({}, ...builds.map((b) => b.metafile.inputs)) as Metafile['inputs'], outputs: Object.assign({}, ...builds.map((b) => b.metafile.outputs)) as Metafile['outputs'] } };
// What each output file holds and imports: `cli/test/bundle.test.ts` checks what `eval` loads.
// The dependencies' files pages inline, with their licences.
await rm(vendoredCopy(), { recursive: true, force: true });
for (const file of VENDORED_FILES) {
  await mkdir(dirname(vendoredCopy(file)), { recursive: true });
  await copyFile(dependencyFile(file), vendoredCopy(file));
}
// Written last: its time is the build's (see staleness).
await writeFile(METAFILE, JSON.stringify(result.metafile));
const files = Object.keys(result.metafile.outputs).filter((file) => file.endsWith('.js') || file.endsWith(BUNDLED_WORKER_EXTENSION));
process.stderr.write(`bundle: ${files.length} files in dist/bundle/\n`);
