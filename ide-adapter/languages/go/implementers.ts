/**
 * Implementations gopls cannot see, found in the text by method sets: the types of files this
 * machine's build leaves out (fsnotify's `backend` is implemented once per platform, and gopls on
 * Linux reads one file), and the implementations of a generic interface, which this gopls does not
 * relate (golang/go#59224). A type implements an interface when it declares a method of each name
 * with the interface's parameter and result types, the interface's type parameters standing for
 * any one type each (`Push(item T) error` is `Ring[T]`'s `Push(item T) error` and `IntQueue`'s
 * `Push(v int) error`). What the text cannot show is said in the answer's note: methods promoted
 * from embedded types, and interfaces that embed others.
 */
import { dirname } from 'node:path';
import type { Location, Position } from '../../model.js';
import type { ImplementationSources, TextImplementations } from '../../lsp/servers.js';
import { declaresGeneric } from './generics.js';

/** Lines read at most from an interface's declaration to its closing brace, or up from a method to its interface. */
const MAX_INTERFACE_LINES = 400;
/** Method lines read at most in one search. */
const MAX_METHOD_LINES = 2000;
/** Type declaration lines read at most in one search. */
const MAX_TYPE_LINES = 500;
/** An interface with more methods than this is not matched by text (the search's alternation stays small). */
const MAX_INTERFACE_METHODS = 64;
/** A signature longer than this is compared by name only (it is read token by token). */
const MAX_SIGNATURE_CHARS = 1000;

const IDENT = '[\\p{L}_][\\p{L}\\p{N}_]*';
/** `func (r *Ring[T]) Push(item T) error {`: receiver type, method name, the rest. */
const METHOD_LINE = new RegExp(`^func\\s*\\(\\s*(?:${IDENT}\\s+)?\\*?\\s*(${IDENT})\\s*(?:\\[[^\\]]*\\])?\\s*\\)\\s*(${IDENT})\\s*(\\(.*)$`, 'u');
/** `type Name[T any] interface {` or, in a group, `\tName interface {`: name, type parameters, the rest. */
const INTERFACE_LINE = new RegExp(`^(\\s*)(?:type\\s+)?(${IDENT})\\s*(?:\\[([^\\]]*)\\])?\\s*interface\\s*\\{(.*)$`, 'u');
/** A method of an interface body: name and signature. */
const INTERFACE_METHOD = new RegExp(`^(${IDENT})\\s*(\\(.*)$`, 'u');

/** A method's parameter and result types, spaces removed; undefined when the line does not hold it whole. */
interface Signature {
  readonly params: readonly string[];
  readonly results: readonly string[];
}

/** An interface read from its declaration. */
interface InterfaceText {
  readonly name: string;
  /** Its type parameters' names. */
  readonly typeParams: readonly string[];
  /** Its methods, each with its signature when it could be read. */
  readonly methods: ReadonlyMap<string, Signature | undefined>;
  /** Whether it embeds another interface or lists a type set: its method set is not all written here. */
  readonly embeds: boolean;
}

/** The interface asked about: declared on the line, or the one whose method is declared there (`method`). */
interface Asked {
  readonly iface: InterfaceText;
  readonly method?: string;
}

/** The line's text without a trailing `//` comment (outside strings: Go signatures hold none). */
function withoutComment(text: string): string {
  const at = text.indexOf('//');
  return (at < 0 ? text : text.slice(0, at)).trim();
}

/** The index just past the bracket closing the one at `open`, or -1. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') if (--depth === 0) return i + 1;
  }
  return -1;
}

/** Splits at commas outside brackets. */
function topLevelParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(from, i).trim());
      from = i + 1;
    }
  }
  const last = text.slice(from).trim();
  if (last !== '' || parts.length > 0) parts.push(last);
  return parts;
}

/** A parameter list's types (`a, b int, s ...string` → `int,int,...string`), Go's rule: names on all or none. */
function parameterTypes(list: string): string[] {
  const parts = topLevelParts(list).filter((p) => p !== '');
  const named = parts.map((p) => new RegExp(`^(${IDENT})\\s+(\\S.*)$`, 'u').exec(p)).map((m) => (m !== null && m[1] !== 'chan' && m[1] !== 'func' ? m : null));
  if (!named.some((m) => m !== null)) return parts.map((p) => p.replace(/\s+/g, ''));
  const types: string[] = [];
  let next = '';
  for (let i = parts.length - 1; i >= 0; i--) {
    const m = named[i];
    if (m !== null && m !== undefined) next = (m[2] as string).replace(/\s+/g, '');
    types.unshift(next);
  }
  return types;
}

/** The signature that `text` (from a method's opening parenthesis on) writes, or undefined when it is not whole. */
export function readSignature(text: string): Signature | undefined {
  if (text.length > MAX_SIGNATURE_CHARS || !text.startsWith('(')) return undefined;
  const end = closing(text, 0);
  if (end < 0) return undefined;
  const params = parameterTypes(text.slice(1, end - 1));
  // The results run to the body's brace, the end of the line, a comment or the next interface method (`;`).
  const rest = text.slice(end, resultsEnd(text, end)).trim();
  if (rest.startsWith('(')) {
    const close = closing(rest, 0);
    if (close < 0) return undefined;
    return { params, results: parameterTypes(rest.slice(1, close - 1)) };
  }
  const result = rest.replace(/\s+/g, '');
  return { params, results: result === '' ? [] : [result] };
}

/** Where the results that begin at `from` end: a `{` that opens a body (not `struct{`, `interface{`), `;`, `//`, or the end. */
function resultsEnd(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (depth === 0 && (c === ';' || text.startsWith('//', i))) return i;
    else if (c === '{') {
      if (depth === 0 && !/(?:struct|interface)\s*$/.test(text.slice(from, i))) return i;
      const after = closing(text, i);
      if (after < 0) return text.length;
      i = after - 1;
    }
  }
  return text.length;
}

/** Go's tokens of a type: identifiers, `...`, `<-`, and single characters. */
function tokens(type: string): string[] {
  return type.match(new RegExp(`${IDENT}|\\.\\.\\.|<-|\\S`, 'gu')) ?? [];
}

/** The index just past the one type expression starting at token `at` of `t`, or -1. */
function typeEnd(t: readonly string[], at: number): number {
  const tok = t[at];
  if (tok === undefined) return -1;
  const balanced = (from: number): number => {
    let depth = 0;
    for (let i = from; i < t.length; i++) {
      const c = t[i];
      if (c === '(' || c === '[' || c === '{') depth++;
      else if ((c === ')' || c === ']' || c === '}') && --depth === 0) return i + 1;
    }
    return -1;
  };
  if (tok === '*' || tok === '...') return typeEnd(t, at + 1);
  if (tok === '[') {
    const after = balanced(at);
    return after < 0 ? -1 : typeEnd(t, after);
  }
  if (tok === 'map') {
    const after = balanced(at + 1);
    return after < 0 ? -1 : typeEnd(t, after);
  }
  if (tok === '<-') return typeEnd(t, at + 2);
  if (tok === 'chan') return typeEnd(t, t[at + 1] === '<-' ? at + 2 : at + 1);
  if (tok === 'struct' || tok === 'interface') return balanced(at + 1);
  if (tok === 'func') {
    const after = balanced(at + 1);
    if (after < 0 || after >= t.length) return after;
    if (t[after] === '(') return balanced(after);
    const result = typeEnd(t, after);
    return result < 0 ? after : result;
  }
  if (!new RegExp(`^${IDENT}$`, 'u').test(tok)) return -1;
  let end = at + 1;
  if (t[end] === '.' && t[end + 1] !== undefined) end += 2;
  if (t[end] === '[') end = balanced(end);
  return end;
}

/**
 * Whether the candidate's type `actual` is the interface's `wanted` with its type parameters
 * (bound so far in `bound`) standing for any one type each; binds the new ones.
 */
function unify(wanted: string, actual: string, typeParams: ReadonlySet<string>, bound: Map<string, string>): boolean {
  const w = tokens(wanted);
  const a = tokens(actual);
  let j = 0;
  for (const tok of w) {
    if (!typeParams.has(tok)) {
      if (a[j++] !== tok) return false;
      continue;
    }
    const end = typeEnd(a, j);
    if (end < 0) return false;
    const text = a.slice(j, end).join(' ');
    const known = bound.get(tok);
    if (known !== undefined && known !== text) return false;
    bound.set(tok, text);
    j = end;
  }
  return j === a.length;
}

/** Whether a method's signature is the interface method's (unknown on either side: by name only). */
function sameSignature(wanted: Signature | undefined, actual: Signature | undefined, typeParams: ReadonlySet<string>, bound: Map<string, string>): boolean {
  if (wanted === undefined || actual === undefined) return true;
  if (wanted.params.length !== actual.params.length || wanted.results.length !== actual.results.length) return false;
  const pairs = [...wanted.params.map((p, i) => [p, actual.params[i]]), ...wanted.results.map((r, i) => [r, actual.results[i]])];
  return pairs.every(([w, x]) => unify(w as string, x as string, typeParams, bound));
}

/** The interface declared on `line` (1-based) of `lines`, or undefined. */
function interfaceDeclaredAt(lines: readonly string[], line: number): InterfaceText | undefined {
  const m = INTERFACE_LINE.exec(lines[line - 1] ?? '');
  if (m === null) return undefined;
  const indent = m[1] as string;
  const typeParams = topLevelParts(m[3] ?? '').map((p) => p.trim().split(/\s+/)[0] ?? '').filter((p) => p !== '');
  // Type parameters sharing a constraint (`[K, V any]`) are named before it.
  let entries: string[];
  const rest = m[4] as string;
  const closeOnLine = closing(`{${rest}`, 0);
  if (closeOnLine >= 0) entries = rest.slice(0, closeOnLine - 2).split(';');
  else {
    entries = [rest];
    const end = new RegExp(`^${indent}\\}`);
    let i = line;
    for (; i < Math.min(lines.length, line + MAX_INTERFACE_LINES) && !end.test(lines[i] ?? ''); i++) entries.push(...(lines[i] as string).split(';'));
    if (i >= lines.length || !end.test(lines[i] ?? '')) return undefined;
  }
  const methods = new Map<string, Signature | undefined>();
  let embeds = false;
  for (const raw of entries) {
    const entry = withoutComment(raw);
    if (entry === '') continue;
    const method = INTERFACE_METHOD.exec(entry);
    if (method === null) embeds = true;
    else methods.set(method[1] as string, readSignature(method[2] as string));
  }
  return { name: m[2] as string, typeParams, methods, embeds };
}

/** The interface asked about at `line` and `column` (1-based): declared there, or the interface declaring the method there. */
function askedAt(lines: readonly string[], line: number, column: number): Asked | undefined {
  const declared = interfaceDeclaredAt(lines, line);
  if (declared !== undefined) {
    // A one-line interface (`interface{ Close() error }`): a method's name is asked after its brace.
    const text = lines[line - 1] ?? '';
    const brace = text.indexOf('{');
    const word = new RegExp(`${IDENT}`, 'uy');
    const index = [...text].slice(0, column - 1).join('').length;
    word.lastIndex = index;
    const name = word.exec(text)?.[0];
    return brace >= 0 && index > brace && name !== undefined && declared.methods.has(name) ? { iface: declared, method: name } : { iface: declared };
  }
  const method = INTERFACE_METHOD.exec(withoutComment(lines[line - 1] ?? ''));
  if (method === null || !/^\s/.test(lines[line - 1] ?? '')) return undefined;
  for (let i = line - 1; i >= Math.max(1, line - MAX_INTERFACE_LINES); i--) {
    const iface = interfaceDeclaredAt(lines, i);
    if (iface !== undefined) return iface.methods.has(method[1] as string) ? { iface, method: method[1] as string } : undefined;
    if (/^\S/.test(lines[i - 1] ?? '') && !/^type\s*\(/.test(lines[i - 1] ?? '')) return undefined;
  }
  return undefined;
}

/** A type's methods found in the text, by name: the method's place and signature. */
type MethodSet = Map<string, { readonly at: Location; readonly signature: Signature | undefined }>;

/**
 * The Go `textImplementations` hook: the implementations gopls cannot see of the interface (or
 * interface method) declared at `at` in `path` — types declared in files the build leaves out
 * here, and, when gopls found none for a generic interface, every type of the workspace.
 */
export async function goTextImplementations(asked: { readonly path: string; readonly at: Position; readonly found: readonly Location[] }, sources: ImplementationSources): Promise<TextImplementations> {
  const lines = await sources.lines(asked.path);
  const target = askedAt(lines, asked.at.line, asked.at.column);
  if (target === undefined) return { locations: [] };
  const { iface, method } = target;
  const generic = asked.found.length === 0 && declaresGeneric(lines, asked.at.line);
  const unbuilt = await sources.unbuilt();
  if (!generic && (unbuilt === undefined || unbuilt.size === 0)) return { locations: [] };
  const where = generic ? 'finds no implementations of generic interfaces (golang/go#59224): they' : "reads no files this machine's build leaves out: implementations there";
  if (iface.embeds || iface.methods.size === 0 || iface.methods.size > MAX_INTERFACE_METHODS) {
    const why = iface.embeds ? `${iface.name} embeds another interface` : `${iface.name} has ${iface.methods.size} methods`;
    return { locations: [], note: `${where} are not looked for in the text (${why})` };
  }
  // Every method line of the interface's method names, grouped by package folder and receiver type.
  const names = [...iface.methods.keys()];
  const methodLines = await sources.search(`^func\\s*\\([^)]*\\)\\s*(${names.join('|')})\\s*\\(`, MAX_METHOD_LINES);
  const types = new Map<string, { readonly folder: string; readonly type: string; readonly methods: MethodSet }>();
  for (const at of methodLines.matches) {
    const m = METHOD_LINE.exec(at.content);
    if (m === null) continue;
    const [type, name, rest] = [m[1] as string, m[2] as string, m[3] as string];
    const key = `${dirname(at.path)}\0${type}`;
    const entry = types.get(key) ?? { folder: dirname(at.path), type, methods: new Map() };
    types.set(key, entry);
    const nameIndex = at.content.slice(0, at.content.length - rest.length).trimEnd().length - name.length;
    const column = [...at.content.slice(0, nameIndex)].length + 1;
    entry.methods.set(name, { at: { ...at, start: { line: at.start.line, column }, end: { line: at.start.line, column: column + [...name].length } }, signature: readSignature(rest) });
  }
  const typeParams = new Set(iface.typeParams);
  const exported = (n: string): boolean => /^\p{Lu}/u.test(n);
  const askedFolder = dirname(asked.path);
  const implementing = [...types.values()].filter(({ folder, methods }) => {
    // An unexported method can only be implemented in its own package.
    if (!names.every((n) => exported(n)) && folder !== askedFolder) return false;
    const bound = new Map<string, string>();
    return names.every((n) => methods.has(n) && sameSignature(iface.methods.get(n), methods.get(n)?.signature, typeParams, bound));
  });
  if (implementing.length === 0) return generic ? { locations: [], note: foundNote(where, methodLines.cut) } : { locations: [] };
  // Where each implementing type is declared.
  const typeNames = [...new Set(implementing.map((t) => t.type))];
  const declarations = await sources.search(`^(type\\s+(${typeNames.join('|')})\\b|\\s+(${typeNames.join('|')})(\\[[^\\]]*\\])?\\s+(struct|interface)\\b)`, MAX_TYPE_LINES);
  const known = new Set(asked.found.map((l) => `${l.path}:${l.start.line}`));
  const out: Location[] = [];
  for (const t of implementing) {
    const declared = declarations.matches.find((d) => dirname(d.path) === t.folder && new RegExp(`^(?:type\\s+|\\s+)${t.type}\\b`, 'u').test(d.content));
    if (declared === undefined) continue;
    // Outside a generic answer, only what gopls cannot read: a type declared in a file it leaves out.
    if (!generic && unbuilt?.has(declared.path) !== true) continue;
    const at = method !== undefined ? t.methods.get(method)?.at : nameAt(declared, t.type);
    if (at !== undefined && !known.has(`${at.path}:${at.start.line}`)) out.push(at);
  }
  return { locations: out, ...(out.length > 0 || generic ? { note: foundNote(where, methodLines.cut || declarations.cut) } : {}) };
}

/** A declaration line's location moved onto `name`. */
function nameAt(line: Location, name: string): Location {
  const index = new RegExp(`\\b${name}\\b`, 'u').exec(line.content)?.index ?? 0;
  const column = [...line.content.slice(0, index)].length + 1;
  return { ...line, start: { line: line.start.line, column }, end: { line: line.start.line, column: column + [...name].length } };
}

/** The answer's one line: how these implementations were found, and what that cannot see. */
function foundNote(where: string, cut: boolean): string {
  const missing = cut ? 'the search was cut at its bound, so some may be missing' : 'methods promoted from embedded types are not seen';
  return `${where} are matched by method names and signatures in the text (${missing})`;
}
