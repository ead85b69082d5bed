/**
 * Tab completion for the REPL: function names (listing their signatures when several match),
 * named parameters inside a call (`file: `), workspace paths inside a string argument whose
 * parameter is a path, and the REPL's dot commands.
 *
 * `complete` is pure: it reads the text before the cursor with a small scanner of its own (the
 * parser needs whole programs; this must understand half-typed ones) and asks `listDir` for paths.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ParameterDefinition } from '../dialect/index.js';
import { ignoreRulesFor, isIgnored, type Workspace } from '../ide-adapter/index.js';

/** What completion needs of a registered function. */
export interface CompletionFunction {
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly parameters: readonly ParameterDefinition[];
}

/** What completion needs of a registry (a `Registry` of any host fits). */
export interface CompletionRegistry {
  readonly functions: readonly CompletionFunction[];
  lookup(name: string): CompletionFunction | undefined;
  signature(fn: CompletionFunction): string;
}

/** One entry of a folder listing, as completion needs it. */
export interface DirEntry {
  readonly name: string;
  readonly directory: boolean;
}

/** What completion reads besides the input line: the registry and the workspace's files. */
export interface CompletionSource {
  readonly registry: CompletionRegistry;
  /** The entries of a workspace folder (`""` for the root, else ending in `/`); undefined when it cannot be read. */
  listDir(dir: string): readonly DirEntry[] | undefined;
  /** Dot commands with their argument choices, e.g. `{ ".timing": ["on", "off"] }`. */
  readonly commands: Readonly<Record<string, readonly string[]>>;
}

/** readline's completer result: the candidates and the text they replace (a suffix of the line). */
export interface Completion {
  readonly items: string[];
  readonly replace: string;
}

const NONE = (replace = ''): Completion => ({ items: [], replace });

/** Parameters whose string value is a workspace path. */
const PATH_PARAMETER = /^(path|file|folder|dir|directory)$/i;

/**
 * Completes at the end of `before`: the text of the current input up to the cursor, earlier lines
 * of an unfinished program included (separated by `\n`); `line` is the current line's part of it.
 */
export function complete(before: string, source: CompletionSource): Completion {
  const line = before.slice(before.lastIndexOf('\n') + 1);
  if (before === line) {
    const command = /^\s*(\.[A-Za-z]*)$/.exec(line);
    if (command !== null) {
      const word = command[1] as string;
      const items = Object.keys(source.commands).filter((c) => c.startsWith(word));
      return { items: items.length === 1 ? [`${items[0] as string} `] : items, replace: word };
    }
    const argument = /^\s*(\.[A-Za-z]+)\s+([A-Za-z]*)$/.exec(line);
    if (argument !== null) {
      const choices = source.commands[argument[1] as string] ?? [];
      const word = argument[2] as string;
      return { items: choices.filter((c) => c.startsWith(word)), replace: word };
    }
  }

  const scan = scanContext(before);
  if (scan.kind === 'comment') return NONE();
  const frame = scan.frames[scan.frames.length - 1];

  if (scan.kind === 'string') {
    if (frame?.kind !== 'call' || scan.start < before.length - line.length) return NONE();
    const parameter = parameterAt(source.registry, frame);
    if (parameter === undefined || !PATH_PARAMETER.test(parameter.name)) return NONE(scan.content);
    return completePath(scan.content, scan.quote, source);
  }

  const prefix = /[A-Za-z_$][A-Za-z0-9_$]*$/.exec(line)?.[0] ?? '';
  const parameterPosition = frame?.kind === 'call' && frame.atArgumentStart && !frame.valuePosition;
  if (prefix === '' && !parameterPosition) return NONE();
  if (prefix !== '' && /[0-9.]$/.test(before.slice(0, before.length - prefix.length))) return NONE(); // `1e5`, `.5`
  const items: string[] = [];
  if (frame?.kind === 'call' && parameterPosition) {
    const fn = source.registry.lookup(frame.name);
    if (fn !== undefined) {
      const free = fn.parameters.filter((p) => p.rest === undefined && !frame.used.has(p.name) && p.name.startsWith(prefix));
      // Every free parameter may be given by name (`findDefinitions(of: …)` is valid too). When one
      // matches the word, parameters win over function names: `fi` is far likelier `file:` than `files(`.
      items.push(...free.map((p) => `${p.name}: ${p.type}`));
    }
  } else if (frame?.kind === 'object' && frame.atKey) {
    return NONE(prefix);
  }
  if (items.length === 0) items.push(...functionItems(source.registry, prefix));
  if (items.length === 1) {
    // A lone parameter after `(` or `, ` is only a guess at how to pass the argument: insert nothing.
    if (prefix === '' && !/\(/.test(items[0] as string)) return NONE();
    return { items: [singleInsertion(items[0] as string)], replace: prefix };
  }
  return { items, replace: prefix };
}

/** `name: type` → `name: `; `fn(params) → type` → `fn(`. */
function singleInsertion(item: string): string {
  const named = /^([A-Za-z_$][\w$]*): /.exec(item);
  if (named !== null) return `${named[1] as string}: `;
  const call = /^([A-Za-z_$][\w$]*)\(/.exec(item);
  return call !== null ? `${call[1] as string}(` : item;
}

/** Function names (and aliases) starting with `prefix`, each shown with its signature. */
function functionItems(registry: CompletionRegistry, prefix: string): string[] {
  const out: string[] = [];
  for (const fn of registry.functions) {
    const signature = registry.signature(fn);
    for (const name of [fn.name, ...(fn.aliases ?? [])]) {
      if (!name.startsWith(prefix)) continue;
      out.push(name === fn.name ? signature : `${name}${signature.slice(fn.name.length)}`);
    }
  }
  return out.sort();
}

function completePath(content: string, quote: string, source: CompletionSource): Completion {
  const slash = content.lastIndexOf('/');
  const dir = content.slice(0, slash + 1);
  const base = content.slice(slash + 1);
  const entries = source.listDir(dir);
  if (entries === undefined) return NONE(content);
  const matches = entries
    .filter((e) => e.name.startsWith(base) && (base.startsWith('.') || !e.name.startsWith('.')))
    .map((e) => ({ path: `${dir}${e.name}${e.directory ? '/' : ''}`, directory: e.directory }))
    .sort((a, b) => a.path.localeCompare(b.path));
  if (matches.length === 1) {
    const only = matches[0] as { path: string; directory: boolean };
    return { items: [only.directory ? only.path : `${only.path}${quote}`], replace: content };
  }
  return { items: matches.map((m) => m.path), replace: content };
}

/** The parameter the argument being typed in `frame` binds to. */
function parameterAt(registry: CompletionRegistry, frame: CallFrame): ParameterDefinition | undefined {
  const fn = registry.lookup(frame.name);
  if (fn === undefined) return undefined;
  if (frame.named !== undefined) return fn.parameters.find((p) => p.name === frame.named);
  let index = 0;
  for (const p of fn.parameters) {
    if (p.rest === 'positional') return p;
    if (p.rest === 'named') return undefined;
    if (index === frame.positional) return p;
    index++;
  }
  return undefined;
}

interface CallFrame {
  readonly kind: 'call';
  readonly name: string;
  /** Positional arguments before the current one. */
  positional: number;
  /** The current argument's name when it is a named one (`file: …`). */
  named: string | undefined;
  readonly used: Set<string>;
  /** Nothing typed yet in the current argument except, maybe, the word being completed. */
  atArgumentStart: boolean;
  /** After `name:`: a value comes next, not a parameter name. */
  valuePosition: boolean;
}

interface OtherFrame {
  readonly kind: 'array' | 'object' | 'group';
  atKey: boolean;
}

type Frame = CallFrame | OtherFrame;

type Scan =
  | { readonly kind: 'code'; readonly frames: Frame[] }
  | { readonly kind: 'string'; readonly frames: Frame[]; readonly quote: string; readonly start: number; readonly content: string }
  | { readonly kind: 'comment'; readonly frames: Frame[] };

/** Reads a half-typed program: the open brackets around the end and what is being typed there. */
export function scanContext(text: string): Scan {
  const frames: Frame[] = [];
  const top = (): Frame | undefined => frames[frames.length - 1];
  let lastIdent: string | undefined; // the identifier just before, when it is the last token
  /** Marks that the current argument / element has content. */
  const content = (): void => {
    const f = top();
    if (f?.kind === 'call') f.atArgumentStart = false;
    else if (f?.kind === 'object') f.atKey = false;
  };
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charAt(i);
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '/' && text.charAt(i + 1) === '/') {
      const end = text.indexOf('\n', i);
      if (end < 0) return { kind: 'comment', frames };
      i = end + 1;
      continue;
    }
    if (c === '/' && text.charAt(i + 1) === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) return { kind: 'comment', frames };
      i = end + 2;
      continue;
    }
    const ident = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(text.slice(i, i + 256));
    if (ident !== null) {
      if (i + ident[0].length >= n) break; // the word being typed: the caller takes it from the line
      const f = top();
      // The word is the argument's first token only if nothing else came before it.
      if (f?.kind === 'call' && !f.atArgumentStart) lastIdent = undefined;
      else lastIdent = ident[0];
      if (f?.kind === 'call' && f.atArgumentStart) {
        f.atArgumentStart = false;
      } else content();
      i += ident[0].length;
      // Keep lastIdent only while nothing but whitespace follows, so `name :` and `name (` work.
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      let value = '';
      let closed = false;
      while (j < n) {
        const d = text.charAt(j);
        if (d === c) {
          closed = true;
          break;
        }
        if (c !== '`' && (d === '\n' || d === '\r')) break;
        if (d === '\\' && c !== '`') {
          value += text.charAt(j + 1);
          j += 2;
          continue;
        }
        value += d;
        j++;
      }
      if (!closed && j >= n) return { kind: 'string', frames, quote: c, start: i + 1, content: value };
      content();
      lastIdent = undefined;
      i = j + 1;
      continue;
    }
    const f = top();
    switch (c) {
      case '(':
        if (lastIdent !== undefined) {
          // `name(`: the identifier was this call's callee, not content of the enclosing argument.
          frames.push({ kind: 'call', name: lastIdent, positional: 0, named: undefined, used: new Set(), atArgumentStart: true, valuePosition: false });
        } else {
          content();
          frames.push({ kind: 'group', atKey: false });
        }
        break;
      case '[':
        content();
        frames.push({ kind: 'array', atKey: false });
        break;
      case '{':
        content();
        frames.push({ kind: 'object', atKey: true });
        break;
      case ')':
      case ']':
      case '}':
        frames.pop();
        content();
        break;
      case ',':
        if (f?.kind === 'call') {
          if (f.named === undefined) f.positional++;
          f.named = undefined;
          f.atArgumentStart = true;
          f.valuePosition = false;
        } else if (f?.kind === 'object') f.atKey = true;
        break;
      case ':':
        if (f?.kind === 'call' && lastIdent !== undefined) {
          f.named = lastIdent;
          f.used.add(lastIdent);
          f.atArgumentStart = true; // the value comes next
          f.valuePosition = true; // where only function names are offered, not parameters
        } else if (f?.kind === 'object') f.atKey = false;
        break;
      default:
        content();
    }
    lastIdent = undefined;
    i++;
  }
  return { kind: 'code', frames };
}

/**
 * Lists workspace folders for path completion: confined to the workspace (`Workspace.resolve`),
 * without `.git` and what git ignores there (`.gitignore` files on the way, `.git/info/exclude`),
 * with the same rules the file walk uses (`ide-adapter/walk.ts`).
 */
export function workspaceLister(workspace: Workspace): (dir: string) => readonly DirEntry[] | undefined {
  return (dir) => {
    const rel = dir.replace(/\/+$/, '');
    let abs: string;
    try {
      abs = workspace.resolve(rel === '' ? '.' : rel);
    } catch {
      return undefined; // outside the workspace
    }
    let entries;
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return undefined;
    }
    const base = workspace.relative(abs) === '.' ? '' : workspace.relative(abs);
    const rules = ignoreRulesFor(workspace.root, base);
    const out: DirEntry[] = [];
    for (const e of entries) {
      if (e.name === '.git') continue;
      const directory = e.isDirectory() || (e.isSymbolicLink() && isDirectory(join(abs, e.name)));
      const path = base === '' ? e.name : `${base}/${e.name}`;
      if (isIgnored(rules, path, directory)) continue;
      out.push({ name: e.name, directory });
    }
    return out;
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
