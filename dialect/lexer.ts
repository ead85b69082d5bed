/**
 * The Dialect scanner: source text → tokens + lexical diagnostics. It never throws and runs in
 * linear time on any input (an unterminated 10 MB string is scanned once, not once per character).
 */
import { truncate } from './display.js';
import { SyntaxCode, type Diagnostic } from './diagnostics.js';
import {
  Arrow, Colon, Comma, DialectToken, LiteralToken, Dot, Equals, Identifier, LBrace, LBracket, LParen,
  NumberLiteral, Operator, RBrace, RBracket, RParen, Semicolon, StringLiteral, keywordTokenTypes,
} from './tokens.js';
import type { TokenType } from 'chevrotain';
import { programStart } from './source.js';

/** What the scanner produced. */
export interface LexResult {
  readonly tokens: DialectToken[];
  readonly diagnostics: Diagnostic[];
}

/** At most this many lexical diagnostics are reported; the last one says how many were left out. */
const MAX_LEXICAL_DIAGNOSTICS = 20;

const CH = {
  tab: 9, lf: 10, cr: 13, space: 32, bang: 33, dquote: 34, dollar: 36, percent: 37, amp: 38,
  squote: 39, lparen: 40, rparen: 41, star: 42, plus: 43, comma: 44, minus: 45, dot: 46, slash: 47,
  zero: 48, nine: 57, colon: 58, semicolon: 59, lt: 60, eq: 61, gt: 62, question: 63,
  upperA: 65, upperE: 69, upperZ: 90, lbracket: 91, backslash: 92, rbracket: 93, caret: 94,
  underscore: 95, backtick: 96, lowerA: 97, lowerE: 101, lowerU: 117, lowerZ: 122, lbrace: 123,
  pipe: 124, rbrace: 125, tilde: 126,
} as const;

const PUNCTUATION = new Map<number, TokenType>([
  [CH.lbrace, LBrace], [CH.rbrace, RBrace], [CH.lbracket, LBracket], [CH.rbracket, RBracket],
  [CH.lparen, LParen], [CH.rparen, RParen], [CH.comma, Comma], [CH.colon, Colon],
]);

const isDigit = (c: number): boolean => c >= CH.zero && c <= CH.nine;
const isIdentStart = (c: number): boolean =>
  (c >= CH.lowerA && c <= CH.lowerZ) || (c >= CH.upperA && c <= CH.upperZ) || c === CH.underscore || c === CH.dollar;
const isIdentPart = (c: number): boolean => isIdentStart(c) || isDigit(c);
const isOperatorChar = (c: number): boolean =>
  c === CH.plus || c === CH.star || c === CH.percent || c === CH.bang || c === CH.amp || c === CH.pipe ||
  c === CH.lt || c === CH.gt || c === CH.question || c === CH.tilde || c === CH.caret || c === CH.minus ||
  c === CH.slash || c === CH.eq;
const isHex = (c: number): boolean =>
  isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

const SIMPLE_ESCAPES = new Map<number, string>([
  [CH.dquote, '"'], [CH.backslash, '\\'], [CH.slash, '/'], [98, '\b'], [102, '\f'], [110, '\n'],
  [114, '\r'], [116, '\t'], [CH.squote, "'"], [CH.backtick, '`'],
]);

/** The shared separator tokens (see {@link LexOptions.shareSeparators}); they have no position. */
const SHARED_COMMA = new DialectToken(Comma, ',', 0, 0);
const SHARED_COLON = new DialectToken(Colon, ':', 0, 0);

/** Scans a whole program. */
export function lex(text: string, options: LexOptions = {}): LexResult {
  return new Scanner(text, options.shareSeparators === true).run();
}

/** What the tolerant scan of a half-typed program found up to the cursor (see {@link lexPrefix}). */
export interface PrefixLex {
  /** The tokens before the cursor; one cut by the cursor (a word, an unclosed string) is the last. */
  readonly tokens: readonly DialectToken[];
  /** Indices into `tokens` of the brackets still open at the cursor, outermost first. */
  readonly open: readonly number[];
  /**
   * What the cursor is inside: code, a string that is not closed before it (the last token; its
   * payload is the decoded text so far), or a comment.
   */
  readonly end: CursorContext;
}

/** Where the cursor stands, lexically. */
export type CursorContext = 'code' | 'string' | 'comment';

/** The token types that open a bracket: `(`, `[`, `{`. */
export const OPENING_BRACKETS: ReadonlySet<TokenType> = new Set([LParen, LBracket, LBrace]);
/** The token types that close a bracket: `)`, `]`, `}`. */
export const CLOSING_BRACKETS: ReadonlySet<TokenType> = new Set([RParen, RBracket, RBrace]);

/**
 * Scans the text before `cursor` of a program still being typed (REPL completion): the same
 * scanner as {@link lex}, so it never throws and stays linear, plus the open brackets around the
 * cursor and whether the cursor is inside a string or comment. A closing bracket closes the
 * innermost open one whatever its kind (a mismatch is the parser's to report); one with nothing
 * open is ignored.
 */
export function lexPrefix(text: string, cursor: number = text.length): PrefixLex {
  const scanner = new Scanner(text.slice(0, Math.max(0, cursor)), false);
  const { tokens } = scanner.run();
  const open: number[] = [];
  for (let k = 0; k < tokens.length; k++) {
    const type = (tokens[k] as DialectToken).tokenType;
    if (OPENING_BRACKETS.has(type)) open.push(k);
    else if (CLOSING_BRACKETS.has(type)) open.pop();
  }
  return { tokens, open, end: scanner.end };
}

/** Options of the scanner. */
export interface LexOptions {
  /**
   * Emit one shared token for every `,` and `:` instead of one token each. The parser and the AST
   * never read a separator's position, so this saves a third of the allocations on JSON-like
   * input; the price is that a syntax error cannot be located, so callers lex again without it
   * when parsing fails.
   */
  readonly shareSeparators?: boolean;
}

class Scanner {
  readonly tokens: DialectToken[] = [];
  readonly diagnostics: Diagnostic[] = [];
  #omitted = 0;
  #outOfPhase = false;
  i = 0;
  /** Set when a string or comment runs to the end of the text (only the last construct can). */
  end: CursorContext = 'code';

  readonly #sharedComma: DialectToken | undefined;
  readonly #sharedColon: DialectToken | undefined;

  constructor(
    readonly text: string,
    shareSeparators: boolean,
  ) {
    this.#sharedComma = shareSeparators ? SHARED_COMMA : undefined;
    this.#sharedColon = shareSeparators ? SHARED_COLON : undefined;
  }

  run(): LexResult {
    const { text } = this;
    const n = text.length;
    this.i = programStart(text);
    while (this.i < n) {
      const c = text.charCodeAt(this.i);
      if (c === CH.space || c === CH.lf || c === CH.cr || c === CH.tab) {
        this.i++;
        continue;
      }
      if (c === CH.comma && this.#sharedComma !== undefined) {
        this.tokens.push(this.#sharedComma);
        this.i++;
        continue;
      }
      if (c === CH.colon && this.#sharedColon !== undefined) {
        this.tokens.push(this.#sharedColon);
        this.i++;
        continue;
      }
      const punct = PUNCTUATION.get(c);
      if (punct !== undefined) {
        this.tokens.push(new DialectToken(punct, text, this.i, this.i));
        this.i++;
      } else if (c === CH.dquote || c === CH.squote) this.quoted(c);
      else if (c === CH.backtick) this.backtick();
      else if (isDigit(c) || (c === CH.minus && (isDigit(text.charCodeAt(this.i + 1)) || text.charCodeAt(this.i + 1) === CH.dot))) this.number();
      else if (isIdentStart(c)) this.identifier();
      else if (c === CH.slash && text.charCodeAt(this.i + 1) === CH.slash) this.lineComment();
      else if (c === CH.slash && text.charCodeAt(this.i + 1) === CH.star) this.blockComment();
      else if (c === CH.dot) this.dot();
      else if (c === CH.semicolon) this.single(Semicolon);
      else if (c === CH.eq && text.charCodeAt(this.i + 1) === CH.gt) {
        this.tokens.push(new DialectToken(Arrow, text, this.i, this.i + 1));
        this.i += 2;
      } else if (c === CH.eq && text.charCodeAt(this.i + 1) !== CH.eq) this.single(Equals);
      else if (c === CH.plus && isDigit(text.charCodeAt(this.i + 1))) this.number();
      else if (isOperatorChar(c)) this.operator();
      else this.stray();
    }
    if (this.#omitted > 0) {
      const last = this.diagnostics[this.diagnostics.length - 1];
      if (last !== undefined) {
        this.diagnostics[this.diagnostics.length - 1] = {
          ...last,
          hint: `${last.hint !== undefined ? `${last.hint}\n` : ''}${this.#omitted} more lexical error(s) were not shown.`,
        };
      }
    }
    return { tokens: this.tokens, diagnostics: this.diagnostics };
  }

  report(diagnostic: Diagnostic): void {
    // After an unterminated string or comment, what follows is read out of phase (quotes open
    // where they close): further errors would be noise, so the first one stands alone.
    if (this.#outOfPhase) return;
    if (diagnostic.code === SyntaxCode.UnterminatedString || diagnostic.code === SyntaxCode.UnterminatedComment) this.#outOfPhase = true;
    if (this.diagnostics.length >= MAX_LEXICAL_DIAGNOSTICS) this.#omitted++;
    else this.diagnostics.push(diagnostic);
  }

  single(type: typeof Semicolon): void {
    this.tokens.push(new DialectToken(type, this.text, this.i, this.i));
    this.i++;
  }

  quoted(quote: number): void {
    const { text } = this;
    const n = text.length;
    const start = this.i;
    let i = start + 1;
    let plainUntil = -1; // first index needing decoding, or -1 while the string is plain
    let closed = false;
    for (;;) {
      if (i >= n) {
        this.end = 'string';
        this.unterminatedString(start, i, 'the program ends before the closing quote');
        break;
      }
      const c = text.charCodeAt(i);
      if (c === quote) {
        closed = true;
        i++;
        break;
      }
      if (c === CH.backslash) {
        if (plainUntil < 0) plainUntil = i;
        i = this.escape(i);
        continue;
      }
      if (c === CH.lf || c === CH.cr) {
        this.unterminatedString(start, i, 'the line ends before the closing quote');
        break;
      }
      if (c < 0x20) {
        if (plainUntil < 0) plainUntil = i;
        this.report({
          code: SyntaxCode.ControlCharacter,
          severity: 'error',
          message: `raw control character ${describeChar(c)} inside a quoted string`,
          span: { start: i, end: i + 1 },
          hint: 'write it as an escape (\\t, \\n or \\u00XX), or use a `backtick` string, which may contain any character',
        });
      }
      i++;
    }
    this.i = i;
    const bodyEnd = closed ? i - 1 : i;
    const value = plainUntil < 0 ? text.slice(start + 1, bodyEnd) : decodeQuoted(text, start + 1, bodyEnd);
    this.tokens.push(new LiteralToken(StringLiteral, text, start, i - 1, value));
  }

  /** Validates the escape at `i` (a backslash) and returns the index after it. */
  escape(i: number): number {
    const { text } = this;
    const next = text.charCodeAt(i + 1);
    if (Number.isNaN(next)) return i + 1; // the caller reports the unterminated string
    if (SIMPLE_ESCAPES.has(next)) return i + 2;
    if (next === CH.lowerU) {
      let j = i + 2;
      while (j < i + 6 && isHex(text.charCodeAt(j))) j++;
      if (j === i + 6) return j;
      this.report({
        code: SyntaxCode.InvalidEscape,
        severity: 'error',
        message: 'a \\u escape needs exactly four hexadecimal digits',
        span: { start: i, end: j },
        hint: 'write \\u followed by four hex digits, for example \\u00e9 for é',
      });
      return j;
    }
    if (next === CH.lf || next === CH.cr) {
      this.report({
        code: SyntaxCode.InvalidEscape,
        severity: 'error',
        message: 'a backslash at the end of a line does not continue a quoted string',
        span: { start: i, end: i + 1 },
        hint: 'use a `backtick` string for text that spans lines, or write \\n',
      });
      return i + 1;
    }
    const shown = String.fromCodePoint(text.codePointAt(i + 1) as number);
    this.report({
      code: SyntaxCode.InvalidEscape,
      severity: 'error',
      message: `unknown escape sequence \\${shown} in a quoted string`,
      span: { start: i, end: i + 1 + shown.length },
      hint:
        `in "…" and '…' strings a backslash starts an escape (\\n, \\t, \\", \\\\, \\u00e9). ` +
        `For a literal backslash write \\\\${shown}, or use a backtick string, where backslashes are kept as written: \`\\${shown}\``,
    });
    return i + 1 + shown.length;
  }

  unterminatedString(start: number, end: number, why: string): void {
    this.report({
      code: SyntaxCode.UnterminatedString,
      severity: 'error',
      message: 'unterminated string',
      span: { start, end: start + 1 },
      label: 'the string starts here',
      labels: [{ span: { start: end, end }, message: why }],
      hint:
        end < this.text.length
          ? 'close the string on the same line; for text that spans lines use a `backtick` string'
          : 'add the closing quote',
    });
  }

  backtick(): void {
    const { text } = this;
    const n = text.length;
    const start = this.i;
    let i = start + 1;
    let hasEscape = false;
    let closed = false;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === CH.backtick) {
        closed = true;
        i++;
        break;
      }
      if (c === CH.backslash) {
        hasEscape = true;
        i += 2;
        continue;
      }
      i++;
    }
    if (i > n) i = n;
    this.i = i;
    if (!closed) {
      this.end = 'string';
      this.report({
        code: SyntaxCode.UnterminatedString,
        severity: 'error',
        message: 'unterminated backtick string',
        span: { start, end: start + 1 },
        label: 'the string starts here',
        labels: [{ span: { start: n, end: n }, message: 'the program ends before the closing backtick' }],
        hint: 'add the closing `',
      });
    }
    const bodyEnd = closed ? i - 1 : i;
    const value = hasEscape ? decodeBacktick(text, start + 1, bodyEnd) : text.slice(start + 1, bodyEnd);
    this.tokens.push(new LiteralToken(StringLiteral, text, start, i - 1, value));
  }

  number(): void {
    const { text } = this;
    const start = this.i;
    let i = start;
    if (text.charCodeAt(i) === CH.minus || text.charCodeAt(i) === CH.plus) i++;
    let valid = text.charCodeAt(start) !== CH.plus;
    // JSON's grammar: int frac? exp?
    const intStart = i;
    let intValue = 0;
    if (text.charCodeAt(i) === CH.zero) i++;
    else
      while (isDigit(text.charCodeAt(i))) {
        intValue = intValue * 10 + (text.charCodeAt(i) - CH.zero);
        i++;
      }
    if (i === intStart) valid = false;
    // Up to 15 digits the accumulated integer is exact; anything else goes through Number().
    let simple = i - intStart <= 15;
    if (text.charCodeAt(start) === CH.minus) intValue = -intValue;
    if (text.charCodeAt(i) === CH.dot) {
      simple = false;
      i++;
      const fracStart = i;
      while (isDigit(text.charCodeAt(i))) i++;
      if (i === fracStart) valid = false;
    }
    let c = text.charCodeAt(i);
    if (c === CH.lowerE || c === CH.upperE) {
      simple = false;
      i++;
      c = text.charCodeAt(i);
      if (c === CH.plus || c === CH.minus) i++;
      const expStart = i;
      while (isDigit(text.charCodeAt(i))) i++;
      if (i === expStart) valid = false;
    }
    // Anything glued on (01, 1.2.3, 0x1F, 1_000, 10n) makes the whole run one invalid number.
    while (i < text.length) {
      c = text.charCodeAt(i);
      if (isIdentPart(c) || c === CH.dot) {
        valid = false;
        i++;
      } else if ((c === CH.plus || c === CH.minus) && (text.charCodeAt(i - 1) | 0x20) === CH.lowerE && !valid) {
        i++;
      } else break;
    }
    this.i = i;
    const value = valid ? (simple ? intValue : Number(text.slice(start, i))) : Number.NaN;
    if (Number.isFinite(value)) {
      this.tokens.push(new LiteralToken(NumberLiteral, text, start, i - 1, value));
      return;
    }
    const image = text.slice(start, i);
    if (valid) {
      // 1e999 or 400 digits: JSON.parse makes it Infinity, which no result can hold (it printed as null).
      this.report({
        code: SyntaxCode.InvalidNumber,
        severity: 'error',
        message: `\`${abbreviate(image)}\` is too large for a number`,
        span: { start, end: i },
        hint: `numbers are 64-bit floating point, at most about 1.8e308 in size; put the value in a string if its digits matter`,
      });
    } else {
      this.report({
        code: SyntaxCode.InvalidNumber,
        severity: 'error',
        message: `\`${abbreviate(image)}\` is not a valid number`,
        span: { start, end: i },
        hint: numberHint(image),
      });
    }
    this.tokens.push(new LiteralToken(NumberLiteral, text, start, i - 1, Number.NaN));
  }

  identifier(): void {
    const { text } = this;
    const start = this.i;
    let i = start + 1;
    while (isIdentPart(text.charCodeAt(i))) i++;
    const image = text.slice(start, i);
    this.i = i;
    const keyword = keywordTokenTypes.get(image);
    this.tokens.push(keyword !== undefined ? new LiteralToken(keyword, text, start, i - 1) : new DialectToken(Identifier, text, start, i - 1));
  }

  lineComment(): void {
    const { text } = this;
    let i = this.i + 2;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === CH.lf || c === CH.cr) break;
      i++;
    }
    if (i >= text.length) this.end = 'comment';
    this.i = i;
  }

  blockComment(): void {
    const end = this.text.indexOf('*/', this.i + 2);
    if (end < 0) {
      this.end = 'comment';
      this.report({
        code: SyntaxCode.UnterminatedComment,
        severity: 'error',
        message: 'unterminated block comment',
        span: { start: this.i, end: this.i + 2 },
        label: 'the comment starts here',
        labels: [{ span: { start: this.text.length, end: this.text.length }, message: 'the program ends before `*/`' }],
        hint: 'close the comment with */',
      });
      this.i = this.text.length;
    } else this.i = end + 2;
  }

  dot(): void {
    if (isDigit(this.text.charCodeAt(this.i + 1))) {
      this.number();
      return;
    }
    const start = this.i;
    let i = start;
    while (this.text.charCodeAt(i) === CH.dot) i++;
    this.tokens.push(new DialectToken(Dot, this.text, start, i - 1));
    this.i = i;
  }

  operator(): void {
    const start = this.i;
    let i = start;
    while (i < this.text.length && isOperatorChar(this.text.charCodeAt(i)) && !this.startsComment(i)) i++;
    if (i === start) i++;
    this.tokens.push(new DialectToken(Operator, this.text, start, i - 1));
    this.i = i;
  }

  startsComment(i: number): boolean {
    if (this.text.charCodeAt(i) !== CH.slash) return false;
    const next = this.text.charCodeAt(i + 1);
    return next === CH.slash || next === CH.star;
  }

  stray(): void {
    const cp = this.text.codePointAt(this.i) as number;
    const width = cp > 0xffff ? 2 : 1;
    this.report({
      code: SyntaxCode.StrayCharacter,
      severity: 'error',
      message: `unexpected character ${describeChar(cp)}`,
      span: { start: this.i, end: this.i + width },
      hint: strayHint(cp),
    });
    this.i += width;
  }
}

function decodeQuoted(text: string, from: number, to: number): string {
  let out = '';
  let chunkStart = from;
  let i = from;
  while (i < to) {
    if (text.charCodeAt(i) !== CH.backslash) {
      i++;
      continue;
    }
    out += text.slice(chunkStart, i);
    const next = text.charCodeAt(i + 1);
    const simple = SIMPLE_ESCAPES.get(next);
    if (simple !== undefined) {
      out += simple;
      i += 2;
    } else if (next === CH.lowerU && i + 6 <= to && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
      out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
      i += 6;
    } else {
      i += 1; // invalid escape, already reported; keep what follows
    }
    chunkStart = i;
  }
  return out + text.slice(chunkStart, to);
}

function decodeBacktick(text: string, from: number, to: number): string {
  let out = '';
  let chunkStart = from;
  for (let i = from; i < to; i++) {
    if (text.charCodeAt(i) === CH.backslash && text.charCodeAt(i + 1) === CH.backtick) {
      out += text.slice(chunkStart, i) + '`';
      i++;
      chunkStart = i + 1;
    } else if (text.charCodeAt(i) === CH.backslash) i++;
  }
  return out + text.slice(chunkStart, to);
}

/** `U+0000 (NUL)`-style description of a character, readable even when it is invisible. */
export function describeChar(cp: number): string {
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  const names: Record<number, string> = {
    0: 'NUL', 9: 'TAB', 10: 'LINE FEED', 13: 'CARRIAGE RETURN', 0xa0: 'NO-BREAK SPACE', 0xfeff: 'BYTE ORDER MARK',
    0x200b: 'ZERO WIDTH SPACE', 0x2028: 'LINE SEPARATOR', 0x2029: 'PARAGRAPH SEPARATOR',
    0x201c: 'LEFT DOUBLE QUOTATION MARK', 0x201d: 'RIGHT DOUBLE QUOTATION MARK',
    0x2018: 'LEFT SINGLE QUOTATION MARK', 0x2019: 'RIGHT SINGLE QUOTATION MARK',
  };
  const name = names[cp];
  if (name !== undefined) return `${hex} (${name})`;
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return `${hex} (a control character)`;
  if (cp >= 0xd800 && cp <= 0xdfff) return `${hex} (an unpaired surrogate)`;
  return `'${String.fromCodePoint(cp)}' (${hex})`;
}

function strayHint(cp: number): string {
  if (cp === 0x201c || cp === 0x201d) return 'use straight double quotes: "…"';
  if (cp === 0x2018 || cp === 0x2019) return "use straight single quotes: '…'";
  if (cp === 0xa0 || cp === 0xfeff || cp === 0x200b || cp === 0x2028 || cp === 0x2029 || cp === 0x3000 || (cp >= 0x2000 && cp <= 0x200a))
    return 'replace it with a plain space (Dialect allows only space, tab, CR and LF between tokens)';
  if (cp === 0x23) return 'Dialect comments are // line comments and /* block */ comments';
  if (cp === 0x40) return 'Dialect has no decorators or @-names; write a function call such as findDefinitions("Name")';
  if (cp === 0x5c) return 'a backslash only has meaning inside a string';
  return 'Dialect programs are JSON values and function calls such as findDefinitions("Name"); remove the character or put it inside a string';
}

function numberHint(image: string): string {
  const body = image.replace(/^[-+]/, '');
  if (image.startsWith('+')) return `numbers have no leading plus sign; write ${body}`;
  if (/^0[xob]/i.test(body)) return 'only decimal numbers are supported (as in JSON)';
  if (body.includes('_')) return `digit separators are not supported; write ${image.replace(/_/g, '')}`;
  if (/^0\d/.test(body)) return 'numbers have no leading zeros (as in JSON); put the value in a string if the zeros matter';
  if (body.startsWith('.')) return `write a digit before the decimal point: ${image.replace('.', '0.')}`;
  if (/\.$/.test(body) || /\.[eE]/.test(body)) return 'write at least one digit after the decimal point, e.g. 1.0';
  if (/[eE][-+]?$/.test(body)) return 'an exponent needs digits, e.g. 1e3';
  if (/n$/.test(body)) return 'BigInt literals are not supported; write a plain number or a string';
  return 'numbers follow JSON: an optional minus, digits, an optional fraction and exponent (e.g. -12.5e3)';
}

/** Numbers quoted in messages are cut to this many characters. */
const MAX_QUOTED_NUMBER = 40;

function abbreviate(text: string): string {
  return truncate(text, MAX_QUOTED_NUMBER);
}
