/**
 * Token types of the Dialect language.
 *
 * The token types are Chevrotain token types so the Chevrotain parser can consume them, but the
 * tokens themselves come from the hand-written scanner in `lexer.ts` (Chevrotain supports custom
 * lexers): it is several times faster than a regex lexer and never fails, so every lexical problem
 * becomes a precise diagnostic instead of an exception or a quadratic rescan.
 */
import { createToken, Lexer, type IToken, type TokenType } from 'chevrotain';

const token = (name: string, label?: string): TokenType =>
  createToken({ name, pattern: Lexer.NA, ...(label !== undefined ? { label } : {}) });

/** The token of `{`. */
export const LBrace = token('LBrace', "'{'");
/** The token of `}`. */
export const RBrace = token('RBrace', "'}'");
/** The token of `[`. */
export const LBracket = token('LBracket', "'['");
/** The token of `]`. */
export const RBracket = token('RBracket', "']'");
/** The token of `(`. */
export const LParen = token('LParen', "'('");
/** The token of `)`. */
export const RParen = token('RParen', "')'");
/** The token of `,`. */
export const Comma = token('Comma', "','");
/** The token of `:`. */
export const Colon = token('Colon', "':'");
/** The token of a string literal. */
export const StringLiteral = token('String');
/** The token of a number literal. */
export const NumberLiteral = token('Number');
/** The token of `true`. */
export const True = token('True', "'true'");
/** The token of `false`. */
export const False = token('False', "'false'");
/** The token of `null`. */
export const Null = token('Null', "'null'");
/** The token of `undefined`. */
export const Undefined = token('Undefined', "'undefined'");
/** The token of a name. */
export const Identifier = token('Identifier');

// Tokens the grammar never accepts. The scanner produces them so that the diagnostics can explain
// what a model meant (a statement separator, member access, an arrow function) and show the form
// Dialect has instead.
/** The token of `;` (not Dialect: explained by a diagnostic). */
export const Semicolon = token('Semicolon', "';'");
/** The token of `.` (member access, not Dialect). */
export const Dot = token('Dot', "'.'");
/** The token of `=>` (arrow functions, not Dialect). */
export const Arrow = token('Arrow', "'=>'");
/** The token of `=` (assignment, not Dialect). */
export const Equals = token('Equals', "'='");
/** The token of an operator such as `+` (not Dialect). */
export const Operator = token('Operator');

/** Every token type, in the order Chevrotain wants them registered. */
export const allTokenTypes: TokenType[] = [
  LBrace, RBrace, LBracket, RBracket, LParen, RParen, Comma, Colon,
  StringLiteral, NumberLiteral, True, False, Null, Undefined, Identifier,
  Semicolon, Dot, Arrow, Equals, Operator,
];

/** Keywords, looked up after an identifier is scanned. */
export const keywordTokenTypes: ReadonlyMap<string, TokenType> = new Map([
  ['true', True],
  ['false', False],
  ['null', Null],
  ['undefined', Undefined],
]);

/**
 * A token as the scanner produces it. `endOffset` is inclusive (Chevrotain's convention);
 * `payload` holds the decoded value of string and number literals. The image is sliced from the
 * source only when asked for (error messages, names): megabyte inputs have hundreds of thousands
 * of tokens, and every field saved is garbage not collected.
 */
export class DialectToken implements IToken {
  readonly tokenType: TokenType;
  readonly tokenTypeIdx: number;
  readonly startOffset: number;
  readonly endOffset: number;
  readonly payload: string | number | undefined;
  readonly #text: string;

  constructor(tokenType: TokenType, text: string, startOffset: number, endOffset: number, payload?: string | number) {
    this.tokenType = tokenType;
    this.tokenTypeIdx = tokenType.tokenTypeIdx as number;
    this.startOffset = startOffset;
    this.endOffset = endOffset;
    this.payload = payload;
    this.#text = text;
  }

  /** The token's source text. */
  get image(): string {
    return this.#text.slice(this.startOffset, this.endOffset + 1);
  }
}

/**
 * A literal token (string, number, true, false, null, undefined). It doubles as the AST's
 * `LiteralExpr`: the parser hands the token itself to the tree instead of copying it into a new
 * node, which saves two allocations per atom on large JSON inputs.
 */
export class LiteralToken extends DialectToken {
  get kind(): 'literal' {
    return 'literal';
  }

  get value(): string | number | boolean | null | undefined {
    const type = this.tokenType;
    return type === True ? true : type === False ? false : type === Null ? null : type === Undefined ? undefined : this.payload;
  }

  get span(): { start: number; end: number } {
    return { start: this.startOffset, end: this.endOffset + 1 };
  }

  toJSON(): { kind: 'literal'; value: string | number | boolean | null | undefined; span: { start: number; end: number } } {
    return { kind: this.kind, value: this.value, span: this.span };
  }
}
