/**
 * Go's names and kinds as Go programmers write them. gopls folds the receiver into a method's
 * name (`Mux.Get` in `workspace/symbol`, `(*Mux).Get` and `(Fixed).Get` in outlines) and calls a
 * method a function in call hierarchies; qualified names are `pkg.Func` and `Type.Method`
 * (`pkg.Type.Method`), where `pkg` is the package clause's name or a folder of its import path.
 */
import type { ModulePathOf, ModuleSegment } from '../../lsp/module-paths.js';
import type { KindWord, LspKindName } from '../../kinds.js';
import { escapeRegExp } from '../../regexp-text.js';

/** LSP kinds of members: their name carries the owner (`Mux.Get`, `MemStore.values`). */
const MEMBER_KINDS = new Set(['method', 'field', 'property']);

/**
 * `(*Mux).Get`, `(Fixed).Get`, `Mux.Get`, `(*List[T]).Push` → the name and its receiver type (a
 * bare `Get` takes it from its `func (m *Mux) Get(` line); a function or type (`Copy`,
 * `store.Copy`) has no owner (gopls's container is the import path).
 */
export function goSymbolName(raw: string, lspKind: string, declarationLine = ''): { name: string; owner?: string } {
  // Type parameters of a generic receiver are no part of its name.
  const plain = withoutBracketGroups(raw);
  const receiver = /^\(\*?\s*([^()]+)\)\.(.+)$/.exec(plain);
  if (receiver !== null) return { name: receiver[2] as string, owner: lastSegment(receiver[1] as string) };
  const parts = plain.split('.');
  const name = parts.pop() as string;
  if (parts.length > 0 && MEMBER_KINDS.has(lspKind)) return { name, owner: parts.pop() };
  // A call hierarchy names a method bare: its `func (c *Command) Name(` line has the receiver.
  const declared = declaredReceiver(declarationLine);
  if (declared !== undefined && declared.method === name) return { name, owner: declared.receiver };
  return { name };
}

/** The longest receiver, `(c *Command[T])`, a method's line is read for: a fixed length, so no pattern rescans a long line. */
const MAX_RECEIVER_CHARS = 512;

/**
 * `func (c *Command) Name(` → the receiver's type and the method's name. The receiver is read
 * within its parentheses only, at most {@link MAX_RECEIVER_CHARS}: one pattern over the whole line
 * (`[A-Za-z_]\w*[^)]*`, neighbouring `\s*`) was quadratic in a long line without `)`.
 */
function declaredReceiver(line: string): { readonly receiver: string; readonly method: string } | undefined {
  const head = new RegExp(`^\\s*func\\s*\\(([^)]{0,${MAX_RECEIVER_CHARS}})\\)\\s*([A-Za-z_]\\w*)`).exec(line);
  if (head === null) return undefined;
  const receiver = /^\s*(?:[A-Za-z_]\w*\s+)?\*?\s*([A-Za-z_]\w*)/.exec(head[1] as string);
  return receiver === null ? undefined : { receiver: receiver[1] as string, method: head[2] as string };
}

/**
 * `raw` without its `[…]` groups (type parameters: `(*List[T]).Push`), each from a `[` to the
 * next `]`; a `[` with no `]` after it stays. What `/\[[^\]]*\]/g` removes, in one pass: that
 * pattern scanned to the end from every `[` of a name with no `]`.
 */
function withoutBracketGroups(raw: string): string {
  if (!raw.includes('[')) return raw;
  let out = '';
  let at = 0;
  for (;;) {
    const open = raw.indexOf('[', at);
    const close = open < 0 ? -1 : raw.indexOf(']', open + 1);
    if (close < 0) return out + raw.slice(at);
    out += raw.slice(at, open);
    at = close + 1;
  }
}

/**
 * Whether a struct field is embedded: its line is its type alone (`Base`, `*Base`, `pkg.Base`,
 * `*pkg.Base[T]`), a tag or comment after it; gopls names such a field after the type.
 */
export function goEmbeddedField(lspKind: string, declarationLine: string, name: string): boolean {
  if (lspKind !== 'field') return false;
  // No two space runs are adjacent (each `\s*` has its own spaces): linear on any line.
  return new RegExp(`^\\s*(?:\\*\\s*)?(?:[A-Za-z_]\\w*\\.)?${escapeRegExp(name)}(?:\\[[^\\]]*\\])?\\s*(?:(?:\`[^\`]*\`|"(?:[^"\\\\]|\\\\.)*")\\s*)?(?://.*)?$`).test(declarationLine);
}

function lastSegment(type: string): string {
  return type.trim().split('.').pop() as string;
}

/**
 * Kinds in Go's words: `function` and `method` (gopls calls a method a function in call
 * hierarchies: its `func (r T)` line says which), `struct`, `interface`, `type` for other defined
 * types (gopls names them by their underlying type: `number`, `array`, `class`…), `type alias`,
 * `constant`, `variable`, `field`, `package`.
 */
export function goKind(lspKind: LspKindName, declarationLine: string, name: string): KindWord | undefined {
  switch (lspKind) {
    case 'function':
    case 'method':
      // A function literal (a call hierarchy's caller inside `t.Run("…", func(…) {…})`): gopls names it `func()`.
      if (name.startsWith('func(')) return 'function literal';
      if (declaresType(declarationLine, name)) return 'type'; // `type PositionalArgs func(…)`
      // `func (r T) Name(` declares a method, `func Name(` a function; an interface's method has no `func`.
      return /^\s*func\s*\(/.test(declarationLine) || !/^\s*func\b/.test(declarationLine) ? 'method' : 'function';
    case 'struct':
    case 'interface':
    case 'field':
    case 'constant':
    case 'variable':
      return lspKind;
    case 'module':
    case 'namespace':
    case 'package':
      return 'package';
    default: {
      // A defined type, named by gopls after its underlying type (`type Celsius float64` is a `number`).
      const spec = typeSpec(declarationLine, name);
      if (spec === null || !/^\s*type\b|^\s/.test(declarationLine)) return undefined;
      return spec[1] === '=' ? 'type alias' : 'type';
    }
  }
}

/** `type Name …` or, in a `type (…)` group, `Name …`; group 1 is `=` for an alias. */
function typeSpec(line: string, name: string): RegExpExecArray | null {
  return new RegExp(`^\\s*(?:type\\s+)?${escapeRegExp(name)}(?:\\[[^\\]]*\\])?\\s*(=)?`).exec(line);
}

/** Whether the line is `type Name …` itself. */
function declaresType(line: string, name: string): boolean {
  return new RegExp(`^\\s*type\\s+${escapeRegExp(name)}\\b`).test(line);
}

/** How far into a file its `package` clause is looked for (after the file's doc comment and build tags). */
const PACKAGE_CLAUSE_LINES = 400;

/**
 * A Go file's module path: its folders (the import path below the module), the last one also
 * named by the package clause (`cmd/goapp/main.go` → cmd, goapp|main), so `store.Copy` and
 * `main.run` both qualify. A file in the root is its package.
 */
export const goModulePath: ModulePathOf = async (path, readLines) => {
  const folders = path.split('/').slice(0, -1);
  const lines = await readLines(path).catch(() => [] as readonly string[]);
  let pkg: string | undefined;
  for (const line of lines.slice(0, PACKAGE_CLAUSE_LINES)) {
    const m = /^\s*package\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(line);
    if (m !== null) {
      pkg = m[1];
      break;
    }
  }
  const segments: ModuleSegment[] = folders.map((f) => [f]);
  if (pkg === undefined) return segments;
  const last = segments.pop();
  segments.push(last === undefined ? [pkg] : [...new Set([...last, pkg])]);
  return segments;
};
