/**
 * Complete or honest at scale, on generated monorepos (`bench/generate.ts`, at sizes CI affords;
 * the benchmark runs the full sizes) against the real TypeScript 7 server: a name defined more
 * often than tsgo's `workspace/symbol` returns (256) is found every time, and more than 100
 * packages without a root tsconfig are all loaded, with answers that say they are complete.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateTsMonorepo, REPEATED_NAME } from '../../bench/generate.js';
import type { SymbolDefinition } from '../model.js';
import { IdeSession } from '../session.js';
import { serversAvailable } from './support/session.js';

const available = await serversAvailable('typescript');
const base = mkdtempSync(join(tmpdir(), 'dialect-scale-ts-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

async function definitions(root: string): Promise<{ found: SymbolDefinition[]; notes: readonly string[]; complete: boolean; definitionRequests: number }> {
  const session = await IdeSession.open({ workspaceRoot: root, readyTimeoutMs: 120_000 });
  try {
    const complete = await session.waitUntilReady({ timeoutMs: 120_000 });
    let definitionRequests = 0;
    session.backend.use((request, next) => {
      if (request.method === 'textDocument/definition') definitionRequests++;
      return next();
    });
    const outcome = await session.evaluate(`findDefinitions("${REPEATED_NAME}")`, { deadlineMs: 120_000 });
    if (outcome.kind !== 'value') throw new Error(JSON.stringify(outcome).slice(0, 500));
    return { found: outcome.value as SymbolDefinition[], notes: outcome.notes, complete, definitionRequests };
  } finally {
    await session.shutdown();
  }
}

describe.skipIf(!available)('TypeScript at scale', () => {
  it('finds every definition of a name defined more often than workspace/symbol returns', async () => {
    const root = join(base, 'capped');
    const generated = generateTsMonorepo(root, { packages: 3, filesPerPackage: 100, rootTsconfig: true, definitions: 300 });
    const { found, definitionRequests } = await definitions(root);
    expect(generated.definitions).toBe(300);
    expect(new Set(found.map((d) => d.definedAt.path)).size).toBe(300);
    // No request per candidate: a function written once in its file needs no go-to-definition to confirm it.
    expect(definitionRequests).toBe(0);
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
