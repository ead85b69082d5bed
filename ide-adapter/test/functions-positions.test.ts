/**
 * Position-based questions against the real servers: `symbolAt`, locations (search matches)
 * where a symbol is expected, `typeDefinition`, and the type hierarchy where the server has none.
 * Every position is computed from the fixture text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Outcome } from '../../dialect/index.js';
import type { Reference, SymbolDefinition, SymbolInfo } from '../model.js';
import { openFixtureSession, serversAvailable, type FixtureSession } from './support/session.js';

const rustAvailable = await serversAvailable('rust');
const tsAvailable = await serversAvailable('typescript');

/** The error of an outcome, failing the test on anything else. */
function errorOf(o: Outcome): { code: string; message: string; hint?: string } {
  if (o.kind !== 'error') throw new Error(`expected an error, got ${o.kind}`);
  return o.error;
}

/** The position of `name` inside the first line that contains `lineNeedle`. */
async function nameOn(f: FixtureSession, path: string, lineNeedle: string, name: string): Promise<{ line: number; column: number }> {
  const { line } = await f.at(path, lineNeedle);
  const text = (await f.text(path)).split('\n')[line - 1] ?? '';
  return { line, column: [...text.slice(0, text.indexOf(name, text.indexOf(lineNeedle)))].length + 1 };
}

describe.skipIf(!rustAvailable)('positions on rust-analyzer (fixtures/rust-app)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('rust-app');
  });
  afterAll(async () => {
    await f?.dispose();
  });

  it('symbolAt a use gives the definition, and composes with findReferences and getSymbolInfo', async () => {
    const use = await f.at('src/service.rs', 'validate_token(token), AppError');
    // A column inside the name, not only its first character.
    const at = `symbolAt("src/service.rs", ${use.line}, ${use.column + 3})`;
    const def = (await f.value(at)) as SymbolDefinition;
    expect(def.name).toBe('validate_token');
    expect(def.kind).toBe('function');
    expect(def.definedAt.path).toBe('src/util.rs');
    expect(def.definedAt.start).toEqual(await nameOn(f, 'src/util.rs', 'pub fn validate_token', 'validate_token'));
    const refs = (await f.value(`findReferences(${at})`)) as Reference[];
    expect(refs.map((r) => `${r.referencedAt.path}:${r.referencedAt.start.line}:${r.referencedAt.start.column}`)).toContain(`src/service.rs:${use.line}:${use.column}`);
    const info = (await f.value(`getSymbolInfo(${at})`)) as SymbolInfo;
    expect(info.signature).toContain('fn validate_token');
  });

  it('symbolAt a local variable gives its binding', async () => {
    const use = await nameOn(f, 'src/service.rs', 'self.repo.save(task.clone())', 'task');
    const def = (await f.value(`symbolAt("src/service.rs", ${use.line}, ${use.column})`)) as SymbolDefinition;
    expect(def.name).toBe('task');
    expect(def.definedAt.start).toEqual(await nameOn(f, 'src/service.rs', 'let task = Task::new', 'task'));
  });

  it('a search match given to a symbol function is the identifier at the match, not the keyword before it', async () => {
    const infos = (await f.value('getSymbolInfo(search("src/service.rs", "fn escalate"))')) as SymbolInfo[];
    expect(infos).toHaveLength(1);
    const info = infos[0] as SymbolInfo;
    expect(info.signature).toContain('fn escalate');
    expect(info.name).toBe('escalate');
    expect(info.kind).toBe('function');
    expect(info.definedAt.start).toEqual(await nameOn(f, 'src/service.rs', 'pub fn escalate', 'escalate'));
    // A match that starts in the middle of a line and covers a call: the callee.
    const refs = (await f.value('findReferences(search("src/service.rs", "validate_token\\\\(token\\\\), AppError"))')) as Reference[];
    expect(new Set(refs.map((r) => `${r.name} ${r.definedAt.path}`))).toEqual(new Set(['validate_token src/util.rs']));
  });

  it('a position on whitespace or a keyword is a clear error that lists the names on the line', async () => {
    const { line } = await f.at('src/service.rs', 'let task = Task::new');
    const ws = errorOf(await f.outcome(`symbolAt("src/service.rs", ${line}, 2)`));
    expect(ws.code).toBe('no-symbol-at');
    expect(ws.message).toContain('whitespace');
    const task = await nameOn(f, 'src/service.rs', 'let task = Task::new', 'task');
    expect(ws.hint).toContain(`symbolAt("src/service.rs", ${line}, ${task.column})`);
    const letAt = await f.at('src/service.rs', 'let task = Task::new');
    const kw = errorOf(await f.outcome(`symbolAt("src/service.rs", ${line}, ${letAt.column})`));
    expect(kw.code).toBe('no-symbol-at');
    expect(kw.message).toContain('`let` is a keyword');
    const all = (await f.text('src/service.rs')).split('\n');
    expect(errorOf(await f.outcome(`symbolAt("src/service.rs", ${all.length + 5}, 1)`)).code).toBe('position-outside-file');
    const blank = all.indexOf('') + 1;
    const empty = errorOf(await f.outcome(`symbolAt("src/service.rs", ${blank})`));
    expect(empty.code).toBe('no-symbol-at');
    expect(empty.message).toBe(`no name on src/service.rs:${blank} can be a symbol`);
    expect(empty.hint).toContain(`line ${blank} is empty`);
  });

  it('typeDefinition of a local variable is its struct', async () => {
    const at = await nameOn(f, 'src/service.rs', 'let task = Task::new', 'task');
    const types = (await f.value(`typeDefinition(symbolAt("src/service.rs", ${at.line}, ${at.column}))`)) as SymbolDefinition[];
    expect(types.map((t) => `${t.kind} ${t.name} ${t.definedAt.path}`)).toEqual(['struct Task src/model.rs']);
    expect(types[0]?.definedAt.start).toEqual(await nameOn(f, 'src/model.rs', 'pub struct Task', 'Task'));
  });

  it('typeDefinition of a field is its enum', async () => {
    const types = (await f.value('typeDefinition(findDefinition("Task::priority"))')) as SymbolDefinition[];
    expect(types.map((t) => `${t.kind} ${t.name}`)).toEqual(['enum Priority']);
    expect(types[0]?.definedAt.start).toEqual(await nameOn(f, 'src/model.rs', 'pub enum Priority', 'Priority'));
  });

  it('supertypes and subtypes say rust-analyzer has no type hierarchy, and what to use instead', async () => {
    for (const fn of ['supertypes', 'subtypes']) {
      const e = errorOf(await f.outcome(`${fn}(findDefinition("Repository", kind: "trait"))`));
      expect(e.code).toBe('unsupported-by-server');
      expect(e.message).toContain('rust-analyzer');
      expect(e.message).toContain('type hierarchy');
      expect(e.hint).toContain('implementations(');
    }
  });
});

describe.skipIf(!tsAvailable)('positions on the TypeScript server (fixtures/ts-app)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('ts-app');
  });
  afterAll(async () => {
    await f?.dispose();
  });

  it('symbolAt a use gives the definition in the other file', async () => {
    const use = await f.at('src/service.ts', 'validateToken(token)) throw');
    const def = (await f.value(`symbolAt("src/service.ts", ${use.line}, ${use.column})`)) as SymbolDefinition;
    expect(def.name).toBe('validateToken');
    expect(def.definedAt.path).toBe('src/util.ts');
    const refs = (await f.value(`findReferences(symbolAt("src/service.ts", ${use.line}, ${use.column}))`)) as Reference[];
    expect(refs.map((r) => r.referencedAt.start)).toContainEqual(use);
  });

  it('symbolAt without a column takes the first name on the line that is a symbol', async () => {
    const { line } = await f.at('src/service.ts', 'export function escalate');
    const def = (await f.value(`symbolAt("src/service.ts", ${line})`)) as SymbolDefinition;
    expect(def.name).toBe('escalate');
    expect(def.definedAt.start).toEqual(await nameOn(f, 'src/service.ts', 'export function escalate', 'escalate'));
  });

  it('typeDefinition of a local variable is its class', async () => {
    const at = await nameOn(f, 'src/service.ts', 'const task = new Task', 'task');
    const types = (await f.value(`typeDefinition(symbolAt("src/service.ts", ${at.line}, ${at.column}))`)) as SymbolDefinition[];
    expect(types.map((t) => `${t.kind} ${t.name} ${t.definedAt.path}`)).toEqual(['class Task src/model.ts']);
  });

  it('the TypeScript server has no type hierarchy: subtypes are the classes whose header writes the interface (not a type parameter it constrains)', async () => {
    const subs = (await f.value('subtypes("Repository")')) as SymbolDefinition[];
    const journal = await nameOn(f, 'src/journalRepository.ts', 'export class JournalRepository', 'JournalRepository');
    const memory = await nameOn(f, 'src/memoryRepository.ts', 'export class MemoryRepository', 'MemoryRepository');
    expect(subs.map((s) => `${s.definedAt.path}:${s.definedAt.start.line}:${s.definedAt.start.column}`).sort()).toEqual(
      [`src/journalRepository.ts:${journal.line}:${journal.column}`, `src/memoryRepository.ts:${memory.line}:${memory.column}`].sort(),
    );
  });
});
