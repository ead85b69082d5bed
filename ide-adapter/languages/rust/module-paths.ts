/**
 * Rust's module paths: the crate — `crate` or its name from Cargo.toml — then the modules below
 * `src/` (`mycrate::net::Conn`); rust-analyzer's definition declares them.
 */
import { fileModulePath, type ModulePathOf, type ModuleSegment } from '../../lsp/module-paths.js';

/** Qualifiers of Rust that name no module of their own: they match wherever they stand. */
export const RUST_RELATIVE_QUALIFIERS: readonly string[] = ['self', 'super'];

/** Files that are a Rust crate's root module. */
const RUST_CRATE_ROOTS = new Set(['lib.rs', 'main.rs']);

/**
 * `crate`/crate name, then the modules of a Rust file below the crate's `src/` (`src/net/mod.rs`
 * → net). Crate roots (`lib.rs`, `main.rs`, `src/bin/`, `tests/`, `examples/`) add no module. The
 * crate is the closest folder above the file with a Cargo.toml; without one, the file's folders.
 */
export const rustModulePath: ModulePathOf = async (path, readLines) => {
  const parts = path.split('/');
  for (let i = parts.length - 1; i >= 0; i--) {
    const dir = parts.slice(0, i).join('/');
    const names = await readLines(dir === '' ? 'Cargo.toml' : `${dir}/Cargo.toml`).then(manifestNames, () => []);
    if (names.length === 0) continue;
    const inner = parts.slice(i);
    const crate: ModuleSegment = ['crate', ...names];
    if (inner[0] !== 'src' || inner.length < 2 || (inner.length === 2 && RUST_CRATE_ROOTS.has(inner[1] as string)) || inner[1] === 'bin') {
      return [crate];
    }
    const modules = inner.slice(1).map((p) => p.replace(/\.rs$/, ''));
    if (modules[modules.length - 1] === 'mod') modules.pop();
    return [crate, ...modules.map((m) => [m])];
  }
  return fileModulePath(path, readLines);
};

/** `name = "…"` in the `[package]` and `[lib]` tables of a Cargo manifest (`-` as `_`); `crate` when none. */
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
