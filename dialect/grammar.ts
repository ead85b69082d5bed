/**
 * The Dialect grammar as a pure Chevrotain CST parser: rules only, no semantic actions. The CST is
 * turned into the AST by `cst-to-ast.ts`; errors are explained by `syntax-errors.ts`. The EBNF in
 * `grammar/dialect.ebnf` and the syntax diagrams are generated from this class, so it is the one
 * source of truth for the syntax.
 */
import { CstParser, type CstNode } from 'chevrotain';
import {
  Colon, Comma, False, Identifier, LBrace, LBracket, LParen, Null, NumberLiteral, RBrace, RBracket,
  RParen, StringLiteral, True, Undefined, allTokenTypes,
} from './tokens.js';

const VALUE = { LABEL: 'value' } as const;
const KEY = { LABEL: 'key' } as const;

/**
 * Values are inlined into their containers (a `value` is consumed right inside `array`, `object`,
 * `argument`) instead of going through a separate rule: an atom then costs a token, not a rule
 * invocation and a CST node, which makes megabyte-sized JSON several times faster to parse. The
 * `value` and `key` labels keep the CST children in source order.
 */
export class DialectGrammar extends CstParser {
  /**
   * `validate`: run Chevrotain's grammar validations (ambiguities, left recursion…) while building.
   * They take about half of the build, which every command pays on its first parse (measured,
   * BENCHMARKS.md "Start-up"), and the grammar is fixed: the tests and the grammar generator
   * validate it; the shared runtime parser skips them.
   */
  constructor(options: { readonly validate?: boolean } = {}) {
    super(allTokenTypes, { recoveryEnabled: false, maxLookahead: 2, skipValidations: options.validate !== true });
    this.performSelfAnalysis();
  }

  /** A program is exactly one value. */
  readonly program = this.RULE('program', () => {
    this.value(0);
  });

  /** `name(positional, …, named: value, …)`; trailing comma allowed. */
  readonly call = this.RULE('call', () => {
    this.CONSUME(Identifier, { LABEL: 'callee' });
    this.CONSUME(LParen);
    this.OPTION(() => {
      this.SUBRULE(this.argument);
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.argument);
      });
      this.OPTION2(() => this.CONSUME2(Comma));
    });
    this.CONSUME(RParen);
  });

  /** A positional argument (`value`) or a named one (`name: value`). */
  readonly argument = this.RULE('argument', () => {
    this.OPTION(() => {
      this.CONSUME(Identifier, { LABEL: 'name' });
      this.CONSUME(Colon);
    });
    this.value(1);
  });

  /** `{key: value, …}`; trailing comma allowed. */
  readonly object = this.RULE('object', () => {
    this.CONSUME(LBrace);
    this.OPTION(() => {
      this.key(1);
      this.CONSUME1(Colon);
      this.value(2);
      this.MANY(() => {
        this.CONSUME3(Comma);
        this.key(3);
        this.CONSUME4(Colon);
        this.value(4);
      });
      this.OPTION2(() => this.CONSUME5(Comma));
    });
    this.CONSUME(RBrace);
  });

  /** `[value, …]`; trailing comma allowed. */
  readonly array = this.RULE('array', () => {
    this.CONSUME(LBracket);
    this.OPTION(() => {
      this.value(1);
      this.MANY(() => {
        this.CONSUME2(Comma);
        this.value(2);
      });
      this.OPTION2(() => this.CONSUME3(Comma));
    });
    this.CONSUME(RBracket);
  });

  /** A value: a call, an object, an array, a literal or a name (`idx` tells Chevrotain the occurrence). */
  private value(idx: number): void {
    this.or(idx, [
      { ALT: () => this.subrule(idx, this.call, VALUE) },
      { ALT: () => this.subrule(idx, this.object, VALUE) },
      { ALT: () => this.subrule(idx, this.array, VALUE) },
      { ALT: () => this.consume(idx, StringLiteral, VALUE) },
      { ALT: () => this.consume(idx, NumberLiteral, VALUE) },
      { ALT: () => this.consume(idx, True, VALUE) },
      { ALT: () => this.consume(idx, False, VALUE) },
      { ALT: () => this.consume(idx, Null, VALUE) },
      { ALT: () => this.consume(idx, Undefined, VALUE) },
      // A bare name that is not a call: a reference to a name the host binds (the REPL's `_`).
      // Any other bare name is rejected when the CST becomes the AST, with a hint to quote it.
      { ALT: () => this.consume(idx, Identifier, VALUE) },
    ]);
  }

  /** A property key: a string or a bare word (keywords included, as in JavaScript). */
  private key(idx: number): void {
    this.or(idx + 10, [
      { ALT: () => this.consume(idx + 10, StringLiteral, KEY) },
      { ALT: () => this.consume(idx + 10, Identifier, KEY) },
      { ALT: () => this.consume(idx + 10, True, KEY) },
      { ALT: () => this.consume(idx + 10, False, KEY) },
      { ALT: () => this.consume(idx + 10, Null, KEY) },
      { ALT: () => this.consume(idx + 10, Undefined, KEY) },
    ]);
  }
}

/** The one parser instance (Chevrotain parsers are built once and reused by resetting `input`). */
let instance: DialectGrammar | undefined;

/** The shared parser instance, built on first use. */
export function grammar(): DialectGrammar {
  instance ??= new DialectGrammar();
  return instance;
}

export type { CstNode };
