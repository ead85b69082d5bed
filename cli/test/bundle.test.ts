/**
 * What a short command loads: `dialect eval` reads the bundle's entry and the chunks they import
 * statically, and those must not hold what only other commands or a started server need (the MCP
 * SDK, walkthroughs with markdown-it, mermaid and DOMPurify, zod for `dialect.json`, the LSP
 * client's Node transport). Read from the bundle's own record of its files (esbuild's metafile,
 * `dist/bundle/meta.json`), so a new static import that drags one of them in fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, requireFreshBuild } from './support/cli.js';

interface Metafile {
  readonly outputs: Record<string, { readonly entryPoint?: string; readonly imports: readonly { readonly path: string; readonly kind: string; readonly external?: boolean }[]; readonly inputs: Record<string, unknown> }>;
}

/** The source files whose code runs when `entry` (a source path, e.g. `cli/eval.ts`) is loaded: its output and every chunk it imports statically. */
function loadedSources(meta: Metafile, entry: string): string[] {
  const start = Object.keys(meta.outputs).find((output) => meta.outputs[output]?.entryPoint === entry);
  if (start === undefined) throw new Error(`the bundle has no output for ${entry}`);
  const seen = new Set<string>();
  const pending = [start];
  for (let output = pending.pop(); output !== undefined; output = pending.pop()) {
    if (seen.has(output)) continue;
    seen.add(output);
    for (const imported of meta.outputs[output]?.imports ?? []) if (imported.kind === 'import-statement' && imported.external !== true) pending.push(imported.path);
  }
  return [...seen].flatMap((output) => Object.keys(meta.outputs[output]?.inputs ?? {}));
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
];

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

  it('keeps the LSP client, zod and the MCP SDK in chunks loaded when needed', () => {
    const everything = Object.values(meta.outputs).flatMap((output) => Object.keys(output.inputs));
    expect(everything).toContain('ide-adapter/lsp/client.ts');
    expect(everything.some((source) => /node_modules\/zod\//.test(source))).toBe(true);
    expect(everything.some((source) => /node_modules\/@modelcontextprotocol\//.test(source))).toBe(true);
  });
});
