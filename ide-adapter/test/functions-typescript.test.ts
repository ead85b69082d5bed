/**
 * The IDE functions against the real TypeScript 7 language server (`tsc --lsp --stdio`) on a copy
 * of fixtures/ts-app (the conformance suite every backend answers), and on the polyglot fixture
 * where both servers run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SymbolDefinition } from '../model.js';
import { typeScriptAppConformance } from './support/conformance.js';
import { openFixtureSession, serversAvailable, type FixtureSession } from './support/session.js';

const tsAvailable = await serversAvailable('typescript');
const bothAvailable = await serversAvailable('both');

// The questions and answers are shared with the VS Code backend (vscode/test/conformance.test.ts).
describe.skipIf(!tsAvailable)('IDE functions on the TypeScript server (fixtures/ts-app)', () => {
  typeScriptAppConformance(openFixtureSession);
});

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
