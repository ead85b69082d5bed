import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import oniguruma from 'vscode-oniguruma';
import vsctm from 'vscode-textmate';
import type { IGrammar, StateStack } from 'vscode-textmate';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from '../../dialect/index.js';
import { lex } from '../../dialect/lexer.js';
import { Identifier, NumberLiteral, StringLiteral, keywordTokenTypes } from '../../dialect/tokens.js';

const here = dirname(fileURLToPath(import.meta.url));
const grammarPath = join(here, '..', 'dialect.tmLanguage.json');
const programsDir = join(here, 'programs');

/** A token of a whole program: offsets into the program text, scopes outermost first. */
interface Token {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly scopes: readonly string[];
}

let grammar: IGrammar;

beforeAll(async () => {
  const wasm = readFileSync(createRequire(import.meta.url).resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(new Uint8Array(wasm));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text: string) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scopeName: string) =>
      scopeName === 'source.dialect' ? vsctm.parseRawGrammar(readFileSync(grammarPath, 'utf8'), grammarPath) : null,
  });
  const loaded = await registry.loadGrammar('source.dialect');
  if (loaded === null) throw new Error('source.dialect did not load');
  grammar = loaded;
});

/** Tokenizes a program line by line, as an editor does, carrying the state across lines. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let state: StateStack = vsctm.INITIAL;
  let lineStart = 0;
  for (const line of text.split('\n')) {
    const result = grammar.tokenizeLine(line, state);
    for (const token of result.tokens) {
      const start = lineStart + token.startIndex;
      const end = lineStart + Math.min(token.endIndex, line.length); // the engine appends a '\n'
      if (end > start) tokens.push({ start, end, text: text.slice(start, end), scopes: token.scopes });
    }
    state = result.ruleStack;
    lineStart += line.length + 1;
  }
  return tokens;
}

/** Reads a program from grammar/test/programs. */
function program(name: string): string {
  return readFileSync(join(programsDir, name), 'utf8');
}

/** Offset of the `occurrence`-th (0-based) `needle` in `text`; fails loudly instead of returning -1. */
function at(text: string, needle: string, occurrence = 0): number {
  let offset = -1;
  for (let i = 0; i <= occurrence; i++) {
    offset = text.indexOf(needle, offset + 1);
    if (offset < 0) throw new Error(`${JSON.stringify(needle)} occurs fewer than ${occurrence + 1} times`);
  }
  return offset;
}

/** The token covering `offset`. */
function tokenAt(tokens: readonly Token[], offset: number): Token {
  const token = tokens.find((t) => t.start <= offset && offset < t.end);
  if (token === undefined) throw new Error(`no token at offset ${offset}`);
  return token;
}

/** Scopes at `offset`, joined into one string for readable failures and `toMatch`. */
function scopesAt(tokens: readonly Token[], offset: number): string {
  return tokenAt(tokens, offset).scopes.join(' ');
}

/** Asserts that `needle` (its `occurrence`-th instance) is exactly one token with a scope matching `scope`. */
function expectToken(text: string, tokens: readonly Token[], needle: string, scope: RegExp, occurrence = 0): void {
  const offset = at(text, needle, occurrence);
  const token = tokenAt(tokens, offset);
  expect({ text: token.text, scopes: token.scopes.join(' ') }, needle).toMatchObject({ text: needle, scopes: expect.stringMatching(scope) as unknown });
}

/** Asserts that every character of `needle` (which may span several tokens, as a comment does) has a scope matching `scope`. */
function expectCovered(text: string, tokens: readonly Token[], needle: string, scope: RegExp): void {
  const start = at(text, needle);
  for (let offset = start; offset < start + needle.length; offset++) {
    if (text[offset] !== '\n') expect(scopesAt(tokens, offset), `${needle} at ${offset}`).toMatch(scope);
  }
}

const illegal = (tokens: readonly Token[]): Token[] => tokens.filter((t) => t.scopes.some((s) => s.startsWith('invalid')));

describe('the TextMate grammar on the example programs', () => {
  const names = readdirSync(programsDir).filter((name) => name.endsWith('.dialect'));

  it('has example programs, all of them valid Dialect', () => {
    expect(names.length).toBeGreaterThanOrEqual(5);
    for (const name of names) expect(parse(program(name)).ok, name).toBe(true);
  });

  it.each(names)('%s: nothing is marked invalid', (name) => {
    expect(illegal(tokenize(program(name)))).toEqual([]);
  });

  it.each(names)('%s: agrees with the scanner on every string, number, keyword and name', (name) => {
    // The scanner (dialect/lexer.ts) is the reference; every token it produces must be scoped the same way.
    const text = program(name);
    const tokens = tokenize(text);
    const keywords = new Set(keywordTokenTypes.values());
    for (const token of lex(text).tokens) {
      const image = text.slice(token.startOffset, token.endOffset + 1);
      const expected =
        token.tokenType === StringLiteral ? /\bstring\.quoted\./
        : token.tokenType === NumberLiteral ? /\bconstant\.numeric\./
        : keywords.has(token.tokenType) ? /\b(?:constant\.language\.|support\.type\.property-name\.)/
        : token.tokenType === Identifier ? /\b(?:entity\.name\.function|variable\.parameter|support\.type\.property-name|variable\.other)\./
        : /\bpunctuation\./;
      for (let offset = token.startOffset; offset <= token.endOffset; offset++) {
        if (text[offset] === '\n') continue; // not part of any line's tokens
        expect(scopesAt(tokens, offset), `${image} at ${offset}`).toMatch(expected);
      }
    }
  });

  it('references.dialect: calls, strings and a named argument', () => {
    const text = program('references.dialect');
    const tokens = tokenize(text);
    expectToken(text, tokens, 'findReferences', /entity\.name\.function\.dialect/);
    expectToken(text, tokens, 'findDefinitions', /entity\.name\.function\.dialect/);
    expectToken(text, tokens, 'User', /string\.quoted\.double\.dialect/);
    expectToken(text, tokens, 'file', /variable\.parameter\.dialect/);
    expectToken(text, tokens, 'src/model.rs', /string\.quoted\.double\.dialect/);
    expect(scopesAt(tokens, at(text, '"User"'))).toMatch(/punctuation\.definition\.string\.begin/);
    expect(scopesAt(tokens, at(text, ':'))).toMatch(/punctuation\.separator\.key-value/);
    expect(scopesAt(tokens, at(text, ','))).toMatch(/punctuation\.separator\.comma/);
    expect(scopesAt(tokens, at(text, '('))).toMatch(/punctuation\.definition\.arguments\.begin/);
    expect(scopesAt(tokens, at(text, ')', 1))).toMatch(/punctuation\.definition\.arguments\.end/);
    // The inner call's arguments are inside both calls.
    expect(scopesAt(tokens, at(text, 'User')).match(/meta\.function-call/g)).toHaveLength(2);
  });

  it('audit.dialect: comments, keys, nested calls in an object, constants', () => {
    const text = program('audit.dialect');
    const tokens = tokenize(text);
    // The block comment spans two lines and is one comment.
    expectCovered(text, tokens, text.slice(0, at(text, '*/') + 2), /comment\.block\.dialect/);
    expectCovered(text, tokens, '/* levels of callers */', /comment\.block\.dialect/);
    expectCovered(text, tokens, '// where the search starts', /comment\.line\.double-slash\.dialect/);
    expectCovered(text, tokens, '// tests call everything', /comment\.line\.double-slash\.dialect/);
    for (const key of ['roots', 'includeTests', 'exclude', 'owner']) expectToken(text, tokens, key, /support\.type\.property-name\.dialect/);
    // A quoted key is a string and a property name; a quoted value is only a string.
    expectToken(text, tokens, 'max depth', /string\.quoted\.double\.dialect support\.type\.property-name\.dialect/);
    expect(scopesAt(tokens, at(text, 'target/**'))).not.toMatch(/property-name/);
    expectToken(text, tokens, 'vendor/**', /string\.quoted\.single\.dialect/);
    expectToken(text, tokens, 'findDefinitions', /entity\.name\.function\.dialect/, 1);
    expectToken(text, tokens, 'kind', /variable\.parameter\.dialect/);
    expectToken(text, tokens, 'handle_request', /string\.quoted\.single\.dialect/);
    expectToken(text, tokens, '3', /constant\.numeric\.dialect/);
    expectToken(text, tokens, 'false', /constant\.language\.boolean\.dialect/);
    expectToken(text, tokens, 'null', /constant\.language\.null\.dialect/);
    expect(scopesAt(tokens, at(text, '['))).toMatch(/punctuation\.definition\.array\.begin/);
    expect(scopesAt(tokens, at(text, '{'))).toMatch(/punctuation\.definition\.dictionary\.begin/);
    expect(scopesAt(tokens, text.lastIndexOf('}'))).toMatch(/punctuation\.definition\.dictionary\.end/);
  });

  it('regex-search.dialect: a backtick string keeps its backslashes raw', () => {
    const text = program('regex-search.dialect');
    const tokens = tokenize(text);
    expectToken(text, tokens, 'search', /entity\.name\.function\.dialect/);
    const open = at(text, '`');
    const close = at(text, '`', 1);
    for (let offset = open; offset <= close; offset++) {
      expect(scopesAt(tokens, offset)).toMatch(/string\.quoted\.other\.backtick\.dialect/);
      expect(scopesAt(tokens, offset)).not.toMatch(/escape|invalid/);
    }
    expectToken(text, tokens, '.rs', /string\.quoted\.double\.dialect/);
  });

  it('multiline-regex.dialect: a backtick string spanning lines is one string, with \\` as its only escape', () => {
    const text = program('multiline-regex.dialect');
    const tokens = tokenize(text);
    const open = at(text, '`(?x)');
    const close = at(text, '`,');
    expect(text.slice(open, close)).toContain('\n');
    for (let offset = open; offset <= close; offset++) {
      if (text[offset] === '\n') continue;
      expect(scopesAt(tokens, offset), `offset ${offset} ${JSON.stringify(text[offset])}`).toMatch(/string\.quoted\.other\.backtick\.dialect/);
    }
    // One string: it begins and ends once, although it contains # and ( that mean something outside.
    const inside = tokens.filter((t) => t.start >= open && t.end <= close + 1);
    expect(inside.filter((t) => t.scopes.some((s) => s.startsWith('punctuation.definition.string.begin')))).toHaveLength(1);
    expect(inside.filter((t) => t.scopes.some((s) => s.startsWith('punctuation.definition.string.end')))).toHaveLength(1);
    const escapes = inside.filter((t) => t.scopes.some((s) => s.startsWith('constant.character.escape')));
    expect(escapes.map((t) => t.text)).toEqual(['\\`', '\\`']);
    expectToken(text, tokens, '.rs', /string\.quoted\.double\.dialect/);
    expect(scopesAt(tokens, text.lastIndexOf(')'))).toMatch(/punctuation\.definition\.arguments\.end/);
  });

  it('escapes.dialect: JSON escapes and numbers', () => {
    const text = program('escapes.dialect');
    const tokens = tokenize(text);
    for (const escape of ['\\u00e9', '\\"', '\\\\', '\\t', '\\n', "\\'", '\\/']) {
      expectToken(text, tokens, escape, /string\.quoted\.\w+\.dialect.* constant\.character\.escape\.dialect/);
    }
    for (const number of ['1.5e-10', '6.022E+23', '-42.75', '-0']) expectToken(text, tokens, number, /constant\.numeric\.dialect/);
    expectToken(text, tokens, 'true', /constant\.language\.boolean\.dialect/);
    expectToken(text, tokens, 'note', /string\.quoted\.single\.dialect support\.type\.property-name\.dialect/);
    expectToken(text, tokens, 'Le Dialect', /string\.quoted\.double\.dialect/);
  });
});

describe('the TextMate grammar on what Dialect rejects or treats specially', () => {
  /** The scopes of `needle` in `text`, tokenized on its own. */
  const scopesOf = (text: string, needle: string, occurrence = 0): string => scopesAt(tokenize(text), at(text, needle, occurrence));

  it.each([
    ['findDefinitions("User");', ';', /invalid\.illegal\.semicolon/],
    ['map(users, user => user)', '=>', /invalid\.illegal\.arrow/],
    ['x = findDefinitions("User")', '=', /invalid\.illegal\.assignment/],
    ['findDefinitions("User").name', '.', /invalid\.illegal\.member-access/],
    ['[1 + 2]', '+', /invalid\.illegal\.operator/],
    ['findDefinitions(\u201cUser\u201d)', '\u201c', /invalid\.illegal\.character/],
    ['"C:\\src"', '\\s', /invalid\.illegal\.unrecognized-string-escape/],
    ['"a\tb"', '\t', /invalid\.illegal\.control-character/],
    ['[01, 1.2.3, 0x1F, 1_000, +1, .5, 1e]', '0x1F', /invalid\.illegal\.number/],
  ])('%j marks %j', (text, needle, scope) => {
    expect(scopesOf(text, needle)).toMatch(scope);
  });

  it('marks every malformed number, and only those', () => {
    const text = '[01, 1.2.3, 0x1F, 1_000, +1, .5, 1e, 10n, -7, 0.5e+2]';
    const tokens = tokenize(text);
    for (const bad of ['01', '1.2.3', '0x1F', '1_000', '+1', '.5', '1e', '10n']) expectToken(text, tokens, bad, /invalid\.illegal\.number/);
    for (const good of ['-7', '0.5e+2']) expectToken(text, tokens, good, /constant\.numeric\.dialect/);
  });

  it('ends an unterminated quoted string at the end of its line', () => {
    const text = 'findDefinitions("User\nfindReferences("x")';
    expect(scopesOf(text, 'findReferences')).toMatch(/entity\.name\.function/);
  });

  it('keeps a backslash with the next character in a backtick string, so `\\\\` then ` closes it', () => {
    const text = 'search("src", `C:\\\\`, 1)';
    expect(scopesOf(text, '1')).toMatch(/constant\.numeric/);
    expect(illegal(tokenize(text))).toEqual([]);
  });

  it('scopes keywords as keys, but never as callees or argument names', () => {
    expect(scopesOf('{ null: 1, true: 2 }', 'null')).toMatch(/support\.type\.property-name/);
    expect(scopesOf('{ null: 1, true: 2 }', 'true')).toMatch(/support\.type\.property-name/);
    expect(scopesOf('f(null)', 'null')).toMatch(/constant\.language\.null/);
    expect(scopesOf('f(nullable: 1)', 'nullable')).toMatch(/variable\.parameter/);
    expect(scopesOf('f(undefinedName)', 'undefinedName')).toMatch(/variable\.other/);
  });

  it('tells a comment from a division', () => {
    expect(scopesOf('[1 // two\n]', '// two')).toMatch(/comment\.line/);
    expect(scopesOf('[1 /* two */]', 'two')).toMatch(/comment\.block/);
  });

  it('scopes a bare name (a host-bound reference such as the REPL _) as a variable', () => {
    expect(scopesOf('findReferences(_)', '_')).toMatch(/variable\.other\.dialect/);
  });
});
