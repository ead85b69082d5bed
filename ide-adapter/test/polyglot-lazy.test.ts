/**
 * In a polyglot workspace a language's server starts when a question first needs its language:
 * opening the session starts none, a question about a TypeScript file starts only tsgo, and the
 * status says which servers are not started yet (never "ready" for one that is not running).
 * Real tsgo on a copy of fixtures/polyglot (Rust, TypeScript, Python, Go and C side by side).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typeScriptServer } from '../languages/typescript/index.js';
import type { SymbolDefinition } from '../model.js';
import { IdeSession } from '../session.js';
import { copyFixture, positionOf, requireServer } from './support/servers.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const ts = await requireServer(typeScriptServer);

describe.skipIf(ts === undefined)('a polyglot workspace starts each server when its language is needed', () => {
  let copy: { root: string; dispose: () => Promise<void> };
  let session: IdeSession;

  beforeAll(async () => {
    copy = await copyFixture('polyglot');
    session = await IdeSession.open({ workspaceRoot: copy.root, readyTimeoutMs: 120_000 }); // eager, as the REPL and MCP open it
    await session.started;
  });

  afterAll(async () => {
    await session?.shutdown();
    await copy?.dispose();
  });

  it('starts none at open: every detected server is listed as not started', () => {
    const listing = session.backend.servers();
    expect(listing.map((s) => s.id)).toEqual(expect.arrayContaining(['rust-analyzer', 'typescript']));
    for (const s of listing) {
      expect(s.state, s.id).toBe('idle');
      expect(s.pid, s.id).toBeUndefined();
    }
  });

  it('a question about a TypeScript file starts tsgo alone, and status() says the others are not started', async () => {
    const path = 'web/src/invoice.ts';
    const at = positionOf(await readFile(join(copy.root, path), 'utf8'), 'class Invoice', 0);
    const outcome = await session.evaluate(`symbolAt("${path}", ${at.line}, ${at.column + 'class '.length})`, { deadlineMs: 120_000 });
    expect(outcome.kind, JSON.stringify(outcome)).toBe('value');
    const symbol = (outcome as { value: SymbolDefinition }).value;
    expect([symbol.name, symbol.language]).toEqual(['Invoice', 'typescript']);

    const byId = new Map(session.backend.servers().map((s) => [s.id, s]));
    expect(byId.get('typescript')?.state).toBe('ready');
    expect(byId.get('typescript')?.pid).toBeTypeOf('number');
    const others = [...byId.values()].filter((s) => s.id !== 'typescript');
    expect(others.map((s) => s.id)).toContain('rust-analyzer');
    for (const s of others) expect([s.id, s.state, s.pid]).toEqual([s.id, 'idle', undefined]);

    const status = await session.evaluate('status()');
    expect(status.kind).toBe('value');
    const text = (status as { value: string }).value;
    expect(text).toMatch(/server rust-analyzer: not started\n {2}state: not started yet/);
    expect(text).toMatch(/server TypeScript \(tsgo\): ready/);
    // Asking for the status started nothing.
    expect(session.backend.servers().find((s) => s.id === 'rust-analyzer')?.state).toBe('idle');
  });
});
