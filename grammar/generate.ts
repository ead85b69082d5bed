/**
 * Generates the two grammar documents from the Chevrotain parser in `dialect/grammar.ts`:
 *
 * - `grammar/dialect.ebnf`: the syntax rules rendered from the parser's GAST, followed by the
 *   lexical grammar, which is hand-written below because the tokens come from a hand-written
 *   scanner (`dialect/lexer.ts`) that Chevrotain knows nothing about;
 * - `grammar/diagrams.html`: Chevrotain's railroad diagrams, with its scripts and stylesheet
 *   inlined so that the page works offline.
 *
 * Run `npm run grammar` (`tsx grammar/generate.ts`) after changing the parser and commit both
 * files; `grammar/test/ebnf.test.ts` fails while they are stale.
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSyntaxDiagramsCode, type ISerializedGast } from 'chevrotain';
import { DialectGrammar } from '../dialect/grammar.js';
import { keywordTokenTypes } from '../dialect/tokens.js';

const here = dirname(fileURLToPath(import.meta.url));

/** Where the generated EBNF is committed. */
export const ebnfPath = join(here, 'dialect.ebnf');
/** Where the generated syntax diagrams are committed. */
export const diagramsPath = join(here, 'diagrams.html');

/**
 * A node of Chevrotain's serialized GAST with the fields this generator reads. The published
 * `ISerializedGast` type declares only `type` and `definition`; the other fields are there at
 * run time, depending on the node type.
 */
export interface GastNode {
  type: ISerializedGast['type'];
  definition?: GastNode[];
  /** Rule name (Rule, NonTerminal) or token name (Terminal). */
  name?: string;
  /** NonTerminal: the CST label. Terminal: the display label, `'('` for tokens with a LABEL. */
  label?: string;
  /** Terminal: the CST label. */
  terminalLabel?: string;
  idx?: number;
  separator?: GastNode;
  pattern?: string;
  orgText?: string;
}

/** A top-level rule of the serialized grammar. */
export interface GastRule extends GastNode {
  type: 'Rule';
  name: string;
  definition: GastNode[];
}

/**
 * The parser's grammar, serialized, with its labelled alternations factored out into rules (see
 * {@link factorLabelledAlternations}). Both documents are rendered from it, so the EBNF and the
 * diagrams read the same.
 */
export function dialectSyntax(): GastRule[] {
  return factorLabelledAlternations(new DialectGrammar({ validate: true }).getSerializedGastProductions());
}

/**
 * Factors labelled alternations out into rules of their own: the parser inlines `value` and
 * `key` into every container (an atom then costs a token, not a rule call), but a reader wants
 * them as rules. An alternation is factored out when every alternative is a single token or rule
 * reference carrying the same CST label; that label names the new rule, which is placed after
 * the first rule using it. Throws when two different alternations carry the same label, or the
 * label is already a rule name, since the EBNF would then misdescribe the parser.
 */
export function factorLabelledAlternations(serialized: readonly ISerializedGast[]): GastRule[] {
  const rules = serialized.map(toRule);
  const ruleNames = new Set(rules.map((rule) => rule.name));
  const signatures = new Map<string, string>(); // factored-out rule name → its alternation, as JSON
  const result: GastRule[] = [];

  for (const rule of rules) {
    const introduced: GastRule[] = [];
    const factor = (node: GastNode): GastNode => {
      const definition = node.definition?.map(factor);
      const separator = node.separator !== undefined ? presentTerminal(node.separator) : undefined;
      const copy: GastNode = {
        ...node,
        ...(definition !== undefined ? { definition } : {}),
        ...(separator !== undefined ? { separator } : {}),
      };
      if (copy.type === 'Terminal') return presentTerminal(copy);
      if (copy.type !== 'Alternation') return copy;
      const name = sharedLabel(copy);
      if (name === undefined) return copy;
      const body = unlabelled(copy);
      const signature = JSON.stringify(body);
      const known = signatures.get(name);
      if (known === undefined) {
        if (ruleNames.has(name)) throw new Error(`the alternations labelled '${name}' clash with the parser rule '${name}'`);
        const extracted: GastRule = { type: 'Rule', name, orgText: '', definition: [body] };
        signatures.set(name, signature);
        introduced.push(extracted);
      } else if (known !== signature) {
        throw new Error(`two different alternations carry the label '${name}'; give them different labels`);
      }
      return { type: 'NonTerminal', name, idx: copy.idx ?? 0 };
    };
    result.push({ ...rule, definition: rule.definition.map(factor) }, ...introduced);
  }
  return result;
}

function toRule(node: ISerializedGast): GastRule {
  const gast: GastNode = node;
  if (gast.type !== 'Rule' || gast.name === undefined || gast.definition === undefined) {
    throw new Error(`expected a serialized rule, got ${JSON.stringify(gast).slice(0, 80)}`);
  }
  return { ...gast, type: 'Rule', name: gast.name, definition: gast.definition };
}

/** The CST label every alternative of `alternation` consists of, if they share one. */
function sharedLabel(alternation: GastNode): string | undefined {
  const labels = (alternation.definition ?? []).map((alternative) => {
    const only = alternative.definition?.length === 1 ? alternative.definition[0] : undefined;
    if (only?.type === 'NonTerminal') return only.label;
    if (only?.type === 'Terminal') return only.terminalLabel;
    return undefined;
  });
  const first = labels[0];
  return first !== undefined && labels.every((label) => label === first) ? first : undefined;
}

/** `node` without occurrence indexes and CST labels, which differ between identical uses. */
function unlabelled(node: GastNode): GastNode {
  const { idx: _idx, terminalLabel: _terminalLabel, definition, separator, ...rest } = node;
  const copy: GastNode = rest;
  if (copy.type === 'NonTerminal') delete copy.label; // a Terminal's label is its display text: kept
  if (definition !== undefined) copy.definition = definition.map(unlabelled);
  if (separator !== undefined) copy.separator = unlabelled(separator);
  return copy;
}

/**
 * A terminal as the documents show it: labelled like the EBNF (`STRING`, `"true"`), and without
 * the `NOT_APPLICABLE` pattern of custom-lexer tokens, which the diagrams would show as a tooltip.
 */
function presentTerminal(node: GastNode): GastNode {
  const { pattern, ...rest } = node;
  return { ...rest, label: terminalText(node), ...(pattern !== undefined && pattern !== 'NOT_APPLICABLE' ? { pattern } : {}) };
}

/**
 * EBNF text of a serialized terminal as chevrotain gives it: a token with a LABEL such as `'('`
 * is literal text, any other token is its name in UPPERCASE (`String` becomes `STRING`).
 */
function terminalText(node: GastNode): string {
  const literal = /^'(.+)'$/.exec(node.label ?? '')?.[1];
  if (literal !== undefined) return quote(literal);
  if (node.name === undefined) throw new Error('a terminal without a token name');
  return node.name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/** The display text of a terminal already passed through {@link presentTerminal}. */
function presented(node: GastNode | undefined): string {
  if (node?.label === undefined) throw new Error('a terminal without a display label');
  return node.label;
}

/** An ISO EBNF terminal string (there are no escapes, so the quote is chosen to fit). */
function quote(text: string): string {
  return text.includes('"') ? `'${text}'` : `"${text}"`;
}

// ---------------------------------------------------------------------------------------------
// EBNF

/** Rules are kept on one line up to this width; longer alternations get one alternative a line. */
const MAX_WIDTH = 100;

const HEADER = `(* Dialect: JSON values and function calls.

   GENERATED FILE, do not edit. The syntax rules are generated from the Chevrotain parser
   (dialect/grammar.ts); the lexical rules are kept in grammar/generate.ts. Regenerate with

       npm run grammar

   grammar/test/ebnf.test.ts fails whenever this file no longer matches the parser.

   Notation (ISO 14977 style, but with sequence written by juxtaposition instead of ","):
   "=" defines a rule and ";" ends it; "|" separates alternatives; [ x ] is an optional x;
   { x } is zero or more x; ( ) groups; "text" and 'text' are literal characters; ? text ?
   describes characters in words; A - B is an A that is not a B. Lowercase names are syntax
   rules, UPPERCASE names are tokens. *)
`;

const SYNTAX_INTRO = `(* Syntax. Tokens may be separated by whitespace and comments (see the lexical grammar).
   value and key are not rules of the parser: for speed it inlines them at every use, and the
   generator names the identical, labelled alternations it finds there. *)
`;

/**
 * The lexical grammar, hand-written after the scanner's doc comments (`dialect/lexer.ts`); only
 * the keyword list is taken from the scanner's table. Every UPPERCASE token the syntax uses must
 * be defined here, or generation fails.
 */
function lexicalGrammar(): string {
  const keywords = [...keywordTokenTypes.keys()].map(quote).join(' | ');
  return `(* Lexical grammar. The scanner reads the longest token at each point, so "nullish" is one
   IDENTIFIER and "-12.5e3" one NUMBER. Between tokens it skips WHITESPACE and COMMENT. *)

WHITESPACE = " " | ? tab, U+0009 ? | ? line feed, U+000A ? | ? carriage return, U+000D ? ;
COMMENT    = "//" { ? any character but line feed and carriage return ? }
           | "/*" { ? any character ? } "*/" ;  (* ends at the first "*/", no nesting *)

IDENTIFIER = NAME - KEYWORD ;
NAME       = ( LETTER | "_" | "$" ) { LETTER | DIGIT | "_" | "$" } ;
KEYWORD    = ${keywords} ;
LETTER     = ? A to Z, a to z ? ;
DIGIT      = ? 0 to 9 ? ;

NUMBER     = [ "-" ] INTEGER [ FRACTION ] [ EXPONENT ] ;  (* as in JSON *)
INTEGER    = "0" | ? 1 to 9 ? { DIGIT } ;
FRACTION   = "." DIGIT { DIGIT } ;
EXPONENT   = ( "e" | "E" ) [ "+" | "-" ] DIGIT { DIGIT } ;
(* A NUMBER may not run into a letter, digit, "_", "$" or ".": 01, 1.2.3, 0x1F, 1_000 and 10n
   are errors, and so are +1 and .5 *)

STRING     = '"' { ? any character but '"', "\\" and U+0000 to U+001F ? | ESCAPE } '"'
           | "'" { ? any character but "'", "\\" and U+0000 to U+001F ? | ESCAPE } "'"
           | "\`" { ? any character but "\`" and "\\" ? | "\\" ? any character ? } "\`" ;
(* Backtick strings may span lines and are raw: a backslash and the character after it stand
   for themselves, except that \\\` stands for a backtick. *)
ESCAPE     = "\\" ( '"' | "'" | "\`" | "\\" | "/" | "b" | "f" | "n" | "r" | "t" | "u" HEX HEX HEX HEX ) ;
HEX        = DIGIT | ? A to F, a to f ? ;

(* The scanner also reads ";", ".", "=", "=>" and operators such as "+" or "&&" so that the
   diagnostics can explain them; no rule accepts them. *)
`;
}

/** Renders a sequence of GAST nodes as juxtaposed EBNF. */
function renderSequence(nodes: readonly GastNode[]): string {
  return nodes.length === 0 ? '(* nothing *)' : nodes.map(renderNode).join(' ');
}

function renderNode(node: GastNode): string {
  const body = renderSequence(node.definition ?? []);
  const separated = (): string => {
    if (node.separator === undefined) throw new Error(`${node.type} without a separator`);
    return `${body} { ${presented(node.separator)} ${body} }`;
  };
  switch (node.type) {
    case 'NonTerminal':
      if (node.name === undefined) throw new Error('a rule reference without a name');
      return node.name;
    case 'Terminal':
      return presented(node);
    case 'Alternative':
      return body;
    case 'Alternation':
      return `( ${alternatives(node).join(' | ')} )`;
    case 'Option':
      return `[ ${body} ]`;
    case 'Repetition':
      return `{ ${body} }`;
    case 'RepetitionMandatory':
      return `${body} { ${body} }`;
    case 'RepetitionWithSeparator':
      return `[ ${separated()} ]`;
    case 'RepetitionMandatoryWithSeparator':
      return separated();
    case 'Rule':
      throw new Error('a rule nested in a rule');
  }
}

function alternatives(alternation: GastNode): string[] {
  return (alternation.definition ?? []).map((alternative) => renderSequence(alternative.definition ?? []));
}

/** One EBNF rule; a rule that is a single alternation is written without parentheses. */
function renderRule(rule: GastRule, nameWidth: number): string {
  const head = `${rule.name.padEnd(nameWidth)} = `;
  const only = rule.definition.length === 1 ? rule.definition[0] : undefined;
  if (only?.type !== 'Alternation') return `${head}${renderSequence(rule.definition)} ;`;
  const alts = alternatives(only);
  const oneLine = `${head}${alts.join(' | ')} ;`;
  if (oneLine.length <= MAX_WIDTH) return oneLine;
  const indent = `${' '.repeat(nameWidth)} | `;
  return `${head}${alts.join(`\n${indent}`)} ;`;
}

/** UPPERCASE token names a rendered syntax uses (literal strings and comments stripped first). */
function tokenNames(syntax: string): Set<string> {
  const code = syntax.replace(/\(\*[\s\S]*?\*\)/g, ' ').replace(/"[^"]*"|'[^']*'/g, ' ');
  return new Set(code.match(/\b[A-Z][A-Z0-9_]*\b/g) ?? []);
}

/**
 * The complete `grammar/dialect.ebnf`: header, syntax rules rendered from the parser's GAST (see
 * {@link dialectSyntax}) and the hand-written lexical grammar.
 */
export function renderEbnf(): string {
  const rules = dialectSyntax();
  const nameWidth = Math.max(...rules.map((rule) => rule.name.length));
  const syntax = rules.map((rule) => renderRule(rule, nameWidth)).join('\n');
  const lexical = lexicalGrammar();
  for (const token of tokenNames(syntax)) {
    if (!new RegExp(`^${token} += `, 'm').test(lexical)) {
      throw new Error(`the syntax uses the token ${token}, which the lexical grammar in grammar/generate.ts does not define`);
    }
  }
  return `${HEADER}\n\n${SYNTAX_INTRO}\n${syntax}\n\n\n${lexical}`;
}

// ---------------------------------------------------------------------------------------------
// Syntax diagrams

/** The directory of the installed chevrotain package (its `exports` hide `package.json`). */
function chevrotainRoot(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('chevrotain'));
  while (!existsSync(join(dir, 'diagrams', 'src', 'main.js'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find chevrotain/diagrams in node_modules');
    dir = parent;
  }
  return dir;
}

/** Replaces the one occurrence of `search`; anything else means chevrotain's template changed. */
function replaceOnce(text: string, search: string, replacement: string): string {
  const at = text.indexOf(search);
  if (at < 0 || text.indexOf(search, at + 1) >= 0) {
    throw new Error(`expected exactly one ${JSON.stringify(search)} in chevrotain's diagrams page; has its template changed?`);
  }
  return text.slice(0, at) + replacement + text.slice(at + search.length);
}

/** Reads a resource to inline, refusing text that would end the surrounding element early. */
function inlineable(path: string, closingTag: string): string {
  const text = readFileSync(path, 'utf8');
  if (text.toLowerCase().includes(closingTag) || text.includes('<!--')) {
    throw new Error(`${path} contains ${closingTag} or <!-- and cannot be inlined as is`);
  }
  return text.endsWith('\n') ? text : `${text}\n`;
}

/**
 * The complete `grammar/diagrams.html`: Chevrotain's syntax diagrams page for
 * {@link dialectSyntax}, with the railroad-diagrams library, chevrotain's diagram scripts and
 * its stylesheet inlined instead of loaded from unpkg.com, so it works offline and from file://.
 */
export function renderDiagramsHtml(): string {
  const root = chevrotainRoot();
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  // Placeholder locations, each replaced below by the content of the file they name.
  const base = 'inline:/';
  const css = 'inline:/diagrams.css';
  let html = createSyntaxDiagramsCode(dialectSyntax(), { resourceBase: base, css });

  html = replaceOnce(
    html,
    '<!-- This is a generated file -->',
    `<!-- Generated by grammar/generate.ts from dialect/grammar.ts; regenerate with: npm run grammar.
     Chevrotain ${version} syntax diagrams, with their scripts and stylesheet inlined to work offline. -->`,
  );
  html = replaceOnce(html, '<meta charset="utf-8">', '<meta charset="utf-8">\n<title>Dialect syntax diagrams</title>');
  html = replaceOnce(
    html,
    `<link rel='stylesheet' href='${css}'>`,
    `<style>\n${inlineable(join(root, 'diagrams', 'diagrams.css'), '</style')}</style>`,
  );
  for (const script of ['vendor/railroad-diagrams.js', 'src/diagrams_builder.js', 'src/diagrams_behavior.js', 'src/main.js']) {
    html = replaceOnce(
      html,
      `<script src='${base}${script}'></script>`,
      `<script>\n${inlineable(join(root, 'diagrams', script), '</script')}</script>`,
    );
  }
  if (html.includes('inline:/')) throw new Error('a diagrams resource was left uninlined');
  return html;
}

// ---------------------------------------------------------------------------------------------

/** Writes both generated files. */
export function writeGrammarFiles(): void {
  writeFileSync(ebnfPath, renderEbnf());
  writeFileSync(diagramsPath, renderDiagramsHtml());
}

// Only when run as a script: the tests import this module to compare against the committed files.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeGrammarFiles();
  console.log(`wrote ${ebnfPath}\nwrote ${diagramsPath}`);
}
