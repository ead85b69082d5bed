/**
 * Inherited members: `Derived.method` names the `method` a base class defines when `Derived`
 * itself does not (Python's `Session.resolve_redirects` from a mixin, TypeScript's `extends`).
 * The bases of a type come from the server's type hierarchy when it has one, else from the
 * type's declaration header (`class Session(Mixin):`, `class D<T> extends B implements I {`):
 * each name written there (type arguments and keyword arguments such as `metaclass=` left out)
 * is asked where it is defined, and kept when that is a class, interface or struct. The walk goes
 * up breadth first; a base that defines the member ends its branch (it overrides what is above
 * it), and at most {@link MAX_INHERITED_TYPES} types are read. A type with embedded fields (Go's
 * `Base` or `*pkg.Base` in a struct: `OutlineSymbol.embedded`) has those fields' types as its
 * bases; their members include those declared outside the type's body (Go's methods, through
 * `InheritanceSources.detachedMembers`).
 */
import type { BackendSymbol, OutlineSymbol } from '../backend.js';
import type { Location, Position } from '../model.js';

/** Supertypes read at most while looking for an inherited member. */
export const MAX_INHERITED_TYPES = 64;

/** Characters of a declaration header read at most (a header is a line or a few). */
const MAX_HEADER_CHARS = 4000;

/** Kinds that have members to inherit and bases to inherit them from. */
export const INHERITING_KINDS: ReadonlySet<string> = new Set(['class', 'interface', 'struct']);

/** Words of a header that name no base (TypeScript, C++, Java-like modifiers). */
const HEADER_KEYWORDS = new Set(['extends', 'implements', 'public', 'private', 'protected', 'virtual', 'final', 'sealed', 'abstract']);

/** What the walk reads, through the lookup's caches. */
export interface InheritanceSources {
  outline(path: string): Promise<readonly OutlineSymbol[]>;
  lines(path: string): Promise<readonly string[]>;
  definition(path: string, position: Position): Promise<readonly Location[]>;
  /** The direct supertypes from the server's type hierarchy, or undefined when it has none. */
  supertypes(path: string, position: Position): Promise<readonly Location[] | undefined>;
  /** Members named `name` of a type declared outside its body (Go's `func (p *Polygon) Size()`). */
  detachedMembers(type: OutlineType, name: string): Promise<readonly BackendSymbol[]>;
}

/** A type in a file's outline, with its outline ancestors (outermost first). */
export interface OutlineType {
  readonly path: string;
  readonly node: OutlineSymbol;
  readonly ancestors: readonly OutlineSymbol[];
}

/** A member found on a base: the member, its ancestors (down to the base), and the base. */
interface InheritedMember {
  readonly member: BackendSymbol;
  readonly ancestors: readonly OutlineSymbol[];
  readonly base: OutlineType;
}

/** The members named `name` that `owner` inherits, nearest first; `cut` when the walk hit its bound. */
export async function inheritedMembers(owner: OutlineType, name: string, sources: InheritanceSources): Promise<{ members: InheritedMember[]; cut: boolean }> {
  const key = (t: OutlineType) => `${t.path}:${t.node.location.start.line}:${t.node.location.start.column}`;
  const seen = new Set([key(owner)]);
  const members: InheritedMember[] = [];
  let queue: OutlineType[] = [owner];
  let read = 0;
  while (queue.length > 0) {
    const next: OutlineType[] = [];
    for (const type of queue) {
      for (const base of await basesOf(type, sources)) {
        if (seen.has(key(base))) continue;
        if (read === MAX_INHERITED_TYPES) return { members, cut: true };
        seen.add(key(base));
        read++;
        const inBody = base.node.children.filter((c) => c.name === name);
        const own = inBody.length > 0 ? inBody : await sources.detachedMembers(base, name);
        // A detached member sits at its file's top level: it has no outline ancestors.
        const ancestors = inBody.length > 0 ? [...base.ancestors, base.node] : [];
        if (own.length > 0) members.push(...own.map((member) => ({ member, ancestors, base })));
        else next.push(base);
      }
    }
    queue = next;
  }
  return { members, cut: false };
}

/** Kinds a base can be: the inheriting ones, and a type alias (TypeScript's `implements Queue` of `type Queue = {…}`). */
const BASE_KINDS: ReadonlySet<string> = new Set([...INHERITING_KINDS, 'type alias']);

/**
 * The direct bases of a type: the types of its embedded fields, else the server's type
 * hierarchy, else the names its header writes; those declared in the workspace. The names
 * written that lead to no type in the workspace (an unresolved import, a dependency's class)
 * are pushed onto `unlisted` when given.
 */
export async function basesOf(type: OutlineType, sources: InheritanceSources, unlisted?: string[]): Promise<OutlineType[]> {
  const at = type.node.location.start;
  const embedded = type.node.children.filter((c) => c.embedded === true).map((c) => c.location.start);
  const fromHierarchy = embedded.length > 0 ? undefined : await sources.supertypes(type.path, at);
  const named = embedded.length > 0 ? embedded : fromHierarchy === undefined ? await headerNames(type, sources) : [];
  const perName = fromHierarchy === undefined ? await Promise.all(named.map((p) => sources.definition(type.path, p))) : [fromHierarchy];
  const bases: OutlineType[] = [];
  for (const [i, targets] of perName.entries()) {
    let found = false;
    for (const target of targets) {
      const base = typeAt(await sources.outline(target.path).catch(() => []), target.start);
      if (base !== undefined && !(target.path === type.path && base.node === type.node)) {
        bases.push({ path: target.path, ...base });
        found = true;
      }
    }
    const written = named[i];
    if (!found && unlisted !== undefined && embedded.length === 0 && fromHierarchy === undefined && written !== undefined) {
      const word = /^[\p{L}\p{N}_$]+/u.exec(Array.from((await sources.lines(type.path))[written.line - 1] ?? '').slice(written.column - 1).join(''))?.[0];
      if (word !== undefined) unlisted.push(word);
    }
  }
  return bases;
}

/** The type whose name is at `position`, with its ancestors. */
function typeAt(outline: readonly OutlineSymbol[], position: Position, ancestors: readonly OutlineSymbol[] = []): Omit<OutlineType, 'path'> | undefined {
  for (const s of outline) {
    const l = s.location;
    if (BASE_KINDS.has(s.kind) && l.start.line === position.line && position.column >= l.start.column && position.column <= Math.max(l.end.column, l.start.column)) {
      return { node: s, ancestors };
    }
    const inner = typeAt(s.children, position, [...ancestors, s]);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/**
 * The positions of the base names a type's header writes, after its name and before its body
 * (`{`, or a `:` outside parentheses): the last part of each dotted name, outside type arguments
 * (`<…>`, `[…]`) and keyword arguments (`metaclass=Meta`), language keywords left out.
 */
async function headerNames(type: OutlineType, sources: Pick<InheritanceSources, 'lines'>): Promise<Position[]> {
  const lines = await sources.lines(type.path);
  const name = type.node.location;
  const bodyLine = Math.min(...type.node.children.map((c) => (c.range ?? c.location).start.line), (type.node.range ?? name).end.line + 1);
  const names: Position[] = [];
  let brackets = 0; // depth in <…> and […]
  let parens = 0;
  let keywordArgument = false;
  let read = 0;
  let last: Position | undefined;
  let afterDot = false; // the last character read, spaces aside, was a `.`
  const flush = () => {
    if (last !== undefined) names.push(last);
    last = undefined;
  };
  for (let line = name.start.line; line <= Math.max(bodyLine, name.start.line) && line <= lines.length; line++) {
    const chars = Array.from(lines[line - 1] ?? '');
    let column = line === name.start.line ? Math.max(name.end.column, name.start.column + Array.from(type.node.name).length) : 1;
    while (column <= chars.length) {
      if (++read > MAX_HEADER_CHARS) return names;
      const c = chars[column - 1] as string;
      const dot = afterDot;
      if (!/\s/u.test(c)) afterDot = c === '.';
      if (c === '<' || c === '[') brackets++;
      else if ((c === '>' || c === ']') && brackets > 0) brackets--;
      else if (brackets > 0) {
        // inside type arguments: nothing here is a base
      } else if (c === '{' || (c === ':' && parens === 0)) {
        flush();
        return names;
      } else if (c === '#' || (c === '/' && chars[column] === '/')) break; // a comment to the end of the line
      else if (c === '(') parens++;
      else if (c === ')') {
        parens = Math.max(0, parens - 1);
        keywordArgument = false;
      } else if (c === ',') keywordArgument = false;
      else if (c === '=' && chars[column] !== '=') {
        last = undefined; // `metaclass=…`: the name before `=` is a keyword, what follows a value
        keywordArgument = true;
      } else if (/[\p{L}_$]/u.test(c) && !keywordArgument) {
        let end = column;
        while (end < chars.length && /[\p{L}\p{N}_$]/u.test(chars[end] as string)) end++;
        const word = chars.slice(column - 1, end).join('');
        if (!dot) flush();
        if (!HEADER_KEYWORDS.has(word)) last = { line, column };
        column = end;
      }
      column++;
    }
  }
  flush();
  return names;
}
