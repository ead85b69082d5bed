/**
 * Answers say how complete they are: a query that does not wait for indexing says so, so an empty
 * answer never looks like "no such symbol"; and the text-search fallback finds definitions the
 * index does not offer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incompleteMarker } from '../indexing.js';
import { IdeSession } from '../session.js';
import type { SymbolDefinition } from '../model.js';
import { rustOfflineEnv } from './support/rust-offline.js';
import { copyFixture, positionOf } from './support/servers.js';
import { serversAvailable } from './support/session.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const available = await serversAvailable('rust');

describe.skipIf(!available)('completeness and fallbacks (rust-analyzer)', () => {
  let copy: { root: string; dispose: () => Promise<void> };
  beforeAll(async () => {
    copy = await copyFixture('rust-app');
  });
  afterAll(async () => {
    await copy?.dispose();
  });

  it('a query before indexing finishes carries a note saying the answer may be incomplete', async () => {
    const session = await IdeSession.open({ workspaceRoot: copy.root, env: await rustOfflineEnv(), readyTimeoutMs: 1 });
    try {
      const { outcome: o, completeness } = await session.answer('findDefinitions("User")', { deadlineMs: 60_000 });
      expect(o.kind).toBe('value');
      expect(incompleteMarker(completeness)).toMatch(/^\[incomplete: rust-analyzer (starting|indexing)[^\]]*— ask again shortly\]$/);
    } finally {
      await session.shutdown();
    }
  });

  it('a name used where a symbol is expected waits for the index instead of coming back "not found"', async () => {
    const session = await IdeSession.open({ workspaceRoot: copy.root, env: await rustOfflineEnv(), readyTimeoutMs: 120_000 });
    try {
      const o = await session.evaluate('findReferences("MAX_TASKS")', { deadlineMs: 120_000 });
      if (o.kind !== 'value') throw new Error(`expected references, got ${o.kind}`);
      const text = await readFile(join(copy.root, 'src/lib.rs'), 'utf8');
      const uses = text.split('MAX_TASKS').length - 2; // occurrences in lib.rs minus the definition
      expect((o.value as unknown[]).length).toBeGreaterThanOrEqual(Math.max(1, uses));
    } finally {
      await session.shutdown();
    }
  });

  it('when the index offers nothing, text search confirmed by go-to-definition finds the definition', async () => {
    const session = await IdeSession.open({ workspaceRoot: copy.root, env: await rustOfflineEnv(), readyTimeoutMs: 120_000 });
    try {
      await session.waitUntilReady({ timeoutMs: 120_000 });
      // A backend whose index is empty: everything else is the real server.
      const real = session.backend;
      const blind = new Proxy(real, {
        get: (target, key): unknown => {
          if (key === 'workspaceSymbols') return async () => [];
          const v: unknown = Reflect.get(target, key);
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
      const host = { ...session.host, backend: blind };
      const o = await session.interpreter.evaluate('findDefinitions("validate_token")', { host, deadlineMs: 60_000 });
      if (o.kind !== 'value') throw new Error(`expected a value, got ${o.kind}`);
      const defs = o.value as SymbolDefinition[];
      expect(defs.map((d) => d.definedAt.path).sort()).toEqual(['src/auth.rs', 'src/util.rs']);
      const text = await readFile(join(copy.root, 'src/auth.rs'), 'utf8');
      const decl = positionOf(text, 'pub fn validate_token');
      expect(defs.find((d) => d.definedAt.path === 'src/auth.rs')?.definedAt.start).toEqual({ line: decl.line, column: decl.column + 'pub fn '.length });
    } finally {
      await session.shutdown();
    }
  });
});
