/**
 * Qualified names: where a symbol lives, as the path people write (`mycrate::util::validate_token`,
 * `Matcher::find_at`, `Position.create`, `auth.validateToken`), and matching a written path against
 * it. A symbol's path is its crate (Rust), its modules (from the file's place and inline `mod`s)
 * and its owners (class, namespace, trait, or an `impl` block's type and trait) from the outline —
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

/** Qualifiers that name no segment of their own. */
const RELATIVE_QUALIFIERS = new Set(['self', 'super']);

/** Files that are a Rust crate's root module. */
const RUST_CRATE_ROOTS = new Set(['lib.rs', 'main.rs']);

/** Splits `User::new`, `User.new`, `a::b::c` into qualifiers and the final name. */
export function splitQualifiedName(name: string): { qualifiers: string[]; name: string } {
  const parts = name.split(/::|\.|#/).filter((p) => p !== '');
  const last = parts.pop() ?? name;
  return { qualifiers: parts, name: last };
}

/**
 * Whether written qualifiers fit a symbol's path. A member (the symbol has an owner) needs the
 * last qualifier to name its owner; the qualifiers before it, and all qualifiers of a free item,
 * must name segments of the path in order (segments may be skipped: re-exports shorten paths,
 * so `mycrate::Searcher` names `mycrate::searcher::Searcher`).
 */
export function qualifiersMatch(qualifiers: readonly string[], path: readonly PathSegment[]): boolean {
  const wanted = qualifiers.filter((q) => !RELATIVE_QUALIFIERS.has(q));
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

/** Builds symbol paths, reading each crate's manifest once. */
export class SymbolPaths {
  readonly #crates = new Map<string, Promise<string[]>>();

  constructor(private readonly backend: IdeBackend) {}

  /** The path of a symbol, given its outline ancestors (outermost first; empty when unknown). */
  async of(symbol: BackendSymbol, ancestors: readonly OutlineSymbol[]): Promise<PathSegment[]> {
    const modules = symbol.language === 'rust' ? await this.#rustModules(symbol.location.path) : fileModules(symbol.location.path);
    const owners: PathSegment[] =
      ancestors.length > 0
        ? ancestors.map((a) => ancestorSegment(a, symbol.language))
        : symbol.container !== undefined && symbol.container !== ''
          ? [{ names: new Set(containerNames(symbol.container)), owner: true }]
          : [];
    return [...modules, ...owners];
  }

  /**
   * `crate`/crate name, then the modules of a Rust file below the crate's `src/` (`src/net/mod.rs`
   * → net). Crate roots (`lib.rs`, `main.rs`, `src/bin/`, `tests/`, `examples/`) add no module.
   */
  async #rustModules(path: string): Promise<PathSegment[]> {
    const parts = path.split('/');
    for (let i = parts.length - 1; i >= 0; i--) {
      const dir = parts.slice(0, i).join('/');
      const names = await this.#crateNames(dir);
      if (names.length === 0) continue;
      const inner = parts.slice(i);
      const crate: PathSegment = { names: new Set(['crate', ...names]), owner: false };
      if (inner[0] !== 'src' || inner.length < 2 || (inner.length === 2 && RUST_CRATE_ROOTS.has(inner[1] as string)) || inner[1] === 'bin') {
        return [crate];
      }
      const modules = inner.slice(1).map((p) => p.replace(/\.rs$/, ''));
      if (modules[modules.length - 1] === 'mod') modules.pop();
      return [crate, ...modules.map((m) => ({ names: new Set([m]), owner: false }))];
    }
    return fileModules(path);
  }

  /** The crate names of a folder's Cargo.toml (package and lib name, `-` as `_`); none without one. */
  #crateNames(dir: string): Promise<string[]> {
    let names = this.#crates.get(dir);
    if (names === undefined) {
      names = this.backend.workspace
        .lines(dir === '' ? 'Cargo.toml' : `${dir}/Cargo.toml`)
        .then((lines) => manifestNames(lines))
        .catch(() => []);
      this.#crates.set(dir, names);
    }
    return names;
  }
}

/** `name = "…"` in the `[package]` and `[lib]` tables of a Cargo manifest. */
function manifestNames(lines: readonly string[]): string[] {
  const names: string[] = [];
  let table = '';
  for (const line of lines) {
    const header = /^\s*\[([^\]]+)\]/.exec(line);
    if (header !== null) table = (header[1] ?? '').trim();
    const name = /^\s*name\s*=\s*"([^"]+)"/.exec(line);
    if (name !== null && (table === 'package' || table === 'lib')) names.push((name[1] ?? '').replace(/-/g, '_'));
  }
  return names.length > 0 ? names : ['crate'];
}

/** Folders and file name of a non-Rust file as modules (`src/auth.ts` → src, auth; `index` files add none). */
function fileModules(path: string): PathSegment[] {
  const parts = path.split('/');
  const file = (parts.pop() ?? '').replace(/\.[^.]+$/, '');
  if (file !== 'index' && file !== '') parts.push(file);
  return parts.map((p) => ({ names: new Set([p]), owner: false }));
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
  const split = /^(.*?)\s+for\s+(.*)$/s.exec(body);
  return (split === null ? [body] : [split[2] ?? '', split[1] ?? '']).map(baseName).filter((n) => n !== '');
}

/** `&'a mut crate::x::Foo<T>` → `Foo`; `dyn Trait` → `Trait`; `!Send` → `Send`. */
function baseName(type: string): string {
  let t = type.trim();
  while (/<[^<>]*>/.test(t)) t = t.replace(/<[^<>]*>/g, '');
  t = t.replace(/^[&!]+/, '').replace(/'\w+\s+/g, '').replace(/^(?:mut|dyn|const)\s+/, '').trim();
  return t.split('::').pop()?.trim() ?? t;
}
