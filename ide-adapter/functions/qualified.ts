/**
 * Qualified names: where a symbol lives, as the path people write (`mycrate::util::validate_token`,
 * `Matcher::find_at`, `Position.create`, `auth.validateToken`), and matching a written path against
 * it. A symbol's path is its file's module path (asked of the backend: Rust's crate and modules,
 * elsewhere folders and file), its inline modules and its owners (class, namespace, trait, or an
 * `impl` block's type and trait) from the outline —
 * never a file name standing in for a type: `Matcher::find_at` is not `ByteSet::find_at` just
 * because ByteSet lives in matcher.rs.
 */
import type { BackendSymbol, IdeBackend, OutlineSymbol } from '../backend.js';

/** One step of a symbol's path: the names that may stand for it (`impl Sink for KitchenSink` → Sink, KitchenSink). */
export interface PathSegment {
  readonly names: ReadonlySet<string>;
  /** A type-like owner (class, struct, trait, impl, namespace, enum), not a module. */
  readonly owner: boolean;
}

/**
 * The separators of a written path: `::`, `.`, and JSDoc's `#` of an instance member (`User#name`).
 * A `#` that begins a segment (`Ky.#fetch`, `#fetch`) is part of the name: an ECMAScript private member.
 */
const PATH_SEPARATOR = /::|\.|(?<=[^.:#])#/;

/** Splits `User::new`, `User.new`, `User#name`, `a::b::c` into qualifiers and the final name (`Ky.#fetch` → `#fetch` of `Ky`). */
export function splitQualifiedName(name: string): { qualifiers: string[]; name: string } {
  // A macro as invoked (`log::info!`) is named without its `!`.
  const parts = name.replace(/(?<=\w)!$/, '').split(PATH_SEPARATOR).filter((p) => p !== '');
  const last = parts.pop() ?? name;
  return { qualifiers: parts, name: last };
}

/**
 * Whether written qualifiers fit a symbol's path. A member (the symbol has an owner) needs the
 * last qualifier to name its owner; the qualifiers before it, and all qualifiers of a free item,
 * must name segments of the path in order (segments may be skipped: re-exports shorten paths,
 * so `mycrate::Searcher` names `mycrate::searcher::Searcher`). `relative` qualifiers of the
 * language (Rust's `self`, `super`) name no segment and are skipped.
 */
export function qualifiersMatch(qualifiers: readonly string[], path: readonly PathSegment[], relative: readonly string[] = []): boolean {
  const wanted = qualifiers.filter((q) => !relative.includes(q));
  if (wanted.length === 0) return true;
  let segments = path;
  let rest = wanted;
  const last = path[path.length - 1];
  if (last?.owner === true) {
    if (!last.names.has(wanted[wanted.length - 1] as string)) return false;
    segments = path.slice(0, -1);
    rest = wanted.slice(0, -1);
  }
  let at = 0;
  for (const q of rest) {
    while (at < segments.length && !(segments[at] as PathSegment).names.has(q)) at++;
    if (at === segments.length) return false;
    at++;
  }
  return true;
}

/**
 * Whether a path's owners alone rule out `qualifiers` (see {@link qualifiersMatch}): its last
 * segment is an owner that does not have the last qualifier's name. Then the modules before them
 * need not be read: of a hundred `Value` methods, `Item7.Value` is told by its owner.
 */
export function ownersRuleOut(qualifiers: readonly string[], owners: readonly PathSegment[], relative: readonly string[] = []): boolean {
  const wanted = qualifiers.filter((q) => !relative.includes(q));
  const last = owners[owners.length - 1];
  return wanted.length > 0 && last?.owner === true && !last.names.has(wanted[wanted.length - 1] as string);
}

/** Builds symbol paths; each file's module path is asked of the backend once. */
export class SymbolPaths {
  readonly #modules = new Map<string, Promise<PathSegment[]>>();

  constructor(private readonly backend: IdeBackend) {}

  /** The path of a symbol, given its outline ancestors (outermost first; empty when unknown). */
  async of(symbol: BackendSymbol, ancestors: readonly OutlineSymbol[]): Promise<PathSegment[]> {
    return [...(await this.#modulesOf(symbol.location.path)), ...this.owners(symbol, ancestors)];
  }

  /** The segments of a symbol's path after its file's modules: its owners (known without reading the file). */
  owners(symbol: BackendSymbol, ancestors: readonly OutlineSymbol[]): PathSegment[] {
    // Owners written in the declaration's name (C++ `Circle::area`) follow its outline ancestors.
    const written: PathSegment[] = (symbol.owners ?? []).map((o) => ({ names: new Set([o]), owner: true }));
    const owners: PathSegment[] =
      ancestors.length > 0 || written.length > 0
        ? ancestors.map((a) => ancestorSegment(a, symbol.language))
        : symbol.container !== undefined && symbol.container !== ''
          ? containerSegments(symbol.container, symbol.language)
          : [];
    return [...owners, ...written];
  }

  /** The module segments of a file (its crate and modules, in Rust). */
  modules(path: string): Promise<PathSegment[]> {
    return this.#modulesOf(path);
  }

  /** Qualifiers of the symbol's language that name no segment (Rust's `self`, `super`). */
  relativeQualifiers(symbol: BackendSymbol): readonly string[] {
    return this.backend.relativeQualifiers(symbol.location.path);
  }

  #modulesOf(path: string): Promise<PathSegment[]> {
    let modules = this.#modules.get(path);
    if (modules === undefined) {
      modules = this.backend.modulePath(path).then((segments) => segments.map((names) => ({ names: new Set(names), owner: false })));
      this.#modules.set(path, modules);
    }
    return modules;
  }
}

/**
 * The owners a container names. In JavaScript a container can be an object path (`View.prototype`,
 * from an assignment): one segment each, and `X.prototype` is also named by `X` (`View.lookup`).
 */
function containerSegments(container: string, language: string): PathSegment[] {
  if (!/^(typescript|javascript)/.test(language) || !container.includes('.')) return [{ names: new Set(containerNames(container)), owner: true }];
  const parts = container.split('.');
  return parts.map((part, i) => {
    const last = i === parts.length - 1;
    const names = last && part === 'prototype' && i > 0 ? [part, parts[i - 1] as string] : [part];
    return { names: new Set(names), owner: last };
  });
}

function ancestorSegment(a: OutlineSymbol, language: string): PathSegment {
  const isModule = a.kind === 'module' || (language === 'rust' && a.kind === 'namespace');
  return { names: new Set(containerNames(a.name)), owner: !isModule };
}

/**
 * The names an outline container stands for: `Searcher<M>` → Searcher; an impl block
 * (`impl<T> Sink for KitchenSink<T>`) → its type and its trait.
 */
export function containerNames(container: string): string[] {
  const impl = /^impl\b(?:\s*<.*?>)?\s+(.*)$/s.exec(container.trim());
  if (impl === null) return [baseName(container)];
  const body = impl[1] ?? '';
  const split = splitAtFor(body);
  return (split === undefined ? [body] : [split.type, split.trait]).map(baseName).filter((n) => n !== '');
}

/**
 * `Sink for KitchenSink<T>` → the trait and the type, at the first ` for ` (what
 * `/^(.*?)\s+for\s+(.*)$/s` gives, in one pass: that pattern retried its whitespace runs from
 * every start, quadratic on a server's name with a long one).
 */
function splitAtFor(body: string): { readonly trait: string; readonly type: string } | undefined {
  const found = /\sfor\s/.exec(body);
  if (found === null) return undefined;
  let traitEnd = found.index;
  while (traitEnd > 0 && /\s/.test(body.charAt(traitEnd - 1))) traitEnd--;
  let typeStart = found.index + 4;
  while (typeStart < body.length && /\s/.test(body.charAt(typeStart))) typeStart++;
  return { trait: body.slice(0, traitEnd), type: body.slice(typeStart) };
}

/** `&'a mut crate::x::Foo<T>` → `Foo`; `dyn Trait` → `Trait`; `!Send` → `Send`. */
function baseName(type: string): string {
  let t = withoutTypeArguments(type.trim());
  t = t.replace(/^[&!]+/, '').replace(/'\w+\s+/g, '').replace(/^(?:mut|dyn|const)\s+/, '').trim();
  return t.split('::').pop()?.trim() ?? t;
}

/**
 * `type` without its balanced `<…>` groups, nested ones included (an unmatched `<` stays): what
 * removing the innermost `<[^<>]*>` until none is left gives, in one pass (that loop was
 * quadratic in the nesting depth of a server's name).
 */
function withoutTypeArguments(type: string): string {
  if (!type.includes('<')) return type;
  const kept: string[] = [];
  const opens: number[] = [];
  for (const c of type) {
    if (c === '<') {
      opens.push(kept.length);
      kept.push(c);
    } else if (c === '>' && opens.length > 0) kept.length = opens.pop() as number;
    else kept.push(c);
  }
  return kept.join('');
}
