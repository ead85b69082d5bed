/**
 * The registry: the functions, types and conversions one interpreter knows. It is the single
 * description of the language's vocabulary: the interpreter validates calls against it, `help()`
 * prints it, and the MCP tool description and REPL completion are generated from it.
 *
 * There is no global registry: every interpreter gets its own (see `createRegistry`).
 */
import { MAX_LABEL_LENGTH, truncate } from './display.js';
import type { DialectCode } from './codes.js';
import { build, type CallExpr, type Expr } from './ast.js';
import { printValue, valueToExpr } from './printer.js';
import type { Ambiguity, Candidate } from './outcome.js';
import type { Span } from './source.js';
import { formatType, parseType, typeNames, type TypeExpr } from './types.js';

/** Thrown at registration time: duplicate names, bad types, missing examples. */
export class RegistryError extends Error {
  override readonly name = 'RegistryError';
}

/** A parameter of a function. */
export interface ParameterDefinition {
  readonly name: string;
  /** A type expression, e.g. `string | symbol[]`. */
  readonly type: string;
  readonly description: string;
  /** Optional parameters may be omitted; `default` is then passed (or undefined). */
  readonly optional?: boolean;
  readonly default?: unknown;
  /**
   * The parameter receives an ambiguity as data instead of the evaluation ending with it
   * (`pick` and `only` resolve ambiguities).
   */
  readonly acceptsAmbiguity?: boolean;
  /**
   * `positional`: collects every remaining positional argument into an array.
   * `named`: collects every named argument that matches no other parameter into an object.
   */
  readonly rest?: 'positional' | 'named';
  /** Other names a caller may use for it by name (`symbol:` for `to:`); models guess names. */
  readonly aliases?: readonly string[];
  /**
   * The values this parameter can use, when converting its argument was ambiguous: candidates it
   * cannot use are left out (`implementations` of a name that is a trait and an enum variant
   * takes the trait). One left is the value; several stay an ambiguity among them; none keeps all.
   */
  readonly prefers?: (value: unknown) => boolean;
  /**
   * The words this parameter takes, when it takes only some (a `kind:` filter): any other word is
   * an `invalid-argument` error at the argument, with the closest words and the list. `normalize`
   * says which spellings are one word (case, spaces); `describe` names them in the message.
   */
  readonly words?: ParameterWords;
}

/** The closed set of words a parameter takes (see {@link ParameterDefinition.words}). */
export interface ParameterWords {
  /** What the words are, for the message: `a symbol kind`. */
  readonly describe: string;
  /** The words, as the list in the error shows them. */
  readonly list: () => readonly string[];
  /** Whether a written word is one of them (spellings, synonyms). */
  readonly accepts: (word: string) => boolean;
}

/** An example program with what it does. */
export interface Example {
  readonly program: string;
  readonly description?: string;
}

/** What a function implementation receives besides its arguments. */
export interface CallContext<Host> {
  /** Aborted when the evaluation is cancelled or its deadline passes. Pass it on to I/O. */
  readonly signal: AbortSignal;
  /** The embedding application's context (e.g. the workspace and its language servers). */
  readonly host: Host;
  /** The call being evaluated, as written (spans point into the program). */
  readonly call: CallExpr;
  readonly registry: Registry<Host>;
  /** Returns an ambiguity: each candidate is selected by re-running this call with `refine` added. */
  ambiguous(message: string, candidates: readonly CandidateSpec[]): Ambiguity;
  /** Throws an evaluation error located at this call. */
  fail(code: DialectCode, message: string, hint?: string): never;
  /** Adds a note to the outcome (shown once, e.g. "rust-analyzer was still indexing"). */
  note(message: string): void;
  /**
   * Counts a value this call is about to build (its estimated bytes: 2 per UTF-16 code unit)
   * against the evaluation's budget before building it, and throws `evaluation-budget-exceeded`
   * when it does not fit. The call's result is then counted less what it reserved.
   */
  reserve(bytes: number, items?: number): void;
}

/** A candidate as a function describes it: the named arguments that select it. */
export interface CandidateSpec {
  readonly label: string;
  readonly value: unknown;
  /** Named arguments to add to (or replace in) the call to select exactly this candidate. */
  readonly refine?: Readonly<Record<string, unknown>>;
  /** Or a whole replacement expression for the call. */
  readonly replacement?: Expr;
}

/**
 * What a function needs from its host before it runs (like Langium's per-handler
 * `requiredState`): `index` — the language servers' index (the host waits for it, bounded, and
 * notes when answers may be incomplete); `editor` — the editor's state (its selection): the host
 * must reach the editor's backend but needs no index; `servers` — the language servers' state
 * as the backend that runs them knows it (a background server's), without waiting for anything;
 * `workspace` — the workspace's files only (search, git);
 * `none` — nothing outside the program (the language's own functions). Hosts act on it through
 * {@link Registry.onRequires}; user interfaces read it to know whether a program needs servers.
 */
export type Requirement = 'index' | 'editor' | 'servers' | 'workspace' | 'none';

/** Prepares what a function declares it needs (see {@link Requirement}); runs after its arguments are validated. */
export type RequirementHandler<Host> = (requires: Requirement, args: Readonly<Record<string, unknown>>, ctx: CallContext<Host>) => Promise<void> | void;

/** A function of the language. */
export interface FunctionDefinition<Host = unknown> {
  readonly name: string;
  readonly aliases?: readonly string[];
  /** For models and people: what it does, in a sentence or two. */
  readonly description: string;
  readonly parameters: readonly ParameterDefinition[];
  /** A type expression for the result. */
  readonly returns: string;
  /** At least one runnable example. */
  readonly examples: readonly Example[];
  /** Groups functions in help output (e.g. "navigation", "search", "selection"). */
  readonly category?: string;
  /** What it needs before it runs; default `none`. */
  readonly requires?: Requirement;
  readonly implementation: (args: Readonly<Record<string, unknown>>, ctx: CallContext<Host>) => unknown;
}

/** A type of value. */
export interface TypeDefinition {
  readonly name: string;
  readonly description: string;
  /** Recognises values of this type. */
  readonly is: (value: unknown) => boolean;
  /** A one-line label for a value, used in ambiguities (`struct User at src/model.rs:25`). */
  readonly describe?: (value: unknown) => string;
  /**
   * Values of this type are named by text (a symbol by its name): where a parameter accepts the
   * type, a string argument is a name, and a number, boolean or null is an error at the argument
   * — never converted to text and looked up (`findReferences(42)`).
   */
  readonly namedByText?: boolean;
  /**
   * A registered function that recreates values of this type, and how to get its arguments from
   * a value: then such values print as programs (`location("src/a.rs", 3, 1)`).
   */
  readonly construct?: {
    readonly function: string;
    readonly toArguments: (value: unknown) => { readonly args?: readonly unknown[]; readonly named?: Readonly<Record<string, unknown>> };
  };
}

/** A conversion between two types; it may be async, may fail (throw) and may be ambiguous. */
export interface ConversionDefinition<Host = unknown> {
  readonly from: string;
  readonly to: string;
  readonly description: string;
  readonly convert: (value: unknown, ctx: ConversionContext<Host>) => unknown;
}

/** What a converter receives. */
export interface ConversionContext<Host> {
  readonly signal: AbortSignal;
  readonly host: Host;
  readonly registry: Registry<Host>;
  /** The argument expression being converted. */
  readonly expression: Expr;
  /** Builds an ambiguity whose candidates replace the argument expression. */
  ambiguous(message: string, candidates: readonly { label: string; value: unknown; replacement: Expr; facets?: Record<string, unknown> }[]): Ambiguity;
  note(message: string): void;
}

/** A function with its parameter types parsed. */
export interface RegisteredFunction<Host = unknown> extends FunctionDefinition<Host> {
  readonly parameterTypes: readonly TypeExpr[];
  readonly returnType: TypeExpr;
}

/** A conversion with parsed endpoints. */
export interface RegisteredConversion<Host = unknown> extends ConversionDefinition<Host> {
  readonly fromType: string;
  readonly toType: string;
}

const NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The vocabulary of one interpreter. */
export class Registry<Host = unknown> {
  readonly #functions = new Map<string, RegisteredFunction<Host>>(); // by lower-case name and alias
  readonly #functionList: RegisteredFunction<Host>[] = [];
  readonly #types = new Map<string, TypeDefinition>();
  readonly #conversions: RegisteredConversion<Host>[] = [];
  readonly #signatures = new WeakMap<object, string>();
  #requirementHandler: RequirementHandler<Host> | undefined;

  /**
   * Sets the one handler that prepares what functions declare in `requires` (e.g. waits for the
   * index); the interpreter calls it before every function that requires more than `none`.
   */
  onRequires(handler: RequirementHandler<Host>): this {
    this.#requirementHandler = handler;
    return this;
  }

  /** Prepares what `fn` requires (nothing without a handler or for `none`). */
  async prepare(fn: FunctionDefinition<Host>, args: Readonly<Record<string, unknown>>, ctx: CallContext<Host>): Promise<void> {
    const requires = fn.requires ?? 'none';
    if (requires !== 'none') await this.#requirementHandler?.(requires, args, ctx);
  }

  /** Registers a function. Duplicate names or aliases (case-insensitive) are an error. */
  registerFunction(definition: FunctionDefinition<Host>): this {
    const names = [definition.name, ...(definition.aliases ?? [])];
    for (const name of names) {
      if (!NAME.test(name)) throw new RegistryError(`function name "${name}" is not an identifier`);
      const existing = this.#functions.get(name.toLowerCase());
      if (existing !== undefined) throw new RegistryError(`"${name}" is already registered (by function ${existing.name}); names are case-insensitive`);
    }
    if (definition.examples.length === 0) throw new RegistryError(`function ${definition.name} needs at least one example program`);
    const seen = new Set<string>();
    for (const [i, p] of definition.parameters.entries()) {
      if (!NAME.test(p.name)) throw new RegistryError(`parameter "${p.name}" of ${definition.name} is not an identifier`);
      for (const n of [p.name, ...(p.aliases ?? [])]) {
        if (!NAME.test(n)) throw new RegistryError(`parameter name "${n}" of ${definition.name} is not an identifier`);
        if (seen.has(n.toLowerCase())) throw new RegistryError(`parameter name "${n}" of ${definition.name} is declared twice`);
        seen.add(n.toLowerCase());
      }
      if (p.rest !== undefined && i !== definition.parameters.length - 1 && !(p.rest === 'positional' && definition.parameters[i + 1]?.rest === 'named'))
        throw new RegistryError(`rest parameter "${p.name}" of ${definition.name} must come last`);
    }
    const parameterTypes = definition.parameters.map((p) => this.#parseType(p.type, `parameter ${p.name} of ${definition.name}`));
    const returnType = this.#parseType(definition.returns, `return type of ${definition.name}`);
    const registered: RegisteredFunction<Host> = { ...definition, parameterTypes, returnType };
    for (const name of names) this.#functions.set(name.toLowerCase(), registered);
    this.#functionList.push(registered);
    return this;
  }

  /** Registers a type. Type names are case-insensitive and unique. */
  registerType(definition: TypeDefinition): this {
    const key = definition.name.toLowerCase();
    if (!/^[a-z_][a-z0-9_]*$/.test(key)) throw new RegistryError(`type name "${definition.name}" is not an identifier`);
    if (this.#types.has(key)) throw new RegistryError(`type "${definition.name}" is already registered`);
    this.#types.set(key, definition);
    return this;
  }

  /** Registers a conversion between two registered types. */
  registerConversion(definition: ConversionDefinition<Host>): this {
    const fromType = definition.from.toLowerCase();
    const toType = definition.to.toLowerCase();
    for (const t of [fromType, toType]) if (!this.#types.has(t)) throw new RegistryError(`conversion ${definition.from} → ${definition.to}: unknown type "${t}"`);
    if (this.#conversions.some((c) => c.fromType === fromType && c.toType === toType))
      throw new RegistryError(`a conversion ${definition.from} → ${definition.to} is already registered`);
    this.#conversions.push({ ...definition, fromType, toType });
    return this;
  }

  /** Looks a function up by name or alias, case-insensitively. */
  lookup(name: string): RegisteredFunction<Host> | undefined {
    return this.#functions.get(name.toLowerCase());
  }

  /** Every function, in registration order. */
  get functions(): readonly RegisteredFunction<Host>[] {
    return this.#functionList;
  }

  /** Every name a program may call (names and aliases). */
  get callableNames(): string[] {
    return this.#functionList.flatMap((f) => [f.name, ...(f.aliases ?? [])]);
  }

  type(name: string): TypeDefinition | undefined {
    return this.#types.get(name.toLowerCase());
  }

  get types(): readonly TypeDefinition[] {
    return [...this.#types.values()];
  }

  get conversions(): readonly RegisteredConversion<Host>[] {
    return this.#conversions;
  }

  /** The registered types a value belongs to, most specific (latest registered) first. */
  typesOf(value: unknown): string[] {
    const out: string[] = [];
    for (const [name, t] of this.#types) if (name !== 'any' && t.is(value)) out.push(name);
    return out.reverse();
  }

  /** A one-line label for a value: its most specific type's `describe`, else compact Dialect. */
  describe(value: unknown): string {
    for (const t of [...this.#types.values()].reverse()) {
      if (t.describe !== undefined && t.is(value)) return t.describe(value);
    }
    const text = printValue(value, { mode: 'compact' });
    return truncate(text, MAX_LABEL_LENGTH);
  }

  /** `name(param: type, optional?: type) → result` */
  signature(fn: FunctionDefinition<Host> | RegisteredFunction<Host>): string {
    let text = this.#signatures.get(fn);
    if (text === undefined) {
      text = formatSignature(fn);
      this.#signatures.set(fn, text);
    }
    return text;
  }

  /**
   * The program that recreates a value, when a registered type with a constructor recognises it
   * (e.g. `location("src/a.rs", 3, 1)`); undefined for plain data.
   */
  toExpr(value: unknown): Expr | undefined {
    if (typeof value !== 'object' || value === null) return undefined;
    for (const t of [...this.#types.values()].reverse()) {
      if (t.construct === undefined || !t.is(value)) continue;
      const { args = [], named = {} } = t.construct.toArguments(value);
      const toExpr = (v: unknown): Expr => valueToExpr(v, (inner) => (inner === v ? undefined : this.toExpr(inner)));
      return build.call(t.construct.function, args.map(toExpr), Object.entries(named).filter(([, v]) => v !== undefined).map(([k, v]) => [k, toExpr(v)] as const));
    }
    return undefined;
  }

  /** The type expression of a parameter, canonical. */
  formatType(type: TypeExpr): string {
    return formatType(type);
  }

  #parseType(text: string, what: string): TypeExpr {
    let t: TypeExpr;
    try {
      t = parseType(text);
    } catch (error) {
      throw new RegistryError(`${what}: ${(error as Error).message}`);
    }
    for (const name of typeNames(t)) if (!this.#types.has(name)) throw new RegistryError(`${what}: unknown type "${name}" (register it first)`);
    return t;
  }
}

function formatSignature<Host>(fn: FunctionDefinition<Host>): string {
  const params = fn.parameters.map((p) => {
    if (p.rest !== undefined) return `...${p.name}: ${p.type}`;
    return `${p.name}${p.optional === true ? '?' : ''}: ${p.type}`;
  });
  return `${fn.name}(${params.join(', ')}) → ${fn.returns}`;
}

/** Facets of a candidate spec: its refinement arguments. */
export function facetsOf(spec: CandidateSpec): Record<string, unknown> {
  return { ...(spec.refine ?? {}) };
}

export type { Ambiguity, Candidate, Span };
