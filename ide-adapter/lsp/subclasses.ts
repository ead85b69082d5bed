/**
 * Implementations for a server that answers no `textDocument/implementation` (pyright): the
 * subclasses of a class are the classes whose declaration header names it (found among its
 * references), transitively; the implementations of a method are the methods of the same name in
 * those subclasses. A definition opts in with `implementationsFromBases`; the walk is bounded by
 * {@link MAX_SUBCLASSES}.
 */
import type { OutlineSymbol } from '../backend.js';
import type { Location, Position } from '../model.js';

/** Subclasses followed at most (a hierarchy wider than this is cut). */
export const MAX_SUBCLASSES = 500;

/** Kinds that can be a base of a class. */
const TYPE_KINDS = new Set(['class', 'interface', 'struct']);

/** What the walk asks of the backend. */
export interface SubclassSources {
  outline(path: string): Promise<readonly OutlineSymbol[]>;
  /** References to the symbol whose name is at `position` (declaration excluded). */
  references(path: string, position: Position): Promise<readonly Location[]>;
}

/** The implementations of the class or method whose name is at `position` in `path`. */
export async function implementationsFromBases(path: string, position: Position, sources: SubclassSources): Promise<Location[]> {
  const chain = symbolChainAt(await sources.outline(path), position);
  const target = chain[chain.length - 1];
  if (target === undefined) return [];
  const owner = TYPE_KINDS.has(target.kind) ? target : chain[chain.length - 2];
  if (owner === undefined || !TYPE_KINDS.has(owner.kind)) return [];
  const subclasses = await subclassesOf(owner, sources);
  if (owner === target) return subclasses.map((s) => s.location);
  return subclasses.flatMap((s) => s.children.filter((c) => c.name === target.name).map((c) => c.location));
}

/** Every subclass of `base`, breadth first, each once. */
async function subclassesOf(base: OutlineSymbol, sources: SubclassSources): Promise<OutlineSymbol[]> {
  const key = (s: OutlineSymbol) => `${s.location.path}:${s.location.start.line}:${s.location.start.column}`;
  const seen = new Set([key(base)]);
  const found: OutlineSymbol[] = [];
  const queue = [base];
  while (queue.length > 0 && found.length < MAX_SUBCLASSES) {
    const type = queue.shift() as OutlineSymbol;
    for (const ref of await sources.references(type.location.path, type.location.start)) {
      const sub = classWithHeaderAt(await sources.outline(ref.path), ref.start.line);
      if (sub === undefined || seen.has(key(sub))) continue;
      seen.add(key(sub));
      found.push(sub);
      queue.push(sub);
    }
  }
  return found;
}

/** The class whose header (from its declaration to its first member) holds `line`, at any depth. */
function classWithHeaderAt(outline: readonly OutlineSymbol[], line: number): OutlineSymbol | undefined {
  for (const s of outline) {
    const start = s.range?.start.line ?? s.location.start.line;
    const end = s.range?.end.line ?? s.location.start.line;
    if (line < start || line > end) continue;
    const bodyStart = Math.min(...s.children.map((c) => c.range?.start.line ?? c.location.start.line), end + 1);
    if (TYPE_KINDS.has(s.kind) && line < Math.max(bodyStart, s.location.start.line + 1)) return s;
    const inner = classWithHeaderAt(s.children, line);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** The symbols whose names hold `position`'s line, outermost first, down to the one named there. */
function symbolChainAt(outline: readonly OutlineSymbol[], position: Position): OutlineSymbol[] {
  for (const s of outline) {
    const start = s.range?.start.line ?? s.location.start.line;
    const end = s.range?.end.line ?? s.location.end.line;
    if (position.line < start || position.line > end) continue;
    const named = s.location.start.line === position.line && position.column >= s.location.start.column && position.column <= s.location.end.column;
    if (named) return [s];
    const inner = symbolChainAt(s.children, position);
    if (inner.length > 0) return [s, ...inner];
  }
  return [];
}
