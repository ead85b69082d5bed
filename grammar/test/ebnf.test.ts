import { readFileSync } from 'node:fs';
import { CstParser, createToken, Lexer, type ISerializedGast } from 'chevrotain';
import { describe, expect, it } from 'vitest';
import { DialectGrammar } from '../../dialect/grammar.js';
import { diagramsPath, dialectSyntax, ebnfPath, factorLabelledAlternations, renderDiagramsHtml, renderEbnf } from '../generate.js';

const STALE = 'stale: run `npm run grammar` and commit grammar/dialect.ebnf and grammar/diagrams.html';

/** Names the EBNF defines, in order (a definition is a name at the start of a line followed by `=`). */
function definedNames(ebnf: string): string[] {
  return [...ebnf.matchAll(/^([A-Za-z_][A-Za-z0-9_]*) *= /gm)].map((match) => match[1] ?? '');
}

describe('grammar/dialect.ebnf', () => {
  const ebnf = renderEbnf();

  it('is exactly what the parser generates', () => {
    expect(readFileSync(ebnfPath, 'utf8'), STALE).toBe(ebnf);
  });

  it('defines every parser rule once, plus the factored-out value and key', () => {
    const names = definedNames(ebnf);
    const parserRules = Object.keys(new DialectGrammar().getGAstProductions());
    for (const rule of [...parserRules, 'value', 'key']) expect(names.filter((name) => name === rule), rule).toHaveLength(1);
  });

  it('writes value and key out once instead of inlining their alternatives at every use', () => {
    // Each alternation appears in its own rule only: the keyword list once in value, once in key.
    const syntax = ebnf.slice(0, ebnf.indexOf('Lexical grammar'));
    expect(syntax.match(/"undefined"/g)).toHaveLength(2);
    expect(syntax).toMatch(/^program += value ;$/m);
  });

  it('says it is generated and how to regenerate it', () => {
    expect(ebnf).toContain('GENERATED FILE');
    expect(ebnf).toContain('npm run grammar');
  });
});

describe('the grammar', () => {
  it('passes Chevrotain\'s validations (the runtime parser skips them to start faster)', () => {
    // Chevrotain throws "Parser Definition Errors detected" from the constructor when a validation fails.
    expect(() => new DialectGrammar({ validate: true })).not.toThrow();
  });
});

describe('factoring labelled alternations', () => {
  const A = createToken({ name: 'A', pattern: Lexer.NA, label: "'a'" });
  const B = createToken({ name: 'B', pattern: Lexer.NA, label: "'b'" });
  const Word = createToken({ name: 'WordToken', pattern: Lexer.NA });

  /** A toy parser with an inlined, labelled alternation used twice, the second one optionally different. */
  function toyGrammar(secondDiffers: boolean): ISerializedGast[] {
    class Toy extends CstParser {
      constructor() {
        super([A, B, Word]);
        this.performSelfAnalysis();
      }
      readonly pair = this.RULE('pair', () => {
        this.atom(1);
        this.CONSUME(Word);
        this.atom(2);
      });
      private atom(idx: number): void {
        this.or(idx, [
          { ALT: () => this.consume(idx, A, { LABEL: 'atom' }) },
          { ALT: () => this.consume(idx, secondDiffers && idx === 2 ? Word : B, { LABEL: 'atom' }) },
        ]);
      }
    }
    return new Toy().getSerializedGastProductions();
  }

  it('names identical labelled alternations after their label and places the rule after its first user', () => {
    const rules = factorLabelledAlternations(toyGrammar(false));
    expect(rules.map((rule) => rule.name)).toEqual(['pair', 'atom']);
    expect(JSON.stringify(rules[0])).not.toContain('Alternation');
  });

  it('refuses to give one name to two different alternations', () => {
    expect(() => factorLabelledAlternations(toyGrammar(true))).toThrow(/different alternations carry the label 'atom'/);
  });
});

describe('grammar/diagrams.html', () => {
  const html = renderDiagramsHtml();

  it('is exactly what the parser generates', () => {
    expect(readFileSync(diagramsPath, 'utf8'), STALE).toBe(html);
  });

  it('loads nothing from the network', () => {
    // URLs remain in the inlined scripts' comments and as SVG namespace names; neither is fetched.
    expect(html).not.toMatch(/<script[^>]*\bsrc\s*=/i);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?\/\//i);
    expect(html).not.toMatch(/url\(\s*["']?\s*(?:https?:)?\/\//i);
    expect(html).not.toMatch(/@import/i);
    expect(html).not.toContain('unpkg');
  });

  it('inlines the diagram scripts it runs', () => {
    expect(html).toContain('root.railroad');
    expect(html).toContain('drawDiagramsFromSerializedGrammar: function');
  });

  it('draws every rule of the EBNF', () => {
    const json = /window\.serializedGrammar = ([\s\S]*?);\s*<\/script>/.exec(html)?.[1];
    expect(json).toBeDefined();
    const drawn = (JSON.parse(json ?? '[]') as { name: string }[]).map((rule) => rule.name);
    const syntaxRules = dialectSyntax().map((rule) => rule.name);
    expect(drawn).toEqual(syntaxRules);
    expect(definedNames(renderEbnf()).filter((name) => /^[a-z]/.test(name))).toEqual(syntaxRules);
    for (const name of syntaxRules) expect(html).toContain(`"name": "${name}"`);
  });
});
