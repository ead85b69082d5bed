/**
 * The IDE functions against the real TypeScript 7 language server (`tsc --lsp --stdio`) on the
 * polyglot fixture where both servers run (fixtures/ts-app is the conformance table's TypeScript
 * row: conformance-typescript.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SymbolDefinition } from '../model.js';
import { openFixtureSession, serversAvailable, type FixtureSession } from './support/session.js';

const bothAvailable = await serversAvailable('both');

describe.skipIf(!bothAvailable)('a polyglot workspace runs both servers', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('polyglot');
  });
  afterAll(async () => {
    await f?.dispose();
  });

  it('a name defined in both languages is ambiguous across them', async () => {
    const defs = (await f.value('findDefinitions("Invoice")')) as SymbolDefinition[];
    expect(new Set(defs.map((d) => d.language))).toEqual(new Set(['rust', 'typescript']));
    expect(f.session.backend.servers().map((s) => s.id)).toEqual(expect.arrayContaining(['rust-analyzer', 'typescript']));
    const o = await f.outcome('findDefinition("Invoice")');
    expect(o.kind).toBe('ambiguity');
    const rust = (await f.value('findDefinition("Invoice", file: ".rs")')) as SymbolDefinition;
    expect(rust.language).toBe('rust');
    expect(rust.definedAt.start).toEqual(await f.at(rust.definedAt.path, 'Invoice {'));
  });
});
