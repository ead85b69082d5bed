/**
 * A name defined more often than gopls's `workspace/symbol` returns (100), against the real gopls:
 * every definition is found, and a warm lookup is the server's own request with no work per
 * candidate although gopls cuts a different hundred of the equal matches from one request to the
 * next.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { goplsServer } from '../languages/go/index.js';
import type { LspBackend } from '../lsp-backend.js';
import type { SymbolDefinition } from '../model.js';
import { IdeSession } from '../session.js';
import { requireServer } from './support/servers.js';

const available = (await requireServer(goplsServer)) !== undefined;
const base = await mkdtemp(join(tmpdir(), 'dialect-capped-go-'));
afterAll(() => rm(base, { recursive: true, force: true }));

/** Packages × files, each file one type with a `Value` method. */
const PACKAGES = 3;
const FILES = 50;

describe.skipIf(!available)('gopls past its workspace/symbol cap', () => {
  it('finds every Value method, and a warm lookup asks nothing per candidate', async () => {
    const root = join(base, 'module');
    await mkdir(root, { recursive: true });
    await writeFile(join(root, 'go.mod'), 'module example.com/capped\n\ngo 1.19\n');
    let n = 0;
    for (let p = 0; p < PACKAGES; p++) {
      await mkdir(join(root, `p${p}`));
      for (let f = 0; f < FILES; f++, n++) {
        await writeFile(join(root, `p${p}`, `f${f}.go`), `package p${p}\n\n// Item${n} holds a number.\ntype Item${n} struct{ N int }\n\n// Value of item ${n}.\nfunc (i *Item${n}) Value() int { return i.N + ${n} }\n`);
      }
    }
    const session = await IdeSession.open({ workspaceRoot: root, readyTimeoutMs: 120_000 });
    try {
      await session.waitUntilReady({ timeoutMs: 120_000 });
      // What is kept per disk stamp is kept once the watcher that tells gopls about changes watches.
      const server = await (session.backend as LspBackend).pool.server('gopls');
      await vi.waitFor(() => expect(server.diskStamp()).toBeDefined(), { timeout: 60_000 });
      const portRequests = new Map<string, number>();
      (session.backend as LspBackend).use((request, next) => {
        portRequests.set(request.method, (portRequests.get(request.method) ?? 0) + 1);
        return next();
      });
      const lookup = async (name: string): Promise<SymbolDefinition[]> => {
        portRequests.clear();
        const outcome = await session.evaluate(`findDefinitions(${JSON.stringify(name)})`, { deadlineMs: 120_000 });
        if (outcome.kind !== 'value') throw new Error(JSON.stringify(outcome).slice(0, 500));
        return outcome.value as SymbolDefinition[];
      };
      const all = await lookup('Value');
      expect(all).toHaveLength(PACKAGES * FILES);
      const one = await lookup('Item77.Value');
      expect(one.map((d) => d.definedAt.path)).toEqual(['p1/f27.go']);
      for (let i = 0; i < 3; i++) {
        const warm = await lookup('Item77.Value');
        expect(warm).toEqual(one);
        expect(portRequests.get('workspace/symbol')).toBe(1);
        expect([...portRequests.keys()].filter((method) => method.startsWith('textDocument/'))).toEqual([]);
      }
    } finally {
      await session.shutdown();
    }
  }, 240_000);
});
