/**
 * Complete or honest at scale, on generated monorepos (`bench/generate.ts`, at sizes CI affords;
 * the benchmark runs the full sizes) against the real TypeScript 7 server: a name defined more
 * often than tsgo's `workspace/symbol` returns (256) is found every time, and more than 100
 * packages without a root tsconfig are all loaded, with answers that say they are complete.
 */
import { mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { generateTsMonorepo, REPEATED_NAME } from '../../bench/generate.js';
import type { LspBackend } from '../lsp-backend.js';
import type { RequestOptions } from '../lsp/client.js';
import type { SymbolDefinition } from '../model.js';
import { IdeSession } from '../session.js';
import { serversAvailable } from './support/session.js';

const available = await serversAvailable('typescript');
const base = mkdtempSync(join(tmpdir(), 'dialect-scale-ts-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

async function definitions(root: string): Promise<{ found: SymbolDefinition[]; notes: readonly string[]; complete: boolean }> {
  const session = await IdeSession.open({ workspaceRoot: root, readyTimeoutMs: 120_000 });
  try {
    const complete = await session.waitUntilReady({ timeoutMs: 120_000 });
    const outcome = await session.evaluate(`findDefinitions("${REPEATED_NAME}")`, { deadlineMs: 120_000 });
    if (outcome.kind !== 'value') throw new Error(JSON.stringify(outcome).slice(0, 500));
    return { found: outcome.value as SymbolDefinition[], notes: outcome.notes, complete };
  } finally {
    await session.shutdown();
  }
}

describe.skipIf(!available)('TypeScript at scale', () => {
  it('finds every definition of a name defined more often than workspace/symbol returns, with no request per candidate, and follows the disk', async () => {
    const root = join(base, 'capped');
    const generated = generateTsMonorepo(root, { packages: 3, filesPerPackage: 100, rootTsconfig: true, definitions: 300 });
    expect(generated.definitions).toBe(300);
    // A workspace at rest: its files were last changed well before the server started.
    const past = new Date(Date.now() - 3_600_000);
    for (let p = 0; p < 3; p++) for (const name of readdirSync(join(root, 'packages', `p${p}`, 'src'))) utimesSync(join(root, 'packages', `p${p}`, 'src', name), past, past);
    const session = await IdeSession.open({ workspaceRoot: root, readyTimeoutMs: 120_000 });
    try {
      await session.waitUntilReady({ timeoutMs: 120_000 });
      // What reaches the server, by method: the port's requests and the language server's own.
      const portRequests = new Map<string, number>();
      session.backend.use((request, next) => {
        portRequests.set(request.method, (portRequests.get(request.method) ?? 0) + 1);
        return next();
      });
      const server = await (session.backend as LspBackend).pool.server('typescript');
      const serverRequests = new Map<string, number>();
      const send = server.request.bind(server) as (method: string, params?: unknown, options?: RequestOptions) => Promise<unknown>;
      server.request = ((method: string | { readonly method: string }, params?: unknown, options?: RequestOptions) => {
        const name = typeof method === 'string' ? method : method.method;
        serverRequests.set(name, (serverRequests.get(name) ?? 0) + 1);
        return send(name, params, options);
      });
      const lookup = async (): Promise<SymbolDefinition[]> => {
        portRequests.clear();
        serverRequests.clear();
        const outcome = await session.evaluate(`findDefinitions("${REPEATED_NAME}")`, { deadlineMs: 120_000 });
        if (outcome.kind !== 'value') throw new Error(JSON.stringify(outcome).slice(0, 500));
        return outcome.value as SymbolDefinition[];
      };

      // The watcher that tells tsgo about changes starts with tsgo's first registration: what is
      // kept per disk stamp is kept once it watches.
      await vi.waitFor(() => expect(server.diskStamp()).toBeDefined(), { timeout: 60_000 });
      // The documents the lookup opens in the server (those open before, the project anchors, stay).
      const openBefore = new Set(server.openDocuments().map((d) => d.path));
      const opened: string[] = [];
      const ensureOpen = server.ensureOpen.bind(server);
      server.ensureOpen = (path, options) => {
        if (!openBefore.has(path)) opened.push(path);
        return ensureOpen(path, options);
      };
      const first = await lookup();
      expect(new Set(first.map((d) => d.definedAt.path)).size).toBe(300);
      // No request per candidate: a function written once in its file's code (its doc comment
      // names it too) needs no go-to-definition to confirm it.
      expect(portRequests.get('textDocument/definition') ?? 0).toBe(0);
      // Each definition at its name, as the file's text says.
      for (const d of first.slice(0, 20)) expect(d.definedAt.content.slice(d.definedAt.start.column - 1)).toMatch(new RegExp(`^${REPEATED_NAME}\\(`));
      // The outlines are asked without opening the files (tsgo outlines a file it was not given;
      // a didOpen per file re-snapshots its project): no defining file was opened.
      expect(serverRequests.get('textDocument/documentSymbol')).toBeGreaterThanOrEqual(300);
      expect(opened.filter((path) => first.some((d) => path.endsWith(d.definedAt.path)))).toEqual([]);

      // Warm, nothing changed: the server's own request and nothing else reaches it, and the
      // lookup does no work per candidate (it asks the backend for no outline and no definition).
      const warm = await lookup();
      expect(warm.map((d) => `${d.definedAt.path}:${d.definedAt.start.line}`).sort()).toEqual(first.map((d) => `${d.definedAt.path}:${d.definedAt.start.line}`).sort());
      expect(Object.fromEntries(serverRequests)).toEqual({ 'workspace/symbol': 1 });
      expect(portRequests.get('workspace/symbol')).toBe(1);
      expect([...portRequests.keys()].filter((method) => method.startsWith('textDocument/'))).toEqual([]);

      // A definition moved down its file is found at its new line by the next question (the kept
      // answer, the outline and the server's view all follow the disk).
      const moved = first.find((d) => d.definedAt.path.startsWith('packages/p1/')) as SymbolDefinition;
      const movedText = await readFile(join(root, moved.definedAt.path), 'utf8');
      await writeFile(join(root, moved.definedAt.path), `// moved\n// down\n${movedText}`);
      const shifted = await lookup();
      expect(shifted).toHaveLength(300);
      expect(shifted.find((d) => d.definedAt.path === moved.definedAt.path)?.definedAt.start).toEqual({ line: moved.definedAt.start.line + 2, column: moved.definedAt.start.column });

      // A new definition on disk is found by the next question: what is kept follows the disk.
      const added = 'packages/p0/src/added.ts';
      await writeFile(join(root, added), `/** ${REPEATED_NAME}, added. */\nexport function ${REPEATED_NAME}(): number {\n  return 0;\n}\n`);
      const after = await lookup();
      expect(after).toHaveLength(301);
      expect(after.some((d) => d.definedAt.path === added)).toBe(true);
    } finally {
      await session.shutdown();
    }
  }, 240_000);

  it('says the cap when it cannot complete it (a name the text search does not complete)', async () => {
    // A name with a letter outside ASCII: the completion searches plain names only.
    const name = 'handlerÑ';
    const root = join(base, 'unicode');
    await mkdir(join(root, 'src'), { recursive: true });
    await writeFile(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'ESNext', target: 'ES2022' }, include: ['src'] }));
    await Promise.all(Array.from({ length: 300 }, (_, i) => writeFile(join(root, 'src', `f${i}.ts`), `export function ${name}(value: number): number {\n  return value + ${i};\n}\n`)));
    const session = await IdeSession.open({ workspaceRoot: root, readyTimeoutMs: 120_000 });
    try {
      await session.waitUntilReady({ timeoutMs: 120_000 });
      const outcome = await session.evaluate(`findDefinitions("${name}")`, { deadlineMs: 120_000 });
      if (outcome.kind !== 'value') throw new Error(JSON.stringify(outcome).slice(0, 500));
      expect((outcome.value as unknown[]).length).toBe(256);
      expect(outcome.notes.join('\n')).toContain(`workspace/symbol lists at most 256 symbols; definitions of "${name}" past them may be missing`);
    } finally {
      await session.shutdown();
    }
  }, 240_000);

  it('loads more than 100 packages without a root tsconfig, and says the answer is complete', async () => {
    const root = join(base, 'no-root');
    const generated = generateTsMonorepo(root, { packages: 120, filesPerPackage: 1, rootTsconfig: false, definitions: 120 });
    const { found, notes, complete } = await definitions(root);
    expect(found).toHaveLength(generated.definitions);
    expect(complete).toBe(true);
    expect(notes.join('\n')).not.toMatch(/MAX_PROJECTS|text search/);
  }, 240_000);
});
