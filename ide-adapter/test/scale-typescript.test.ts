/**
 * Complete or honest at scale, on generated monorepos (`bench/generate.ts`, at sizes CI affords;
 * the benchmark runs the full sizes) against the real TypeScript 7 server: a name defined more
 * often than tsgo's `workspace/symbol` returns (256) is found every time, and more than 100
 * packages without a root tsconfig are all loaded, with answers that say they are complete.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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

      const first = await lookup();
      expect(new Set(first.map((d) => d.definedAt.path)).size).toBe(300);
      // No request per candidate: a function written once in its file's code (its doc comment
      // names it too) needs no go-to-definition to confirm it.
      expect(portRequests.get('textDocument/definition') ?? 0).toBe(0);

      // Warm, nothing changed: the server's own request and nothing else reaches it (the outlines
      // and the text search that completed the capped answer are kept).
      const warm = await lookup();
      expect(warm.map((d) => `${d.definedAt.path}:${d.definedAt.start.line}`).sort()).toEqual(first.map((d) => `${d.definedAt.path}:${d.definedAt.start.line}`).sort());
      expect(Object.fromEntries(serverRequests)).toEqual({ 'workspace/symbol': 1 });

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

  it('loads more than 100 packages without a root tsconfig, and says the answer is complete', async () => {
    const root = join(base, 'no-root');
    const generated = generateTsMonorepo(root, { packages: 120, filesPerPackage: 1, rootTsconfig: false, definitions: 120 });
    const { found, notes, complete } = await definitions(root);
    expect(found).toHaveLength(generated.definitions);
    expect(complete).toBe(true);
    expect(notes.join('\n')).not.toMatch(/MAX_PROJECTS|text search/);
  }, 240_000);
});
