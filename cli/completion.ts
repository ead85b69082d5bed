/**
 * Tab completion for the REPL: function names (listing their signatures when several match),
 * named parameters inside a call (`file: `), workspace paths inside a string argument whose
 * parameter is a path, and the REPL's dot commands.
 *
 * `complete` is pure: it reads the text before the cursor with the language's own scanner in its
 * tolerant mode (`lexPrefix`: the tokens and the brackets open at the cursor; the parser needs whole
 * programs) and asks `listDir` for paths.
 */
import {
  CLOSING_BRACKETS, Colon, Comma, Dot, Identifier, LBrace, LBracket, LParen, OPENING_BRACKETS, keywordTokenTypes, lexPrefix,
  type DialectToken, type ParameterDefinition,
} from '../dialect/index.js';
import { DialectError, EvalCode } from '../dialect/index.js';
import { withoutTrailingSlashes } from '../ide-adapter/confine.js';
import { runFileJob } from '../ide-adapter/file-jobs.js';
import type { Workspace } from '../ide-adapter/index.js';

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

/** One entry of a workspace folder, as path completion lists it. */
export interface DirEntry {
  readonly name: string;
  readonly directory: boolean;
}

/** Everything completion reads besides the typed text: the functions, the folders, the dot commands. */
export interface CompletionSource {
  readonly registry: CompletionRegistry;
  /** The entries of a workspace folder (`""` for the root, else ending in `/`); undefined when it cannot be read. */
  listDir(dir: string): Promise<readonly DirEntry[] | undefined> | readonly DirEntry[] | undefined;
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
export async function complete(before: string, source: CompletionSource): Promise<Completion> {
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

  const { tokens, open, end } = lexPrefix(before);
  if (end === 'comment') return NONE();
  const last = tokens[tokens.length - 1];
  // The token the cursor cuts, if any: an unclosed string, or the word being typed.
  const string = end === 'string' ? last : undefined;
  const word = string === undefined && last !== undefined && last.endOffset === before.length - 1 && isWord(last) ? last : undefined;
  const frame = innermostFrame(tokens, open, string !== undefined || word !== undefined ? tokens.length - 1 : tokens.length);

  if (string !== undefined) {
    // Only a string begun on this line: readline replaces text of the current line.
    if (frame?.kind !== 'call' || string.startOffset < before.length - line.length) return NONE();
    const typed = before.slice(string.startOffset + 1); // as written, escapes included: what readline replaces
    const parameter = parameterAt(source.registry, frame);
    if (parameter === undefined || !PATH_PARAMETER.test(parameter.name)) return NONE(typed);
    return completePath(String(string.payload), typed, before.charAt(string.startOffset), source);
  }

  const prefix = word?.image ?? '';
  const parameterPosition = frame?.kind === 'call' && frame.atArgumentStart && !frame.valuePosition;
  if (prefix === '' && !parameterPosition) return NONE();
  const previous = tokens[tokens.length - 2];
  if (word !== undefined && previous?.tokenType === Dot && previous.endOffset === word.startOffset - 1) return NONE(); // `x.fi`: no member access
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

/** Paths completing `content` (the string's decoded text so far), replacing `typed` (its text as written). */
async function completePath(content: string, typed: string, quote: string, source: CompletionSource): Promise<Completion> {
  const slash = content.lastIndexOf('/');
  const dir = content.slice(0, slash + 1);
  const base = content.slice(slash + 1);
  const entries = await source.listDir(dir);
  if (entries === undefined) return NONE(typed);
  const matches = entries
    .filter((e) => e.name.startsWith(base) && (base.startsWith('.') || !e.name.startsWith('.')))
    .map((e) => ({ path: `${dir}${e.name}${e.directory ? '/' : ''}`, directory: e.directory }))
    .sort((a, b) => a.path.localeCompare(b.path));
  if (matches.length === 1) {
    const only = matches[0] as { path: string; directory: boolean };
    return { items: [only.directory ? only.path : `${only.path}${quote}`], replace: typed };
  }
  return { items: matches.map((m) => m.path), replace: typed };
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

/** The innermost open call: what its current argument binds to and what was typed in it. */
interface CallFrame {
  readonly kind: 'call';
  readonly name: string;
  /** Positional arguments before the current one. */
  readonly positional: number;
  /** The current argument's name when it is a named one (`file: …`). */
  readonly named: string | undefined;
  readonly used: ReadonlySet<string>;
  /** Nothing typed yet in the current argument except, maybe, the word being completed. */
  readonly atArgumentStart: boolean;
  /** After `name:`: a value comes next, not a parameter name. */
  readonly valuePosition: boolean;
}

/** The innermost open array, object or parenthesised group. */
interface OtherFrame {
  readonly kind: 'array' | 'object' | 'group';
  /** Nothing typed yet in the current element (for an object: where a key goes). */
  readonly atKey: boolean;
}

type Frame = CallFrame | OtherFrame;

/** A token the cursor may be completing as a name: an identifier, or a keyword (`true`, `null`: a name being typed). */
const isWord = (token: DialectToken): boolean => token.tokenType === Identifier || keywordTokenTypes.has(token.image);

/**
 * The innermost bracket open at the cursor, read from the tokens after it up to `end` (the token
 * being completed is left out): a call's argument position, or whether an element has begun.
 */
function innermostFrame(tokens: readonly DialectToken[], open: readonly number[], end: number): Frame | undefined {
  const at = open[open.length - 1];
  if (at === undefined) return undefined;
  const opener = tokens[at] as DialectToken;
  const callee = tokens[at - 1];
  const isCall = opener.tokenType === LParen && callee !== undefined && callee.tokenType === Identifier;
  let positional = 0;
  let named: string | undefined;
  const used = new Set<string>();
  let valuePosition = false;
  let first: DialectToken | undefined; // the current element's first token
  let count = 0; // tokens of the current element at this level
  let depth = 0; // brackets opened and closed again inside the current element
  for (let k = at + 1; k < end; k++) {
    const token = tokens[k] as DialectToken;
    const type = token.tokenType;
    if (depth > 0) {
      if (OPENING_BRACKETS.has(type)) depth++;
      else if (CLOSING_BRACKETS.has(type)) depth--;
      continue;
    }
    if (type === Comma) {
      if (named === undefined) positional++;
      named = undefined;
      valuePosition = false;
      count = 0;
    } else if (type === Colon && isCall && count === 1 && first?.tokenType === Identifier) {
      named = first.image;
      used.add(named);
      valuePosition = true; // where only function names are offered, not parameters
      count = 0; // the value comes next
    } else {
      if (count === 0) first = token;
      count++;
      if (OPENING_BRACKETS.has(type)) depth++;
    }
  }
  if (isCall) return { kind: 'call', name: callee.image, positional, named, used, atArgumentStart: count === 0, valuePosition };
  const kind = opener.tokenType === LBracket ? 'array' : opener.tokenType === LBrace ? 'object' : 'group';
  return { kind, atKey: count === 0 };
}

/** Listing one folder for completion stops after this long (a Tab must answer promptly). */
export const COMPLETION_LIST_BUDGET_MS = 2_000;

/**
 * Lists workspace folders for path completion: confined to the workspace (`Workspace.resolve`),
 * without `.git` and what git ignores there (`.gitignore` files on the way, `.git/info/exclude`),
 * with the same rules the file walk uses. The rules are the workspace's patterns, so they are
 * matched in the file worker under {@link COMPLETION_LIST_BUDGET_MS}; past it, nothing is offered.
 */
export function workspaceLister(workspace: Workspace): (dir: string) => Promise<readonly DirEntry[] | undefined> {
  return async (dir) => {
    const rel = withoutTrailingSlashes(dir);
    let abs: string;
    try {
      abs = workspace.resolve(rel === '' ? '.' : rel);
    } catch {
      return undefined; // outside the workspace
    }
    const base = workspace.relative(abs) === '.' ? '' : workspace.relative(abs);
    const overrun = (stopped: string): DialectError => new DialectError({ code: EvalCode.DeadlineExceeded, message: `listing ${base || 'the workspace'} for completion ${stopped}` });
    try {
      return await runFileJob({ kind: 'list', root: workspace.root, dir: base }, { timeoutMs: COMPLETION_LIST_BUDGET_MS, overrun });
    } catch {
      return undefined; // too slow (hostile .gitignore rules) or unreadable: no completion
    }
  };
}
