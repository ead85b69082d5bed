/**
 * Rust files the build leaves out as rust-analyzer loads it: a module declared under a
 * `#[cfg(…)]` that is off — a feature its package does not enable by default (rust-lang/log's
 * `#[cfg(feature = "kv")] pub mod kv;`), another system (`#[cfg(windows)] mod windows;`). rust-analyzer
 * analyses none of their items, so a name declared only there is not found and would read as
 * absent; the lookup says where it is declared instead (`ServerDefinition.unbuilt`), from a
 * budgeted text search. So are the files of a package below the root manifest that its Cargo
 * workspace does not include (a `[workspace]` of its own — cargo-fuzz's `fuzz/`, rust-bakery/nom's —
 * or the root's `exclude`), which rust-analyzer never loads. Only what is certain is claimed: a `cfg` this module cannot decide (a
 * custom cfg, one written over several lines, a `#[path]` module) leaves its module alone.
 */
import { posix } from 'node:path';
import type { UnbuiltFiles } from '../../lsp/servers.js';
import { searchWorkspace, walkFiles } from '../../search.js';
import { Workspace } from '../../workspace.js';
import { parseToml, type TomlTable, type TomlValue } from './cargo-manifest.js';

/** The scan's time budget: past it, nothing is claimed. */
const UNBUILT_SCAN_BUDGET_MS = 5000;
/** At most this many `mod` declarations are read. */
const MAX_MOD_LINES = 20_000;
/** At most this many files below left-out module folders are listed. */
const MAX_LISTED_FILES = 50_000;
/** Why a package's files are left out when the root's Cargo workspace does not include it (short: the note shows it). */
const SEPARATE_WORKSPACE_WHY = 'not in the root Cargo workspace';
/** Attribute lines above a `mod` that are read. */
const MAX_ATTRIBUTES = 8;

/**
 * A file module declaration: `mod name;`, `pub mod name;`, `pub(crate) mod name;`, maybe after
 * attributes on its line. One `#\[.*\]` spans all the attributes (`.*` runs from the first `#[`
 * to the last `]`): repeated, `(#\[.*\]\s*)*` split a line of them every possible way,
 * exponential (30 attributes: 11 s; the search stopped at its budget, claiming nothing).
 */
export const MOD_LINE = /^\s*(?:#\[.*\]\s*)?(?:pub(?:\([^)]*\))?\s+)?mod\s+(?:r#)?([A-Za-z_]\w*)\s*;/;
const MOD_SEARCH = String.raw`^\s*(#\[.*\]\s*)?(pub(\([^)]*\))?\s+)?mod\s+(r#)?[A-Za-z_]\w*\s*;`;
/**
 * The first `#[cfg(…)]` of `text` on one line, to the last `)]` there: where it starts, its length
 * and its predicate. What `/#\[cfg\((.*)\)\]/` finds, by two searches: that pattern ran to the
 * end of the line from every `#[cfg(`, quadratic in a line of them.
 */
function cfgAttribute(text: string): { readonly index: number; readonly length: number; readonly predicate: string } | undefined {
  const index = text.indexOf('#[cfg(');
  if (index < 0) return undefined;
  const terminator = /[\n\r\u2028\u2029]/g;
  terminator.lastIndex = index;
  const lineEnd = terminator.exec(text)?.index ?? text.length;
  const close = text.lastIndexOf(')]', lineEnd - 2);
  if (close < index + 6) return undefined;
  return { index, length: close + 2 - index, predicate: text.slice(index + 6, close) };
}

/** Rust's names of this host's system and architecture (the cfgs rust-analyzer sets from rustc). */
const HOST_OS: Record<string, string> = { linux: 'linux', darwin: 'macos', win32: 'windows', freebsd: 'freebsd', openbsd: 'openbsd', netbsd: 'netbsd', sunos: 'solaris', aix: 'aix', android: 'android' };
const HOST_ARCH: Record<string, string> = { x64: 'x86_64', arm64: 'aarch64', ia32: 'x86', arm: 'arm', riscv64: 'riscv64', ppc64: 'powerpc64', s390x: 's390x', loong64: 'loongarch64' };

/** A cfg predicate's value here: true, false, or undefined when it cannot be told. */
type Truth = boolean | undefined;

/**
 * Evaluates a cfg predicate (`feature = "kv"`, `all(unix, not(test))`) with a package's enabled
 * features, the host's system and architecture, and the cfgs rust-analyzer sets for a workspace
 * member (`test`, `debug_assertions`); anything else is unknown.
 */
export function evaluateCfg(predicate: string, features: ReadonlySet<string>): Truth {
  let at = 0;
  const text = predicate;
  const space = (): void => {
    while (at < text.length && /\s/.test(text[at] as string)) at++;
  };
  const parse = (depth: number): Truth | 'error' => {
    if (depth > 16) return 'error';
    space();
    const name = /^[A-Za-z_]\w*/.exec(text.slice(at))?.[0];
    if (name === undefined) return 'error';
    at += name.length;
    space();
    if (text[at] === '(' && (name === 'all' || name === 'any' || name === 'not')) {
      at++;
      const values: Truth[] = [];
      for (space(); text[at] !== ')'; space()) {
        const v = parse(depth + 1);
        if (v === 'error') return 'error';
        values.push(v);
        space();
        if (text[at] === ',') at++;
        else if (text[at] !== ')') return 'error';
        space();
      }
      at++;
      if (name === 'not') return values.length !== 1 ? 'error' : values[0] === undefined ? undefined : !values[0];
      if (name === 'all') return values.includes(false) ? false : values.includes(undefined) ? undefined : true;
      return values.includes(true) ? true : values.includes(undefined) ? undefined : false;
    }
    if (text[at] === '=') {
      at++;
      space();
      const value = /^"([^"\\]*)"/.exec(text.slice(at));
      if (value === null) return 'error';
      at += value[0].length;
      return keyValue(name, value[1] as string, features);
    }
    return flag(name);
  };
  const result = parse(0);
  space();
  return result === 'error' || at !== text.length ? undefined : result;
}

/** A name cfg: the host's family, the member cfgs rust-analyzer sets, and those only rustdoc or miri set. */
function flag(name: string): Truth {
  if (name === 'unix') return process.platform !== 'win32';
  if (name === 'windows') return process.platform === 'win32';
  if (name === 'test' || name === 'debug_assertions') return true;
  if (name === 'doc' || name === 'docsrs' || name === 'miri') return false;
  return undefined;
}

/** A key-value cfg: a feature of the package, the host's system and architecture. */
function keyValue(key: string, value: string, features: ReadonlySet<string>): Truth {
  if (key === 'feature') return features.has(value);
  if (key === 'target_os') return HOST_OS[process.platform] === undefined ? undefined : HOST_OS[process.platform] === value;
  if (key === 'target_family') return process.platform === 'win32' ? value === 'windows' : value === 'unix';
  if (key === 'target_arch') return HOST_ARCH[process.arch] === undefined ? undefined : HOST_ARCH[process.arch] === value;
  return undefined;
}

/** The features a package enables by default: `default` and what it enables, transitively (`dep:` and `crate/feature` entries name no feature of its own). */
export function defaultFeatures(manifest: TomlTable): Set<string> {
  const table = manifest['features'];
  const declared = typeof table === 'object' && table !== null && !Array.isArray(table) ? table : {};
  const on = new Set<string>();
  const pending = ['default'];
  while (pending.length > 0) {
    const feature = pending.pop() as string;
    if (on.has(feature)) continue;
    on.add(feature);
    const list: TomlValue | undefined = declared[feature];
    if (!Array.isArray(list)) continue;
    for (const item of list) if (typeof item === 'string' && !item.includes('/') && !item.startsWith('dep:')) pending.push(item);
  }
  // An optional dependency is a feature of its name too; whether it is on, only cargo knows: not claimed either way.
  return on;
}

/** The enabled features of the package owning each folder (by its nearest `Cargo.toml`), read once per manifest. */
export class PackageFeatures {
  readonly #byManifest = new Map<string, Promise<Set<string> | undefined>>();
  constructor(private readonly workspace: Workspace) {}

  /** The features of the package `path` (workspace-relative) belongs to; undefined when none is readable. */
  async of(path: string): Promise<Set<string> | undefined> {
    for (let dir = posix.dirname(path); ; dir = posix.dirname(dir)) {
      const manifest = dir === '.' ? 'Cargo.toml' : `${dir}/Cargo.toml`;
      const found = await this.#read(manifest);
      if (found !== 'missing') return found;
      if (dir === '.' || dir === '') return undefined;
    }
  }

  async #read(manifest: string): Promise<Set<string> | undefined | 'missing'> {
    let lines: readonly string[];
    try {
      lines = await this.workspace.lines(manifest);
    } catch {
      return 'missing';
    }
    let features = this.#byManifest.get(manifest);
    if (features === undefined) {
      features = Promise.resolve().then(() => {
        try {
          const toml = parseToml(lines.join('\n'));
          return toml['package'] !== undefined ? defaultFeatures(toml) : undefined;
        } catch {
          return undefined;
        }
      });
      this.#byManifest.set(manifest, features);
    }
    return features;
  }
}

/** The file and folder a `mod name;` in `path` loads (no `#[path]`): beside a crate root or `mod.rs`, else in the declaring file's own folder. */
function moduleFiles(path: string, name: string): { file: string; folder: string } {
  const file = posix.basename(path);
  const dir = posix.dirname(path);
  const base = file === 'lib.rs' || file === 'main.rs' || file === 'mod.rs' ? dir : posix.join(dir, file.replace(/\.rs$/, ''));
  const folder = base === '.' ? name : `${base}/${name}`;
  return { file: `${folder}.rs`, folder };
}

/**
 * The cfg predicates written above (and on) line `index` of `lines`, or undefined when an
 * attribute there cannot be read (one spanning lines, a `#[path]`).
 */
export function cfgsAbove(lines: readonly string[], index: number): string[] | undefined {
  const cfgs: string[] = [];
  const own = lines[index] ?? '';
  if (/#\[path\b/.test(own)) return undefined;
  const inline = cfgAttribute(own.slice(0, own.search(/\bmod\b/)));
  if (inline !== undefined) cfgs.push(inline.predicate);
  for (let i = index - 1, read = 0; i >= 0 && read < MAX_ATTRIBUTES; i--, read++) {
    const line = (lines[i] ?? '').trim();
    if (line.startsWith('//')) continue;
    if (!line.startsWith('#[')) break;
    if (!line.endsWith(']') || /^#\[path\b/.test(line)) return undefined;
    const cfg = cfgAttribute(line);
    if (cfg !== undefined && cfg.index === 0 && cfg.length === line.length) cfgs.push(cfg.predicate);
  }
  return cfgs;
}

/**
 * The Rust files of `root` whose module is declared under a cfg that is off here, each with the
 * cfg (`cfg(feature = "kv")`), and every file in the module's folder; undefined when the scan
 * could not finish within its budget.
 */
async function unbuiltRustFiles(root: string, _env: Readonly<Record<string, string | undefined>>, signal?: AbortSignal): Promise<ReadonlyMap<string, string> | undefined> {
  const workspace = new Workspace(root);
  const options = { timeoutMs: UNBUILT_SCAN_BUDGET_MS, ...(signal !== undefined ? { signal } : {}) };
  const out = new Map<string, string>();
  try {
    const { matches } = await searchWorkspace(workspace, '.', MOD_SEARCH, { extensions: ['.rs'], maxResults: MAX_MOD_LINES, ...options });
    const features = new PackageFeatures(workspace);
    // A module file is left out only when every declaration of it is off (log declares `kv/source.rs`
    // twice, under `not(feature = "kv_unstable")` and `feature = "kv_unstable"`: one is on).
    const off = new Map<string, { folder: string; why: string }>();
    const on = new Set<string>();
    for (const m of matches) {
      const name = MOD_LINE.exec(m.content)?.[1];
      if (name === undefined) continue;
      const { file, folder } = moduleFiles(m.path, name);
      const cfgs = cfgsAbove(await workspace.lines(m.path), m.start.line - 1);
      const enabled = (await features.of(m.path)) ?? new Set<string>();
      const offCfg = cfgs?.find((c) => evaluateCfg(c, enabled) === false);
      if (offCfg === undefined) on.add(file);
      else if (!off.has(file)) off.set(file, { folder, why: `cfg(${offCfg.trim()})` });
    }
    // Outermost last: what a left-out folder holds is left out for the folder's cfg.
    const modules = [...off.entries()].filter(([file]) => !on.has(file)).sort(([a], [b]) => b.split('/').length - a.split('/').length);
    for (const [file, { folder, why }] of modules) {
      out.set(file, why);
      out.set(`${folder}/mod.rs`, why);
      // Listed from the folder itself: its path is no pattern. A module without a folder has none to list.
      const { files } = await walkFiles(workspace, folder, { glob: '**/*.rs', limit: MAX_LISTED_FILES, ...options }).catch(() => ({ files: [] as string[] }));
      for (const f of files) out.set(f, why);
    }
    for (const [file, why] of await separateWorkspaceFiles(workspace, options)) if (!out.has(file)) out.set(file, why);
  } catch {
    return undefined; // Over budget or unreadable: nothing is claimed, and the next lookup asks again.
  }
  return out;
}

/**
 * The Rust files of packages below a root `Cargo.toml` that its build never loads, each with why:
 * a package that declares a Cargo workspace of its own (cargo-fuzz's `fuzz/`, rust-bakery/nom's),
 * or one in a folder the root's `[workspace] exclude` names. rust-analyzer loads the root's
 * workspace only (Dialect's description of it, or its own discovery, which stops at the root's
 * manifest), so their names are found nowhere. Without a root manifest, nothing is claimed.
 */
async function separateWorkspaceFiles(workspace: Workspace, options: { timeoutMs: number; signal?: AbortSignal }): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const rootText = await workspace.lines('Cargo.toml').catch(() => undefined);
  if (rootText === undefined) return out;
  const rootWorkspace = tableOf(parseToml(rootText.join('\n'))['workspace']);
  const excluded = Array.isArray(rootWorkspace?.['exclude']) ? rootWorkspace['exclude'].filter((e): e is string => typeof e === 'string').map((e) => posix.normalize(e).replace(/\/+$/, '')) : [];
  const { files: manifests } = await walkFiles(workspace, '.', { glob: '**/Cargo.toml', limit: MAX_LISTED_FILES, ...options });
  const separate: string[] = [];
  for (const manifest of manifests) {
    const folder = posix.dirname(manifest);
    if (folder === '.' || separate.some((s) => folder.startsWith(`${s}/`))) continue;
    const toml = parseToml((await workspace.lines(manifest)).join('\n'));
    if (toml['package'] === undefined) continue;
    const ownWorkspace = toml['workspace'] !== undefined;
    if (ownWorkspace || excluded.some((e) => folder === e || folder.startsWith(`${e}/`))) separate.push(folder);
  }
  for (const folder of separate) {
    const { files } = await walkFiles(workspace, folder, { glob: '**/*.rs', limit: MAX_LISTED_FILES, ...options });
    for (const f of files) out.set(f, SEPARATE_WORKSPACE_WHY);
  }
  return out;
}

/** A TOML value as a table, or undefined. */
function tableOf(value: TomlValue | undefined): TomlTable | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}

/** A line that declares `name`: an item (`fn`, `struct`, `enum`, `trait`, `type`, `union`, `const`, `static`, `mod`) or a `macro_rules!`. */
function declaringLine(name: string): string | undefined {
  if (!/^[A-Za-z_]\w*$/.test(name)) return undefined;
  const item = String.raw`(pub(\([^)]*\))?\s+)?((const|async|unsafe|extern\s+"[^"]*")\s+)*(fn|struct|enum|trait|type|union|const|static|mod)\s+(r#)?${name}\b`;
  return String.raw`^\s*(${item}|macro_rules!\s*${name}\b)`;
}

/** What a Rust lookup says about the modules a cfg that is off leaves out. */
export const rustUnbuiltFiles: UnbuiltFiles = { list: unbuiltRustFiles, declaringLine };
