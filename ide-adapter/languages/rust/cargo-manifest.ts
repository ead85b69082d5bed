/**
 * Reading the Cargo manifests cargo cannot read for us: the registry crates of the standard
 * library's own workspace (Debian's `rust-web-src` vendors them; cargo's cache holds them after a
 * download). cargo refuses to read a vendored manifest (it belongs to no workspace member), so we
 * read the TOML ourselves: the subset cargo writes when it publishes a crate (its "normalized"
 * manifests) and writes into `Cargo.lock`. Pure and linear in the text: one pass, no backtracking.
 */
import type { CargoDependency, CargoPackage } from './project.js';

/** A TOML value as read here; numbers, dates and other bare tokens stay strings. */
export type TomlValue = string | boolean | TomlValue[] | TomlTable;
/** A TOML table. */
export interface TomlTable {
  [key: string]: TomlValue;
}

/** A text this reader does not accept, with where. */
export class TomlSubsetError extends Error {
  constructor(
    message: string,
    /** 1-based line of the problem. */
    readonly line: number,
  ) {
    super(`${message} (line ${line})`);
    this.name = 'TomlSubsetError';
  }
}

/** A bare key, matched where the scan stands. */
const BARE_KEY = /[A-Za-z0-9_-]+/y;
/** A bare value's text up to what ends it, matched where the scan stands. */
const BARE_VALUE = /[^,\]}\n#]*/y;

/** Nesting of arrays and inline tables we follow (cargo writes two at most). */
const MAX_DEPTH = 32;

/**
 * Parses TOML text: tables, arrays of tables, dotted and quoted keys, basic and literal strings
 * (multi-line too), arrays and inline tables. Bare values (numbers, dates) are kept as their text.
 * Throws {@link TomlSubsetError} on anything else.
 */
export function parseToml(text: string): TomlTable {
  const root: TomlTable = {};
  let current = root;
  let i = 0;
  const lineAt = (at: number): number => {
    let line = 1;
    for (let k = 0; k < at && k < text.length; k++) if (text.charCodeAt(k) === 10) line++;
    return line;
  };
  const fail = (message: string): never => {
    throw new TomlSubsetError(message, lineAt(i));
  };
  const skipSpace = (newlines: boolean): void => {
    while (i < text.length) {
      const c = text[i];
      if (c === ' ' || c === '\t' || c === '\r' || (newlines && c === '\n')) i++;
      else if (c === '#') while (i < text.length && text[i] !== '\n') i++;
      else break;
    }
  };
  const basicString = (): string => {
    const multi = text.startsWith('"""', i);
    i += multi ? 3 : 1;
    if (multi && text[i] === '\n') i++;
    let out = '';
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const c = text[i] as string;
      if (multi ? text.startsWith('"""', i) : c === '"') {
        i += multi ? 3 : 1;
        return out;
      }
      if (!multi && c === '\n') fail('newline in a string');
      if (c !== '\\') {
        out += c;
        i++;
        continue;
      }
      const e = text[i + 1];
      i += 2;
      const simple: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' };
      if (e !== undefined && simple[e] !== undefined) out += simple[e];
      else if (e === 'u' || e === 'U') {
        const digits = text.slice(i, i + (e === 'u' ? 4 : 8));
        if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== (e === 'u' ? 4 : 8)) fail('bad unicode escape');
        out += String.fromCodePoint(parseInt(digits, 16));
        i += digits.length;
      } else if (multi && (e === '\n' || e === ' ' || e === '\t' || e === '\r')) {
        i--; // a line-ending backslash: drop the whitespace up to the next text
        while (i < text.length && /\s/.test(text[i] as string)) i++;
      } else fail('bad escape');
    }
  };
  const literalString = (): string => {
    const multi = text.startsWith("'''", i);
    i += multi ? 3 : 1;
    if (multi && text[i] === '\n') i++;
    const end = text.indexOf(multi ? "'''" : "'", i);
    if (end < 0 || (!multi && text.slice(i, end).includes('\n'))) fail('unterminated string');
    const out = text.slice(i, end);
    i = end + (multi ? 3 : 1);
    return out;
  };
  const key = (): string[] => {
    const parts: string[] = [];
    for (;;) {
      skipSpace(false);
      const c = text[i];
      if (c === '"') parts.push(basicString());
      else if (c === "'") parts.push(literalString());
      else {
        BARE_KEY.lastIndex = i;
        const bare = BARE_KEY.exec(text);
        if (bare === null) fail('expected a key');
        parts.push((bare as RegExpExecArray)[0]);
        i = BARE_KEY.lastIndex;
      }
      skipSpace(false);
      if (text[i] !== '.') return parts;
      i++;
    }
  };
  const value = (depth: number): TomlValue => {
    if (depth > MAX_DEPTH) fail('nested too deeply');
    skipSpace(false);
    const c = text[i];
    if (c === '"') return basicString();
    if (c === "'") return literalString();
    if (c === '[') {
      i++;
      const items: TomlValue[] = [];
      for (;;) {
        skipSpace(true);
        if (text[i] === ']') {
          i++;
          return items;
        }
        items.push(value(depth + 1));
        skipSpace(true);
        if (text[i] === ',') i++;
        else if (text[i] !== ']') fail('expected , or ] in an array');
      }
    }
    if (c === '{') {
      i++;
      const table: TomlTable = {};
      skipSpace(false);
      if (text[i] === '}') {
        i++;
        return table;
      }
      for (;;) {
        const path = key();
        if (text[i] !== '=') fail('expected = in an inline table');
        i++;
        assign(table, path, value(depth + 1));
        skipSpace(false);
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return table;
        } else fail('expected , or } in an inline table');
      }
    }
    BARE_VALUE.lastIndex = i;
    const bare = (BARE_VALUE.exec(text)?.[0] ?? '').trim();
    i = BARE_VALUE.lastIndex === 0 ? i : BARE_VALUE.lastIndex;
    // Numbers, booleans, dates: nothing else is bare.
    if (!/^[A-Za-z0-9_+\-.:]+$/.test(bare)) fail('expected a value');
    return bare === 'true' ? true : bare === 'false' ? false : bare;
  };
  const tableAt = (from: TomlTable, path: readonly string[], arrayOfTables: boolean): TomlTable => {
    let table = from;
    path.forEach((part, index) => {
      const last = index === path.length - 1;
      let next = table[part];
      if (last && arrayOfTables) {
        if (next === undefined) table[part] = next = [];
        if (!Array.isArray(next)) fail(`${path.join('.')} is not an array of tables`);
        const entry: TomlTable = {};
        (next as TomlValue[]).push(entry);
        table = entry;
        return;
      }
      if (next === undefined) table[part] = next = {};
      if (Array.isArray(next)) next = next[next.length - 1]; // the latest [[table]]
      if (typeof next !== 'object' || next === null || Array.isArray(next)) fail(`${path.join('.')} is not a table`);
      table = next as TomlTable;
    });
    return table;
  };
  const assign = (table: TomlTable, path: readonly string[], v: TomlValue): void => {
    const parent = tableAt(table, path.slice(0, -1), false);
    parent[path[path.length - 1] as string] = v;
  };

  for (;;) {
    skipSpace(true);
    if (i >= text.length) return root;
    if (text[i] === '[') {
      const array = text[i + 1] === '[';
      i += array ? 2 : 1;
      const path = key();
      if (text[i] !== ']' || (array && text[i + 1] !== ']')) fail('expected ] after a table name');
      i += array ? 2 : 1;
      current = tableAt(root, path, array);
    } else {
      const path = key();
      if (text[i] !== '=') fail('expected =');
      i++;
      assign(current, path, value(0));
    }
    skipSpace(false);
    if (i < text.length && text[i] !== '\n') fail('expected the end of the line');
  }
}

/** One `[[package]]` of a `Cargo.lock`. */
export interface LockedPackage {
  readonly name: string;
  readonly version: string;
  /** e.g. `registry+https://github.com/rust-lang/crates.io-index`; absent for path packages. */
  readonly source?: string;
}

/** The packages a `Cargo.lock` text pins. Throws {@link TomlSubsetError} on text it cannot read. */
export function lockedPackages(text: string): LockedPackage[] {
  const packages = parseToml(text)['package'];
  if (!Array.isArray(packages)) return [];
  return packages.flatMap((p): LockedPackage[] => {
    if (typeof p !== 'object' || Array.isArray(p)) return [];
    const { name, version, source } = p;
    if (typeof name !== 'string' || typeof version !== 'string') return [];
    return [{ name, version, ...(typeof source === 'string' ? { source } : {}) }];
  });
}

const str = (v: TomlValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
const table = (v: TomlValue | undefined): TomlTable => (typeof v === 'object' && !Array.isArray(v) ? v : {});
const strings = (v: TomlValue | undefined): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/**
 * A package as `cargo metadata` would describe it, from its manifest text and the folder holding
 * it: name, version, edition, features, its library target and its dependencies (normal, dev and
 * build; platform-specific ones carry their `target`). Registry dependencies keep `source` set;
 * path dependencies get an absolute `path`. Throws {@link TomlSubsetError} on unreadable text.
 */
export function packageFromManifest(text: string, dir: string): CargoPackage {
  const manifest = parseToml(text);
  const pkg = table(manifest['package']);
  const name = str(pkg['name']);
  if (name === undefined) throw new TomlSubsetError('no package name', 1);
  const version = str(pkg['version']) ?? '0.0.0';
  const edition = str(pkg['edition']) ?? '2015';
  const lib = table(manifest['lib']);
  // Without `[lib]`, a library exists unless auto-discovery is off (published manifests say `autolib = false` and name their `[lib]`).
  const hasLib = manifest['lib'] !== undefined || pkg['autolib'] !== false;
  const libPath = str(lib['path']) ?? 'src/lib.rs';
  const dependencies: CargoDependency[] = [];
  const section = (deps: TomlValue | undefined, kind: string | null, target: string | null): void => {
    for (const [key, spec] of Object.entries(table(deps))) {
      const t = typeof spec === 'string' ? { version: spec } : table(spec);
      const renamed = str(t['package']);
      const path = str(t['path']);
      dependencies.push({
        name: renamed ?? key,
        ...(renamed !== undefined ? { rename: key } : {}),
        kind,
        target,
        req: str(t['version']) ?? '*',
        optional: t['optional'] === true,
        uses_default_features: t['default-features'] !== false && t['default_features'] !== false,
        features: strings(t['features']),
        ...(path !== undefined ? { source: null, path: path.startsWith('/') ? path : `${dir}/${path}` } : { source: 'registry+https://github.com/rust-lang/crates.io-index' }),
      });
    }
  };
  const sections = (from: TomlTable, target: string | null): void => {
    section(from['dependencies'], null, target);
    section(from['dev-dependencies'], 'dev', target);
    section(from['build-dependencies'], 'build', target);
  };
  sections(manifest, null);
  for (const [platform, deps] of Object.entries(table(manifest['target']))) sections(table(deps), platform);
  const features: Record<string, string[]> = {};
  for (const [feature, list] of Object.entries(table(manifest['features']))) features[feature] = strings(list);
  return {
    id: `${name} ${version} (${dir})`,
    name,
    version,
    source: 'registry+https://github.com/rust-lang/crates.io-index',
    edition,
    manifest_path: `${dir}/Cargo.toml`,
    dependencies,
    targets: hasLib
      ? [
      {
        name: (str(lib['name']) ?? name).replace(/-/g, '_'),
        kind: [lib['proc-macro'] === true || lib['proc_macro'] === true ? 'proc-macro' : 'lib'],
        src_path: libPath.startsWith('/') ? libPath : `${dir}/${libPath}`,
        edition: str(lib['edition']) ?? edition,
      },
    ]
      : [],
    features,
  };
}
