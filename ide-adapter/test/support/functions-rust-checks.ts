/**
 * The IDE functions through the interpreter against real rust-analyzer on fixtures/rust-app,
 * beyond what the conformance table asks: focused checks registered on the session of the table's
 * Rust row (conformance-rust.test.ts), so the spawned rust-analyzer starts once. Every expected
 * position is computed from the fixture's text.
 */
import { expect, it } from 'vitest';
import type { Reference, SymbolDefinition } from '../../model.js';
import type { FixtureSession } from './session.js';

/** The focused Rust function checks, on `session` (fixtures/rust-app, any backend that spawns rust-analyzer). */
export function rustFunctionChecks(session: () => FixtureSession): void {
  const f = session;
  it('findDefinitions finds exact names only, at the name, without re-exports', async () => {
    const defs = (await f().value('findDefinitions("User")')) as SymbolDefinition[];
    expect(defs).toHaveLength(1);
    expect(defs[0]?.kind).toBe('struct');
    expect(defs[0]?.definedAt.path).toBe('src/model.rs');
    expect(defs[0]?.definedAt.start).toEqual(await f().nameIn('src/model.rs', 'pub struct User', 'User'));
    expect(defs[0]?.definedAt.content).toContain('pub struct User');
    // `User` fuzzily matches UserId-like names; none may appear.
    expect(((await f().value('findDefinitions("Use")')) as unknown[]).length).toBe(0);
  });

  it('qualified names select a method by its type', async () => {
    const defs = (await f().value('findDefinitions("User::new")')) as SymbolDefinition[];
    expect(defs).toHaveLength(1);
    const text = await f().text('src/model.rs');
    const implAt = text.indexOf('impl User');
    const newLine = text.slice(0, text.indexOf('pub fn new', implAt)).split('\n').length;
    expect(defs[0]?.definedAt.start.line).toBe(newLine);
    expect(defs[0]?.name).toBe('new');
  });

  it('findDefinition of a name defined twice is an ambiguity whose refinements select each one', async () => {
    const o = await f().outcome('findDefinition("validate_token")');
    if (o.kind !== 'ambiguity') throw new Error(`expected an ambiguity, got ${o.kind}`);
    expect(o.refinements.map((r) => r.program).sort()).toEqual([
      'findDefinition("validate_token", file: "src/auth.rs")',
      'findDefinition("validate_token", file: "src/util.rs")',
    ]);
    for (const r of o.refinements) {
      const def = (await f().value(r.program)) as SymbolDefinition;
      const file = def.definedAt.path;
      expect(def.definedAt.start).toEqual(await f().nameIn(file, 'pub fn validate_token', 'validate_token'));
    }
  });

  it('filters by file suffix, kind and line', async () => {
    expect(((await f().value('findDefinitions("Config", kind: "struct")')) as unknown[]).length).toBe(2);
    const one = (await f().value('findDefinitions("Config", file: "config.rs")')) as SymbolDefinition[];
    expect(one.map((d) => d.definedAt.path)).toEqual(['src/config.rs']);
    expect(((await f().value('findDefinitions("Config", kind: "fn")')) as unknown[]).length).toBe(0);
    const line = (await f().at('src/storage/mod.rs', 'pub struct Config')).line;
    expect(((await f().value(`findDefinitions("Config", line: ${line})`)) as SymbolDefinition[]).map((d) => d.definedAt.path)).toEqual(['src/storage/mod.rs']);
  });

  it('finds traits (kind aliases), enums and macros', async () => {
    expect(((await f().value('findDefinitions("Repository", kind: "trait")')) as SymbolDefinition[])[0]?.definedAt.path).toBe('src/storage/mod.rs');
    expect(((await f().value('findDefinitions("Priority")')) as SymbolDefinition[])[0]?.kind).toBe('enum');
    const macro = (await f().value('findDefinitions("ensure")')) as SymbolDefinition[];
    expect(macro.map((d) => d.definedAt.path)).toContain('src/lib.rs');
  });

  it('findReferences asks at the name and returns every use', async () => {
    const refs = (await f().value('findReferences(findDefinition("validate_token", file: "src/auth.rs"))')) as Reference[];
    const call = await f().at('src/auth.rs', 'validate_token(token)?');
    expect(refs.map((r) => r.referencedAt.start)).toContainEqual(call);
    // Every reference is the name itself, and none is the other function of the same name.
    for (const r of refs) {
      const line = (await f().text(r.referencedAt.path)).split('\n')[r.referencedAt.start.line - 1] ?? '';
      expect([...line].slice(r.referencedAt.start.column - 1).join('')).toMatch(/^validate_token/);
      expect(r.referencedAt.start).not.toEqual(await f().nameIn('src/util.rs', 'pub fn validate_token', 'validate_token'));
    }
  });

  it('findReferences on a name, and on a list of definitions', async () => {
    const byName = (await f().value('findReferences("Task")')) as Reference[];
    const files = new Set(byName.map((r) => r.referencedAt.path));
    expect(files.size).toBeGreaterThanOrEqual(3);
    expect(byName.every((r) => r.name === 'Task' && r.definedAt.path === 'src/model.rs')).toBe(true);
    const viaList = (await f().value('findReferences(findDefinitions("Task"))')) as Reference[];
    expect(viaList.length).toBe(byName.length);
    const ambiguous = await f().outcome('findReferences("validate_token")');
    expect(ambiguous.kind === 'ambiguity' && ambiguous.refinements.map((r) => r.program).sort()).toEqual([
      'findReferences(findDefinition("validate_token", file: "src/auth.rs"))',
      'findReferences(findDefinition("validate_token", file: "src/util.rs"))',
    ]);
  });

  it('lines shows the whole declaration of a symbol, and a path range', async () => {
    const code = (await f().value('lines(findDefinition("Task::complete"))')) as { path: string; start: { line: number }; text: string };
    const text = await f().text('src/model.rs');
    const fnLine = (await f().at('src/model.rs', 'pub fn complete')).line;
    expect(code.path).toBe('src/model.rs');
    expect(code.start.line).toBeLessThanOrEqual(fnLine);
    expect(code.text).toContain('pub fn complete(&mut self) {');
    const body = text.split('\n').slice(fnLine - 1);
    const closing = body.findIndex((l) => l === '    }');
    expect(code.text.split('\n').at(-1)).toBe(body[closing]);
    const several = await f().outcome('lines(search("src", "pub fn validate_token"))');
    expect(several.kind === 'ambiguity' && several.refinements.map((r) => r.program)).toEqual([
      'lines(pick(search("src", "pub fn validate_token"), 1))',
      'lines(pick(search("src", "pub fn validate_token"), 2))',
    ]);
  });

  it('documentSymbols outlines a file in order', async () => {
    const outline = (await f().value('documentSymbols("src/model.rs")')) as SymbolDefinition[];
    const names = outline.map((s) => s.name);
    for (const n of ['Priority', 'User', 'Task', 'new', 'complete']) expect(names).toContain(n);
    expect(names.indexOf('User')).toBeLessThan(names.indexOf('Task'));
    expect(outline.find((s) => s.name === 'complete')?.container).toMatch(/\bTask\b/);
  });

  it('a missing name is a clear error with similar names', async () => {
    const o = await f().outcome('findDefinition("validate_tokn")');
    expect(o.kind === 'error' && o.error.code).toBe('symbol-not-found');
    expect(o.kind === 'error' && o.error.hint).toContain('validate_token');
  });
}
