/**
 * The IDE functions against the real TypeScript 7 language server (`tsc --lsp --stdio`) on a copy
 * of fixtures/ts-app, and on the polyglot fixture where both servers run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reference, SymbolDefinition, SymbolInfo } from '../model.js';
import { openFixtureSession, serversAvailable, type FixtureSession } from './support/session.js';

const tsAvailable = await serversAvailable('typescript');
const bothAvailable = await serversAvailable('both');

describe.skipIf(!tsAvailable)('IDE functions on the TypeScript server (fixtures/ts-app)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('ts-app');
  });
  afterAll(async () => {
    await f?.dispose();
  });

  it('findDefinitions and qualified method names', async () => {
    const [user] = (await f.value('findDefinitions("User")')) as SymbolDefinition[];
    expect(user?.kind).toBe('class');
    expect(user?.definedAt.start).toEqual({ ...(await f.at('src/model.ts', 'User implements')) });
    const [complete] = (await f.value('findDefinitions("Task.complete")')) as SymbolDefinition[];
    expect(complete?.kind).toBe('method');
    expect(complete?.definedAt.start).toEqual(await f.at('src/model.ts', 'complete(): void'));
    const [slugify] = (await f.value('findDefinitions("Text.slugify")')) as SymbolDefinition[];
    expect(slugify?.definedAt.start).toEqual(await f.at('src/util.ts', 'slugify(title'));
  });

  it('an ambiguous name, refined by file, then its references', async () => {
    const o = await f.outcome('findReferences("validateToken")');
    if (o.kind !== 'ambiguity') throw new Error(`expected an ambiguity, got ${o.kind}`);
    const auth = o.refinements.find((r) => r.program.includes('src/auth.ts'));
    expect(auth?.program).toBe('findReferences(findDefinition("validateToken", file: "src/auth.ts"))');
    const refs = (await f.value(auth?.program ?? '')) as Reference[];
    expect(refs.map((r) => r.referencedAt.start)).toContainEqual(await f.at('src/auth.ts', 'validateToken(token) === user.id'));
    expect(refs.every((r) => r.definedAt.path === 'src/auth.ts')).toBe(true);
  });

  it('columns count code points after an emoji', async () => {
    const refs = (await f.value('findReferences("User.displayName")')) as Reference[];
    expect(refs.map((r) => r.referencedAt.start)).toContainEqual(await f.at('src/util.ts', 'displayName()]'));
  });

  it('getSymbolInfo, implementations and the outline', async () => {
    const info = (await f.value('getSymbolInfo(findDefinition("validateToken", file: "util.ts"))')) as SymbolInfo;
    expect(info?.signature).toContain('validateToken(token: string): boolean');
    expect(info?.documentation).toContain('Cheap syntactic check');
    const impls = (await f.value('implementations("Repository")')) as SymbolDefinition[];
    expect(impls.map((i) => i.name).sort()).toEqual(['JournalRepository', 'MemoryRepository']);
    const outline = (await f.value('documentSymbols("src/util.ts")')) as SymbolDefinition[];
    expect(outline.map((s) => s.name)).toEqual(expect.arrayContaining(['validateToken', 'Text', 'slugify', 'greeting']));
  });
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
    expect(f.session.backend.servers().map((s) => s.id).sort()).toEqual(['rust-analyzer', 'typescript']);
    const o = await f.outcome('findDefinition("Invoice")');
    expect(o.kind).toBe('ambiguity');
    const rust = (await f.value('findDefinition("Invoice", file: ".rs")')) as SymbolDefinition;
    expect(rust.language).toBe('rust');
    expect(rust.definedAt.start).toEqual(await f.at(rust.definedAt.path, 'Invoice {'));
  });
});
