/**
 * CST → AST. Walks the concrete syntax tree Chevrotain built from the pure grammar and produces
 * the span-carrying AST, plus the few diagnostics that are about meaning rather than syntax
 * (a positional argument after a named one, a named argument given twice).
 *
 * The walk reads `children` directly instead of going through Chevrotain's reflective visitor
 * class: same shape, no per-node dispatch overhead (it matters on megabyte-sized JSON).
 */
import type { CstNode, IToken } from 'chevrotain';
import type { CallExpr, Expr, NamedArgument, Property } from './ast.js';
import type { Span } from './source.js';
import { SyntaxCode, type Diagnostic } from './diagnostics.js';
import { bareIdentifierDiagnostic } from './syntax-errors.js';
import { Identifier, StringLiteral, type DialectToken, type LiteralToken } from './tokens.js';

type Children = Record<string, (CstNode | IToken)[] | undefined>;
type Item = CstNode | DialectToken;

const EMPTY: readonly Item[] = [];
const items = (children: Children, label: string): readonly Item[] => (children[label] as Item[] | undefined) ?? EMPTY;
const token = (children: Children, label: string): DialectToken => (children[label] as DialectToken[])[0] as DialectToken;

/** A property whose key is read from its token on demand (one allocation per property, not three). */
class TokenProperty implements Property {
  constructor(
    private readonly keyToken: DialectToken,
    readonly value: Expr,
  ) {}

  get key(): string {
    return this.keyToken.tokenType === StringLiteral ? (this.keyToken.payload as string) : this.keyToken.image;
  }

  get keySpan(): Span {
    return { start: this.keyToken.startOffset, end: this.keyToken.endOffset + 1 };
  }

  toJSON(): Property {
    return { key: this.key, keySpan: this.keySpan, value: this.value };
  }
}

/** What the conversion needs besides the tree: where to report, and which bare names are bound. */
interface Context {
  readonly diagnostics: Diagnostic[];
  readonly names: ReadonlySet<string>;
}

/**
 * Converts a `program` CST node; semantic diagnostics are appended to `diagnostics`. Bare names
 * are accepted only if they are in `names` (the host's bindings, such as the REPL's `_`).
 */
export function programToAst(program: CstNode, diagnostics: Diagnostic[], names: ReadonlySet<string> = new Set()): Expr {
  return value(items(program.children, 'value')[0] as Item, { diagnostics, names });
}

function value(item: Item, ctx: Context): Expr {
  if ('tokenType' in item) {
    if (item.tokenType !== Identifier) return item as LiteralToken; // literal tokens are their own AST nodes
    const span = { start: item.startOffset, end: item.endOffset + 1 };
    if (!ctx.names.has(item.image)) ctx.diagnostics.push(bareIdentifierDiagnostic(item.image, span));
    return { kind: 'reference', name: item.image, span };
  }
  const c = item.children as Children;
  switch (item.name) {
    case 'array': {
      const elements = items(c, 'value').map((e) => value(e, ctx));
      return { kind: 'array', elements, span: { start: token(c, 'LBracket').startOffset, end: token(c, 'RBracket').endOffset + 1 } };
    }
    case 'object': {
      const keys = items(c, 'key') as readonly DialectToken[];
      const values = items(c, 'value');
      const properties: Property[] = new Array<Property>(keys.length);
      for (let i = 0; i < keys.length; i++) properties[i] = new TokenProperty(keys[i] as DialectToken, value(values[i] as Item, ctx));
      return { kind: 'object', properties, span: { start: token(c, 'LBrace').startOffset, end: token(c, 'RBrace').endOffset + 1 } };
    }
    default:
      return call(c, ctx);
  }
}

function call(c: Children, ctx: Context): CallExpr {
  const { diagnostics } = ctx;
  const callee = token(c, 'callee');
  const args: Expr[] = [];
  const namedArgs: NamedArgument[] = [];
  // The first of each name, for the duplicate check: a map, so a call of many arguments stays linear.
  const firstByName = new Map<string, NamedArgument>();
  for (const a of items(c, 'argument') as readonly CstNode[]) {
    const ac = a.children as Children;
    const argValue = value(items(ac, 'value')[0] as Item, ctx);
    const nameToken = (ac['name'] as DialectToken[] | undefined)?.[0];
    if (nameToken !== undefined) {
      const arg: NamedArgument = { name: nameToken.image, nameSpan: { start: nameToken.startOffset, end: nameToken.endOffset + 1 }, value: argValue };
      const earlier = firstByName.get(arg.name);
      if (earlier === undefined) firstByName.set(arg.name, arg);
      else {
        diagnostics.push({
          code: SyntaxCode.DuplicateNamedArgument,
          severity: 'error',
          message: `the named argument \`${arg.name}\` is given twice in the call to \`${callee.image}\``,
          span: arg.nameSpan,
          label: 'given again here',
          labels: [{ span: earlier.nameSpan, message: 'first given here' }],
          hint: `keep one \`${arg.name}: …\``,
        });
      }
      namedArgs.push(arg);
      continue;
    }
    const lastNamed = namedArgs[namedArgs.length - 1];
    if (lastNamed !== undefined) {
      diagnostics.push({
        code: SyntaxCode.PositionalAfterNamed,
        severity: 'error',
        message: `a positional argument follows the named argument \`${lastNamed.name}\``,
        span: argValue.span,
        label: 'positional argument',
        labels: [{ span: lastNamed.nameSpan, message: 'named argument' }],
        hint: `put positional arguments first: ${callee.image}(…positional, ${lastNamed.name}: …)`,
      });
    }
    args.push(argValue);
  }
  return {
    kind: 'call',
    callee: callee.image,
    calleeSpan: { start: callee.startOffset, end: callee.endOffset + 1 },
    args,
    namedArgs,
    span: { start: callee.startOffset, end: token(c, 'RParen').endOffset + 1 },
  };
}

