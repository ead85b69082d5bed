/**
 * Turns the single error the Chevrotain parser stops at into a diagnostic that teaches: what is
 * wrong, where (with the opening bracket when something is unclosed), and the form Dialect has.
 *
 * It works from the token stream, not from Chevrotain's generic messages: the open-bracket stack
 * at the failing token says whether we are inside a call, an array or an object, and the tokens
 * around it say what the writer most likely meant (a missing comma, a JavaScript-ism, a bare word).
 */
import { truncate } from './display.js';
import { syntaxError, SyntaxCode, type Diagnostic, type Label } from './diagnostics.js';
import type { Span } from './source.js';
import type { DialectToken} from './tokens.js';
import {
  Arrow, Colon, Comma, Dot, Equals, False, Identifier, LBrace, LBracket, LParen, Null,
  NumberLiteral, Operator, RBrace, RBracket, RParen, Semicolon, StringLiteral, True, Undefined,
} from './tokens.js';
import type { TokenType } from 'chevrotain';

/** An open bracket on the stack: what it opens and, for calls, the callee. */
export interface Opener {
  readonly token: DialectToken;
  readonly kind: 'call' | 'array' | 'object' | 'group';
  readonly callee?: string;
}

const CLOSER_OF: ReadonlyMap<TokenType, TokenType> = new Map([
  [LParen, RParen], [LBracket, RBracket], [LBrace, RBrace],
]);
const IMAGE: ReadonlyMap<TokenType, string> = new Map([
  [RParen, ')'], [RBracket, ']'], [RBrace, '}'], [LParen, '('], [LBracket, '['], [LBrace, '{'],
]);
const VALUE_END = new Set<TokenType>([StringLiteral, NumberLiteral, True, False, Null, Undefined, RParen, RBracket, RBrace, Identifier]);
const VALUE_START = new Set<TokenType>([StringLiteral, NumberLiteral, True, False, Null, Undefined, LBrace, LBracket, Identifier]);

const JS_KEYWORDS: ReadonlyMap<string, string> = new Map([
  ['let', 'Dialect has no variables'],
  ['const', 'Dialect has no variables'],
  ['var', 'Dialect has no variables'],
  ['function', 'Dialect has no function definitions'],
  ['return', 'Dialect has no statements such as `return`'],
  ['if', 'Dialect has no `if`'],
  ['for', 'Dialect has no loops'],
  ['while', 'Dialect has no loops'],
  ['await', 'Dialect has no `await`: evaluation is already asynchronous'],
  ['async', 'Dialect has no `async`: evaluation is already asynchronous'],
  ['import', 'Dialect has no imports: every function is always available'],
  ['typeof', 'Dialect has no operators such as `typeof`'],
  ['this', 'Dialect has no `this`'],
  ['def', 'Dialect has no function definitions'],
  ['lambda', 'Dialect has no lambdas'],
]);

const LIKELY_LITERALS: ReadonlyMap<string, string> = new Map([
  ['True', 'true'], ['TRUE', 'true'], ['False', 'false'], ['FALSE', 'false'], ['None', 'null'],
  ['NULL', 'null'], ['Null', 'null'], ['nil', 'null'], ['Nil', 'null'], ['undef', 'undefined'],
]);

const NESTING_NAME = { call: 'call', array: 'array', object: 'object', group: 'parenthesis' } as const;

/** Inputs the explanation needs. */
export interface ErrorContext {
  readonly text: string;
  readonly tokens: readonly DialectToken[];
  /** Index of the token the parser failed at; `tokens.length` for the end of input. */
  readonly index: number;
}

/** Builds the open-bracket stack in front of token `index`. */
export function openersBefore(tokens: readonly DialectToken[], index: number): Opener[] {
  const stack: Opener[] = [];
  for (let i = 0; i < index; i++) {
    const t = tokens[i] as DialectToken;
    const type = t.tokenType;
    if (type === LParen) {
      const prev = tokens[i - 1];
      stack.push(prev?.tokenType === Identifier ? { token: t, kind: 'call', callee: prev.image } : { token: t, kind: 'group' });
    } else if (type === LBracket) stack.push({ token: t, kind: 'array' });
    else if (type === LBrace) stack.push({ token: t, kind: 'object' });
    else if (type === RParen || type === RBracket || type === RBrace) stack.pop();
  }
  return stack;
}

const spanOf = (t: DialectToken): Span => ({ start: t.startOffset, end: t.endOffset + 1 });
const after = (t: DialectToken | undefined): Span =>
  t === undefined ? { start: 0, end: 0 } : { start: t.endOffset + 1, end: t.endOffset + 1 };
const quote = (s: string): string => JSON.stringify(s);
/** Tokens quoted in messages are cut to this many characters. */
const MAX_QUOTED_TOKEN = 30;
const shorten = (s: string): string => truncate(s, MAX_QUOTED_TOKEN);

function openerLabel(o: Opener): Label {
  const what = o.kind === 'call' ? `the call to \`${o.callee ?? ''}\` starts here` : `the ${NESTING_NAME[o.kind]} starts here`;
  return { span: spanOf(o.token), message: what };
}

function closerOf(o: Opener): string {
  return IMAGE.get(CLOSER_OF.get(o.token.tokenType) as TokenType) as string;
}

/** Explains a parse failure at `ctx.index`. */
export function explainSyntaxError(ctx: ErrorContext): Diagnostic {
  const { tokens, index } = ctx;
  const t = tokens[index];
  const prev = tokens[index - 1];
  const stack = openersBefore(tokens, index);
  const top = stack[stack.length - 1];

  // A bare word: either the parser stopped at it, or it took the word for a callee and then
  // missed the `(`. What follows the word tells what the writer meant.
  // A bare name the parser accepted as a reference, followed by something that does not fit:
  // what follows the name tells what the writer meant (`x => …`, `file = …`, `a.b`, `new X()`).
  const bareAt =
    prev?.tokenType === Identifier && t?.tokenType !== LParen && t?.tokenType !== Colon
      ? index - 1
      : t?.tokenType === Identifier && tokens[index + 1]?.tokenType !== LParen
        ? index
        : -1;
  if (bareAt >= 0) {
    const explained = bareWord(ctx, bareAt, openersBefore(tokens, bareAt));
    if (explained !== undefined) return explained;
  }

  if (t === undefined) return endOfInput(ctx, stack, prev);

  const type = t.tokenType;
  if (type === Semicolon) return semicolon(ctx, t);
  if (type === Arrow) return arrow(t);
  if (type === Dot) return dot(ctx, t, prev);
  if (type === Equals) return equals(ctx, t, prev, top);
  if (type === Operator) {
    return syntaxError(SyntaxCode.NoOperators, spanOf(t), {
      message: `Dialect has no operators (\`${shorten(t.image)}\`)`,
      label: 'not supported',
      hint: 'write the value itself (for text, the whole string); functions such as pick(…) and only(…) select from results',
    });
  }
  if (type === Colon) {
    const colon = colonError(ctx, t, prev, top);
    if (colon !== undefined) return colon;
  }
  if (top?.kind === 'object' && (prev === top.token || prev?.tokenType === Comma) && !isKeyToken(type) && type !== RBrace) {
    return syntaxError(SyntaxCode.InvalidObjectKey, spanOf(t), {
      message: `expected a property name, found ${describe(t)}`,
      label: 'expected a key here',
      hint: type === NumberLiteral ? `object keys are strings or names: write "${t.image}": …` : 'object properties are written key: value, e.g. {name: "User"}',
    });
  }
  if (top?.kind === 'object' && prev !== undefined && isKeyToken(prev.tokenType) && (tokens[index - 2] === top.token || tokens[index - 2]?.tokenType === Comma)) {
    return syntaxError(SyntaxCode.UnexpectedToken, after(prev), {
      message: `expected \`:\` after the property name ${quote(keyText(prev))}`,
      label: 'expected `:` here',
      hint: `object properties are written key: value, e.g. {${keyText(prev)}: …}`,
    });
  }
  if (VALUE_START.has(type) && prev !== undefined && VALUE_END.has(prev.tokenType)) {
    if (type === Identifier && tokens[index + 1]?.tokenType !== LParen && tokens[index + 1]?.tokenType !== Colon && top === undefined) {
      return bareIdentifier(ctx, t);
    }
    return missingComma(t, prev, top);
  }
  if (type === Identifier) return bareIdentifier(ctx, t);
  if (type === RParen || type === RBracket || type === RBrace) return closer(t, prev, top);
  if (type === Comma) {
    return syntaxError(SyntaxCode.ExpectedValue, spanOf(t), {
      message: prev === undefined || prev.tokenType === Comma || CLOSER_OF.has(prev.tokenType) ? 'expected a value before `,`' : 'unexpected `,`',
      label: 'expected a value here',
      hint: 'remove the extra comma',
    });
  }
  return syntaxError(SyntaxCode.UnexpectedToken, spanOf(t), {
    message: `unexpected ${describe(t)}`,
    label: 'not expected here',
    hint: top === undefined ? 'a program is a single value or call, e.g. findDefinitions("User")' : `close the ${NESTING_NAME[top.kind]} with \`${closerOf(top)}\``,
  });
}

/** Explains the bare word at `at` from the token that follows it; undefined if it is not the problem. */
function bareWord(ctx: ErrorContext, at: number, stack: readonly Opener[]): Diagnostic | undefined {
  const word = ctx.tokens[at] as DialectToken;
  const next = ctx.tokens[at + 1];
  const top = stack[stack.length - 1];
  if (next?.tokenType === Arrow) return arrow(next);
  if (next?.tokenType === Equals) return equals(ctx, next, word, top);
  if (next?.tokenType === Dot) return dot(ctx, next, word);
  if (next?.tokenType === Colon && ctx.tokens[at + 2]?.tokenType === Colon) {
    const run = qualifiedRun(ctx, at);
    if (run !== undefined) return quoteName(run);
  }
  if (next?.tokenType === Colon && (top === undefined || top.kind === 'array')) return colonError(ctx, next, word, top);
  if (word.image === 'new' && next?.tokenType === Identifier) {
    return syntaxError(SyntaxCode.NoNew, spanOf(word), {
      message: 'Dialect has no `new`',
      label: 'remove this',
      hint: `call the function directly: ${next.image}(…)`,
    });
  }
  if (JS_KEYWORDS.has(word.image)) return keyword(ctx, word);
  const before = ctx.tokens[at - 1];
  if (top?.kind === 'object') {
    const isKeySlot = (i: number): boolean => ctx.tokens[i] === top.token || ctx.tokens[i]?.tokenType === Comma;
    if (isKeySlot(at - 1)) return undefined; // the word is a property key: the caller explains what follows
    if (before !== undefined && isKeyToken(before.tokenType) && isKeySlot(at - 2)) return undefined; // it follows a key
  }
  if (before !== undefined && VALUE_END.has(before.tokenType)) return missingComma(word, before, top);
  return bareIdentifier(ctx, word);
}

function arrow(t: DialectToken): Diagnostic {
  return syntaxError(SyntaxCode.NoArrowFunctions, spanOf(t), {
    message: 'Dialect has no arrow functions (`=>`)',
    label: 'not supported',
    hint: 'functions take other calls as arguments instead of callbacks: findReferences(findDefinitions("User"))',
  });
}

function equals(ctx: ErrorContext, t: DialectToken, prev: DialectToken | undefined, top: Opener | undefined): Diagnostic {
  if (top?.kind === 'call' && prev?.tokenType === Identifier) {
    const value = ctx.text.slice(t.endOffset + 1).trim().split(/[,)]/)[0] ?? '…';
    return syntaxError(SyntaxCode.NamedArgumentSyntax, spanOf(t), {
      message: 'named arguments are written `name: value`, not `name = value`',
      label: 'use `:` here',
      hint: `write ${prev.image}: ${shorten(value.trim() || '…')}`,
    });
  }
  return syntaxError(SyntaxCode.NoOperators, spanOf(t), {
    message: 'Dialect has no assignment (`=`)',
    label: 'not supported',
    hint: 'there are no variables: nest one call inside another, e.g. findReferences(findDefinitions("User"))',
  });
}

function quoteName(run: { span: Span; text: string }): Diagnostic {
  return syntaxError(SyntaxCode.BareIdentifier, run.span, {
    message: `\`${run.text}\` is not a value: names must be quoted`,
    label: 'quote this',
    hint: `write ${quote(run.text)}`,
  });
}

function endOfInput(ctx: ErrorContext, stack: readonly Opener[], prev: DialectToken | undefined): Diagnostic {
  if (prev === undefined) {
    return syntaxError(SyntaxCode.EmptyInput, { start: ctx.text.length, end: ctx.text.length }, {
      message: 'the program is empty',
      hint: 'write a value or a call, e.g. findDefinitions("User")',
    });
  }
  const top = stack[stack.length - 1];
  if (top === undefined) {
    return syntaxError(SyntaxCode.ExpectedValue, after(prev), {
      message: 'the program ends where a value was expected',
      label: 'expected a value',
      hint: 'finish the expression, e.g. findDefinitions("User")',
    });
  }
  const closers = stack.map(closerOf).reverse().join('');
  const code = top.kind === 'array' ? SyntaxCode.UnclosedArray : top.kind === 'object' ? SyntaxCode.UnclosedObject : SyntaxCode.UnclosedCall;
  const what = top.kind === 'call' ? `the call to \`${top.callee ?? ''}\`` : `the ${NESTING_NAME[top.kind]}`;
  const dangling = prev.tokenType === Comma || prev.tokenType === Colon;
  return syntaxError(code, after(prev), {
    message: `expected \`${closerOf(top)}\` to close ${what}`,
    label: dangling ? `expected a value or \`${closerOf(top)}\`` : `expected \`${closerOf(top)}\``,
    labels: [openerLabel(top)],
    hint: `add \`${closers}\` at the end${stack.length > 1 ? ` (${stack.length} brackets are still open)` : ''}`,
  });
}

function semicolon(ctx: ErrorContext, t: DialectToken): Diagnostic {
  const last = ctx.tokens[ctx.tokens.length - 1] === t;
  return syntaxError(SyntaxCode.NoStatements, spanOf(t), {
    message: last ? 'Dialect programs do not end with `;`' : 'Dialect has no statements: `;` cannot separate expressions',
    label: last ? 'remove this' : 'not supported',
    hint: last ? 'a program is a single expression; delete the `;`' : 'to run several calls at once, put them in an array: [findDefinitions("A"), findDefinitions("B")]',
  });
}

function dot(ctx: ErrorContext, t: DialectToken, prev: DialectToken | undefined): Diagnostic {
  if (t.image.length >= 3) {
    return syntaxError(SyntaxCode.NoOperators, spanOf(t), {
      message: 'Dialect has no spread syntax (`...`)',
      label: 'not supported',
      hint: 'write the values out, or pass the list itself: findReferences(findDefinitions("User"))',
    });
  }
  const next = ctx.tokens[ctx.tokens.indexOf(t) + 1];
  if (prev?.tokenType === Identifier && next?.tokenType === Identifier) {
    const dotted = qualifiedRun(ctx, ctx.tokens.indexOf(prev));
    if (dotted !== undefined && ctx.tokens[dotted.endIndex + 1]?.tokenType !== LParen) return quoteName(dotted);
  }
  return syntaxError(SyntaxCode.NoMemberAccess, spanOf(t), {
    message: 'Dialect has no member access (`.`)',
    label: 'not supported',
    hint: 'values have no methods or fields to access: pass a result to another function instead, e.g. findReferences(findDefinitions("User"))',
  });
}

function keyword(ctx: ErrorContext, t: DialectToken): Diagnostic {
  const next = ctx.tokens[ctx.tokens.indexOf(t) + 1];
  const fix =
    t.image === 'await' || t.image === 'async'
      ? 'remove it and write the call directly, e.g. findDefinitions("User")'
      : t.image === 'import'
        ? 'remove the import and call the function'
        : next !== undefined && (t.image === 'return')
          ? 'write just the expression that would be returned'
          : 'nest calls instead, e.g. findReferences(findDefinitions("User"))';
  return syntaxError(SyntaxCode.NoKeyword, spanOf(t), {
    message: (JS_KEYWORDS.get(t.image) as string).includes(`\`${t.image}\``) ? (JS_KEYWORDS.get(t.image) as string) : `${JS_KEYWORDS.get(t.image) ?? ''} (\`${t.image}\`)`,
    label: 'not supported',
    hint: fix,
  });
}

function colonError(ctx: ErrorContext, t: DialectToken, prev: DialectToken | undefined, top: Opener | undefined): Diagnostic | undefined {
  const prevPrev = ctx.tokens[ctx.tokens.indexOf(t) - 2];
  if (prev?.tokenType === Colon && prevPrev?.tokenType === Identifier) {
    const run = qualifiedRun(ctx, ctx.tokens.indexOf(prevPrev));
    if (run !== undefined) return quoteName(run);
  }
  if (top?.kind === 'call' && prev?.tokenType === StringLiteral) {
    const name = String(prev.payload);
    return syntaxError(SyntaxCode.NamedArgumentSyntax, spanOf(prev), {
      message: 'named argument names are written without quotes',
      label: 'remove the quotes',
      hint: /^[A-Za-z_$][\w$]*$/.test(name) ? `write ${name}: …` : 'write name: value, e.g. file: "src/main.rs"',
    });
  }
  if (top?.kind === 'array') {
    return syntaxError(SyntaxCode.UnexpectedToken, spanOf(t), {
      message: 'arrays hold values, not `key: value` pairs',
      label: 'unexpected `:`',
      hint: 'use an object for keys: {name: "User"}',
    });
  }
  if (top === undefined) {
    return syntaxError(SyntaxCode.UnexpectedToken, spanOf(t), {
      message: 'a `key: value` pair needs to be inside an object',
      label: 'unexpected `:`',
      hint: 'wrap it in braces: {key: value}',
    });
  }
  return undefined;
}

function missingComma(t: DialectToken, prev: DialectToken, top: Opener | undefined): Diagnostic {
  if (top === undefined) {
    return syntaxError(SyntaxCode.TrailingInput, spanOf(t), {
      message: 'a program is a single expression, but another one starts here',
      label: 'unexpected second expression',
      hint: 'to evaluate several expressions, put them in an array: [first, second]',
    });
  }
  const between = top.kind === 'call' ? 'arguments' : top.kind === 'array' ? 'array elements' : 'properties';
  return syntaxError(SyntaxCode.MissingComma, after(prev), {
    message: `expected \`,\` between ${between}`,
    label: 'add `,` here',
    labels: [openerLabel(top)],
    hint: `separate ${between} with commas`,
  });
}

function closer(t: DialectToken, prev: DialectToken | undefined, top: Opener | undefined): Diagnostic {
  const image = IMAGE.get(t.tokenType) as string;
  if (top === undefined) {
    return syntaxError(SyntaxCode.UnexpectedClosingDelimiter, spanOf(t), {
      message: `unexpected \`${image}\`: there is nothing to close`,
      label: 'remove this',
      hint: 'check that every bracket closes the one it belongs to',
    });
  }
  if (CLOSER_OF.get(top.token.tokenType) !== t.tokenType) {
    const what = top.kind === 'call' ? `the call to \`${top.callee ?? ''}\`` : `the ${NESTING_NAME[top.kind]}`;
    return syntaxError(SyntaxCode.MismatchedDelimiter, spanOf(t), {
      message: `expected \`${closerOf(top)}\` to close ${what}, found \`${image}\``,
      label: `expected \`${closerOf(top)}\``,
      labels: [openerLabel(top)],
      hint: `replace \`${image}\` with \`${closerOf(top)}\`, or add the missing bracket before it`,
    });
  }
  if (prev?.tokenType === Colon) {
    return syntaxError(SyntaxCode.ExpectedValue, after(prev), {
      message: 'expected a value after `:`',
      label: 'expected a value',
      hint: 'write the value, e.g. name: "User"',
    });
  }
  return syntaxError(SyntaxCode.ExpectedValue, spanOf(t), {
    message: prev?.tokenType === Comma ? 'expected a value between `,` and the closing bracket' : 'expected a value',
    label: 'expected a value before this',
    hint: prev?.tokenType === Comma ? 'remove the extra comma' : 'write a value, a call, or remove the empty slot',
  });
}

function bareIdentifier(_ctx: ErrorContext, t: DialectToken): Diagnostic {
  return bareIdentifierDiagnostic(t.image, spanOf(t));
}

/** The diagnostic for a bare name used as a value: quote it, call it, or (for True/None…) fix it. */
export function bareIdentifierDiagnostic(name: string, span: Span): Diagnostic {
  const literal = LIKELY_LITERALS.get(name);
  if (literal !== undefined) {
    return syntaxError(SyntaxCode.BareIdentifier, span, {
      message: `\`${name}\` is not a Dialect value`,
      label: `did you mean \`${literal}\`?`,
      hint: `write ${literal} (Dialect literals are JSON's true, false and null)`,
    });
  }
  if (name === 'NaN' || name === 'Infinity') {
    return syntaxError(SyntaxCode.BareIdentifier, span, {
      message: `\`${name}\` is not a number in Dialect (as in JSON)`,
      label: 'not a value',
      hint: 'use a finite number, null, or a string',
    });
  }
  return syntaxError(SyntaxCode.BareIdentifier, span, {
    message: `\`${name}\` is not a value: a bare name must be a call or a string`,
    label: 'quote this, or call it',
    hint: `to pass the name as text, quote it: ${quote(name)}; to call a function, add parentheses: ${name}(…)`,
  });
}

/** Recognises `a.b.c` and `a::b::c` runs of identifiers starting at `start`. */
function qualifiedRun(ctx: ErrorContext, start: number): { span: Span; text: string; endIndex: number } | undefined {
  const { tokens, text } = ctx;
  let i = start;
  if (tokens[i]?.tokenType !== Identifier) return undefined;
  for (;;) {
    const a = tokens[i + 1];
    const b = tokens[i + 2];
    if (a?.tokenType === Dot && a.image === '.' && b?.tokenType === Identifier && b.startOffset === a.endOffset + 1 && a.startOffset === (tokens[i] as DialectToken).endOffset + 1) i += 2;
    else if (a?.tokenType === Colon && b?.tokenType === Colon && tokens[i + 3]?.tokenType === Identifier) i += 3;
    else break;
  }
  if (i === start) return undefined;
  const span = { start: (tokens[start] as DialectToken).startOffset, end: (tokens[i] as DialectToken).endOffset + 1 };
  return { span, text: text.slice(span.start, span.end), endIndex: i };
}

function isKeyToken(type: TokenType): boolean {
  return type === StringLiteral || type === Identifier || type === True || type === False || type === Null || type === Undefined;
}

function keyText(t: DialectToken): string {
  return t.tokenType === StringLiteral ? String(t.payload) : t.image;
}

function describe(t: DialectToken): string {
  if (t.tokenType === StringLiteral) return `the string ${shorten(t.image)}`;
  if (t.tokenType === NumberLiteral) return `the number ${shorten(t.image)}`;
  if (t.tokenType === Identifier) return `\`${shorten(t.image)}\``;
  return `\`${shorten(t.image)}\``;
}
