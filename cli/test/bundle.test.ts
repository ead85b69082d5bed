/**
 * What a short command loads: `dialect eval` reads the bundle's entry and the chunks they import
 * statically, and those must not hold what only other commands or a started server need (the MCP
 * SDK, walkthroughs with markdown-it, mermaid and DOMPurify, zod for `dialect.json`, the LSP
 * client's Node transport). A warm call — one the background server answers — adds the client of
 * the remote protocol (`cli/server/connect.ts`, imported when a program needs servers) and must
 * still load neither the in-process LSP client and its protocol package nor zod, nor start-up-only
 * Node built-ins. Read from the bundle's own record of its files (esbuild's metafile,
 * `dist/bundle/meta.json`), so a new static import that drags one of them in fails here.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { bin, repoRoot, requireFreshBuild } from './support/cli.js';

interface Metafile {
  readonly outputs: Record<string, { readonly entryPoint?: string; readonly imports: readonly { readonly path: string; readonly kind: string; readonly external?: boolean }[]; readonly inputs: Record<string, unknown> }>;
}

/**
 * The output files loaded when the module `source` (a source path, e.g. `cli/eval.ts`) is loaded:
 * the output that holds it (its own when it is an entry or imported dynamically) and every chunk
 * that output imports statically.
 */
function loadedOutputs(meta: Metafile, source: string): string[] {
  const outputs = Object.keys(meta.outputs).filter((output) => output.endsWith('.js'));
  const start = outputs.find((output) => meta.outputs[output]?.entryPoint === source) ?? outputs.find((output) => source in (meta.outputs[output]?.inputs ?? {}));
  if (start === undefined) throw new Error(`the bundle has no output holding ${source}`);
  const seen = new Set<string>();
  const pending = [start];
  for (let output = pending.pop(); output !== undefined; output = pending.pop()) {
    if (seen.has(output)) continue;
    seen.add(output);
    for (const imported of meta.outputs[output]?.imports ?? []) if (imported.kind === 'import-statement' && imported.external !== true) pending.push(imported.path);
  }
  return [...seen];
}

/** The source files whose code runs when the module `source` is loaded. */
function loadedSources(meta: Metafile, source: string): string[] {
  return loadedOutputs(meta, source).flatMap((output) => Object.keys(meta.outputs[output]?.inputs ?? {}));
}

/** The Node built-ins loaded (imported statically) when the module `source` is loaded. */
function loadedBuiltins(meta: Metafile, source: string): string[] {
  const imports = loadedOutputs(meta, source).flatMap((output) => meta.outputs[output]?.imports ?? []);
  return imports.filter((imported) => imported.kind === 'import-statement' && imported.external === true).map((imported) => imported.path);
}

/** What `dialect eval` must not load, by source path. */
const NOT_ON_THE_EVAL_PATH: readonly RegExp[] = [
  /node_modules\/@modelcontextprotocol\//,
  /node_modules\/markdown-it\//,
  /node_modules\/mermaid\//,
  /node_modules\/dompurify\//,
  /node_modules\/zod\//,
  /node_modules\/vscode-jsonrpc\/lib\/node\//,
  /node_modules\/vscode-languageserver-protocol\/lib\/node\//,
  /^(mcp|walkthrough)\//,
  /^ide-adapter\/lsp\/(client|session)\.ts$/,
  /^cli\/(repl|tour|mcp|walkthrough)\.ts$/,
  // The background server is for programs that ask language servers.
  /node_modules\/vscode-jsonrpc\//,
  /^ide-adapter\/remote\/(remote-backend|transport|errors)\.ts$/,
  /^cli\/server\/connect\.ts$/,
];

/**
 * What a warm call (answered by the background server) must not load: the in-process LSP client
 * and the LSP protocol package (loaded only when an in-process backend is made), zod (the client
 * does not validate results, `ide-adapter/remote/wire-checks.ts`), the server's own side, and
 * what only other commands use.
 */
const NOT_ON_THE_WARM_PATH: readonly RegExp[] = [
  /node_modules\/vscode-languageserver-(protocol|types)\//,
  /node_modules\/zod\//,
  /^ide-adapter\/lsp-backend\.ts$/,
  /^ide-adapter\/lsp\/(client|session|pool|launch|requests)\.ts$/,
  /^ide-adapter\/remote\/(protocol|serve)\.ts$/,
  /^cli\/server\/(spawn|run|commands|control)\.ts$/,
  /node_modules\/@modelcontextprotocol\//,
  /node_modules\/markdown-it\//,
  /^(mcp|walkthrough)\//,
  /^cli\/(repl|tour|mcp|walkthrough)\.ts$/,
];

/**
 * What the warm `dialect eval` — answered whole by the background server (`cli/warm-eval.ts`) —
 * must not load: the parser and interpreter (the server parses and evaluates), the JSON-RPC
 * library (a minimal client speaks to the server), the language definitions (the server checks
 * which server the environment belongs to), and the full command's modules.
 */
const NOT_ON_THE_WARM_CLIENT_PATH: readonly RegExp[] = [
  /^dialect\/(parse|interpreter|tokens|grammar|lexer)\.ts$/,
  /node_modules\/(chevrotain|lodash-es|vscode-jsonrpc|picomatch|ignore|zod)\//,
  /^ide-adapter\/languages\//,
  /^ide-adapter\/(lsp|remote\/remote-backend|session|workspace|config|search)(\/|\.ts$)/,
  /^cli\/server\/(answer-inputs|identity|connect|backend|failover|spawn|run)\.ts$/,
  /^cli\/(eval|session|repl|tour|mcp|walkthrough)\.ts$/,
];

/** Node built-ins only a start (of the background server, a language server, a worker, git) needs: imported when used. */
const BUILTINS_LOADED_WHEN_USED: readonly string[] = ['node:child_process', 'child_process', 'node:worker_threads', 'worker_threads'];

describe('the bundle', () => {
  let meta: Metafile;
  beforeAll(() => {
    requireFreshBuild();
    meta = JSON.parse(readFileSync(join(repoRoot, 'dist', 'bundle', 'meta.json'), 'utf8')) as Metafile;
  });

  it('loads for dialect eval only what a program without servers needs', () => {
    const sources = [...loadedSources(meta, 'cli/main.ts'), ...loadedSources(meta, 'cli/eval.ts')];
    expect(sources).toContain('dialect/parse.ts');
    expect(sources).toContain('ide-adapter/session.ts');
    expect(sources.filter((source) => NOT_ON_THE_EVAL_PATH.some((pattern) => pattern.test(source)))).toEqual([]);
  });

  it('loads for a warm dialect eval only the client of the background server', () => {
    // The warm path: the command, eval, and the connection to the background server (imported when a program needs servers).
    const entries = ['cli/main.ts', 'cli/eval.ts', 'cli/server/connect.ts'];
    const sources = entries.flatMap((entry) => loadedSources(meta, entry));
    expect(sources).toContain('ide-adapter/remote/remote-backend.ts');
    expect(sources.filter((source) => NOT_ON_THE_WARM_PATH.some((pattern) => pattern.test(source)))).toEqual([]);
    expect(entries.flatMap((entry) => loadedBuiltins(meta, entry)).filter((builtin) => BUILTINS_LOADED_WHEN_USED.includes(builtin))).toEqual([]);
  });

  it('loads for a warm dialect eval answered by the background server only its small client', () => {
    const entries = ['cli/main.ts', 'cli/warm-eval.ts'];
    const sources = entries.flatMap((entry) => loadedSources(meta, entry));
    expect(sources).toContain('cli/server/rpc-client.ts');
    expect(sources).toContain('cli/server/eval-protocol.ts');
    expect(sources.filter((source) => NOT_ON_THE_WARM_CLIENT_PATH.some((pattern) => pattern.test(source)))).toEqual([]);
    expect(entries.flatMap((entry) => loadedBuiltins(meta, entry)).filter((builtin) => BUILTINS_LOADED_WHEN_USED.includes(builtin))).toEqual([]);
  });

  it('runs a program that asks no server without loading the in-process LSP backend, its protocol package or vscode-jsonrpc', () => {
    // A module hook (in its own thread) appends each file URL the command loads to $LOAD_LOG.
    const dir = mkdtempSync(join(tmpdir(), 'dialect-bundle-loads-'));
    try {
      const log = join(dir, 'loaded.txt');
      const hooks = join(dir, 'record-loads-hooks.mjs');
      const hook = join(dir, 'record-loads.mjs');
      writeFileSync(hooks, "import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { if (url.startsWith('file:')) appendFileSync(process.env.LOAD_LOG, url + '\\n'); return next(url, context); }\n");
      writeFileSync(hook, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
      const workspace = join(dir, 'ws');
      mkdirSync(workspace);
      writeFileSync(join(workspace, 'a.ts'), 'export const answer = 42;\n');
      const run = spawnSync(process.execPath, ['--import', pathToFileURL(hook).href, bin, 'eval', '[1, lines("a.ts", 1)]', '--workspace', workspace], {
        env: { ...process.env, LOAD_LOG: log },
        encoding: 'utf8',
      });
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
      expect(run.stdout).toContain('export const answer = 42;');
      const loaded = readFileSync(log, 'utf8').split('\n').filter((url) => url !== '');
      const holding = (pattern: RegExp): string[] =>
        Object.keys(meta.outputs)
          .filter((output) => output.endsWith('.js') && Object.keys(meta.outputs[output]?.inputs ?? {}).some((source) => pattern.test(source)))
          .map((output) => pathToFileURL(join(repoRoot, output)).href);
      expect(loaded.filter((url) => holding(/^dialect\/parse\.ts$/).includes(url)).length).toBeGreaterThan(0); // the hook saw the command evaluate
      const notLoaded = [/^ide-adapter\/lsp-backend\.ts$/, /node_modules\/vscode-languageserver-protocol\//, /node_modules\/vscode-jsonrpc\//].flatMap(holding);
      expect(notLoaded.length).toBeGreaterThan(0);
      expect(loaded.filter((url) => notLoaded.includes(url))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the LSP client, zod and the MCP SDK in chunks loaded when needed', () => {
    const everything = Object.values(meta.outputs).flatMap((output) => Object.keys(output.inputs));
    expect(everything).toContain('ide-adapter/lsp/client.ts');
    expect(everything).toContain('ide-adapter/lsp-backend.ts');
    expect(everything.some((source) => /node_modules\/vscode-languageserver-protocol\//.test(source))).toBe(true);
    expect(everything.some((source) => /node_modules\/zod\//.test(source))).toBe(true);
    expect(everything.some((source) => /node_modules\/@modelcontextprotocol\//.test(source))).toBe(true);
  });
});
