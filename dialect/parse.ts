/**
 * `parse(text)`: the one entry point from Dialect source to an AST. Never throws on user input;
 * returns either the AST or the diagnostics that explain why there is none.
 */
import type { CstNode, IRecognitionException } from 'chevrotain';
import type { Expr } from './ast.js';
import { programToAst } from './cst-to-ast.js';
import { SyntaxCode, type Diagnostic } from './diagnostics.js';
import { grammar } from './grammar.js';
import { lex } from './lexer.js';
import { SourceText } from './source.js';
import { explainSyntaxError } from './syntax-errors.js';
import { LBrace, LBracket, LParen, RBrace, RBracket, RParen, type DialectToken } from './tokens.js';

/**
 * How deeply brackets may nest. The parser, the evaluator and the printer are recursive; this
 * bound keeps them far from the JavaScript stack limit (the parser alone manages about 3,000
 * levels on Node's default stack) while being far beyond what any real program or JSON document needs.
 */
export const MAX_NESTING_DEPTH = 256;

/** An AST, or the diagnostics that explain why the text is not a program. */
export type ParseResult =
  | { readonly ok: true; readonly ast: Expr; readonly source: SourceText; readonly diagnostics: readonly [] }
  | { readonly ok: false; readonly ast?: undefined; readonly source: SourceText; readonly diagnostics: readonly Diagnostic[] };

/** Options of {@link parse}. */
export interface ParseOptions {
  /** Bare names the host binds (for example the REPL's `_`); any other bare name is an error. */
  readonly names?: ReadonlySet<string>;
}

/** Parses a Dialect program. */
export function parse(text: string, options: ParseOptions = {}): ParseResult {
  const source = new SourceText(text);
  const fail = (diagnostics: readonly Diagnostic[]): ParseResult => ({ ok: false, source, diagnostics });

  const { tokens, diagnostics: lexical } = lex(text, { shareSeparators: true });
  if (lexical.length > 0) return fail(lexical);

  const tooDeep = checkNesting(tokens);
  if (tooDeep !== undefined) return fail([tooDeep]);

  const cst = runParser(tokens);
  if (cst === undefined) {
    // The fast token stream cannot locate errors: lex again with every token placed, and explain.
    const precise = lex(text).tokens;
    return fail([explainFailure(text, precise)]);
  }
  const semantic: Diagnostic[] = [];
  const ast = programToAst(cst, semantic, options.names);
  if (semantic.length > 0) return fail(semantic);
  return { ok: true, ast, source, diagnostics: [] };
}

/** Runs the shared parser; undefined when the tokens do not form a program. */
function runParser(tokens: DialectToken[]): CstNode | undefined {
  const parser = grammar();
  parser.input = tokens;
  try {
    const cst = parser.program();
    return parser.errors.length === 0 ? cst : undefined;
  } catch (error) {
    // Only a stack overflow can get here, and the nesting bound prevents it; fail, never crash.
    if (error instanceof RangeError) return undefined;
    throw error;
  } finally {
    // Release a large token array held by the shared instance (small ones are simply replaced
    // by the next parse; resetting costs as much as parsing a short program).
    if (tokens.length > 4096) parser.input = [];
  }
}

function explainFailure(text: string, tokens: DialectToken[]): Diagnostic {
  const parser = grammar();
  parser.input = tokens;
  try {
    parser.program();
  } catch (error) {
    if (error instanceof RangeError) return nestingDiagnostic(tokens[0] as DialectToken, 'the program is nested too deeply to parse');
    throw error;
  }
  const error = parser.errors[0];
  parser.input = [];
  if (error === undefined) return nestingDiagnostic(tokens[0] as DialectToken, 'the program could not be parsed');
  return explainSyntaxError({ text, tokens, index: errorIndex(tokens, error) });
}

function errorIndex(tokens: readonly DialectToken[], error: IRecognitionException): number {
  const offset = error.token.startOffset;
  if (!Number.isFinite(offset)) return tokens.length; // Chevrotain's EOF token
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((tokens[mid] as DialectToken).startOffset < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function checkNesting(tokens: readonly DialectToken[]): Diagnostic | undefined {
  let depth = 0;
  for (const t of tokens) {
    const type = t.tokenType;
    if (type === LParen || type === LBracket || type === LBrace) {
      if (++depth > MAX_NESTING_DEPTH) return nestingDiagnostic(t, `brackets are nested more than ${MAX_NESTING_DEPTH} levels deep`);
    } else if (type === RParen || type === RBracket || type === RBrace) depth = Math.max(0, depth - 1);
  }
  return undefined;
}

function nestingDiagnostic(at: DialectToken, message: string): Diagnostic {
  return {
    code: SyntaxCode.TooDeep,
    severity: 'error',
    message,
    span: { start: at.startOffset, end: at.endOffset + 1 },
    label: 'too deep from here on',
    hint: `Dialect accepts up to ${MAX_NESTING_DEPTH} levels of nesting; flatten the data or split the program`,
  };
}
