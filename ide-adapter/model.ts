/**
 * The values IDE functions return. Every position is 1-based (line, and column counted in Unicode
 * code points) and every path is relative to the workspace root with `/` separators, both in and
 * out, so any result can be passed back as an argument.
 */

/** A 1-based position. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** A place in a file: where it starts and ends, and the text of its first line. */
export interface Location {
  readonly path: string;
  readonly start: Position;
  readonly end: Position;
  /** The text of the start line (without its line break). */
  readonly content: string;
}

/** One declaration of a symbol declared in several places (overloads, interface + namespace, …). */
export interface SymbolDeclaration {
  readonly kind: string;
  readonly definedAt: Location;
}

/** A symbol definition. `definedAt` covers the symbol's name (its selection range). */
export interface SymbolDefinition {
  readonly name: string;
  /**
   * The kind in the language's own words: `function`, `method`, `struct`, `class`, `trait`,
   * `impl`, `macro`, `type alias`, `enum variant`, `namespace`, `enum member`, …
   */
  readonly kind: string;
  /** The enclosing symbol (`impl User`, `TaskService`), when the server reports one. */
  readonly container?: string;
  /** The language of the file (`rust`, `typescript`, …). */
  readonly language?: string;
  readonly definedAt: Location;
  /**
   * Every declaration, in file order, when the symbol has several: the overload signatures of one
   * function, or an interface (class, function, enum) and the namespace merged with it. They are
   * one symbol; `definedAt` is the main one (the type or function; the implementation signature).
   */
  readonly declarations?: readonly SymbolDeclaration[];
}

/** A use of a symbol: the definition it refers to, and where it is used. */
export interface Reference extends SymbolDefinition {
  readonly referencedAt: Location;
}

/** A regex match: the matched text and its place. */
export interface SearchMatch extends Location {
  readonly match: string;
}

/** What `getSymbolInfo` returns. */
export interface SymbolInfo extends SymbolDefinition {
  /** The signature or type as the language server shows it (first code block of its hover). */
  readonly signature?: string;
  /** Documentation from the hover, as Markdown. */
  readonly documentation?: string;
}

/** How serious a diagnostic is, as LSP grades it. */
export type DiagnosticSeverity = 'error' | 'warning' | 'info' | 'hint';

/** The severities from most to least serious. */
export const DIAGNOSTIC_SEVERITIES: readonly DiagnosticSeverity[] = ['error', 'warning', 'info', 'hint'];

/**
 * An error or warning a language server reports: a location (the code it is about) plus what is
 * wrong, so it can be passed wherever a location is expected (`lines`, `symbolAt`, walkthroughs).
 */
export interface Diagnostic extends Location {
  readonly severity: DiagnosticSeverity;
  readonly message: string;
  /** The server's code for it (`E0308`, `2322`), when it has one. */
  readonly code?: string;
  /** Who reported it (`rust-analyzer`, `ts`, `rustc`). */
  readonly source?: string;
}

/** A file changed between two revisions, with its hunks. */
export interface DiffFile {
  readonly path: string;
  readonly oldPath?: string;
  readonly status: 'added' | 'deleted' | 'modified' | 'renamed' | 'copied' | 'binary';
  readonly additions: number;
  readonly deletions: number;
  readonly hunks: readonly DiffHunk[];
  /** Lines of its hunks not kept: the diff had more than `MAX_DIFF_LINES` (`git.ts`); the counts include them. */
  readonly linesLeftOut?: number;
}

/** One hunk of a file diff. */
export interface DiffHunk {
  readonly header: string;
  readonly oldStart: number;
  readonly newStart: number;
  readonly lines: readonly DiffLine[];
}

/** One line of a hunk: added, removed or context, with its line numbers. */
export interface DiffLine {
  readonly kind: 'context' | 'added' | 'removed';
  readonly text: string;
  readonly oldLine?: number;
  readonly newLine?: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPosition = (v: unknown): v is Position => isObject(v) && typeof v['line'] === 'number' && typeof v['column'] === 'number';

/** Recognises a `Location` (and every value shaped like one, such as a `SearchMatch`). */
export function isLocation(v: unknown): v is Location {
  return isObject(v) && typeof v['path'] === 'string' && isPosition(v['start']) && isPosition(v['end']);
}

/** Recognises a `SymbolDefinition` (and a `Reference` or `SymbolInfo`, which extend it). */
export function isSymbolDefinition(v: unknown): v is SymbolDefinition {
  return isObject(v) && typeof v['name'] === 'string' && typeof v['kind'] === 'string' && isLocation(v['definedAt']);
}

/** Recognises a `Diagnostic`. */
export function isDiagnostic(v: unknown): v is Diagnostic {
  return isLocation(v) && typeof (v as unknown as Record<string, unknown>)['message'] === 'string' && DIAGNOSTIC_SEVERITIES.includes((v as unknown as Record<string, unknown>)['severity'] as DiagnosticSeverity);
}

/** Whether a value is a {@link Reference}. */
export function isReference(v: unknown): v is Reference {
  return isSymbolDefinition(v) && isLocation((v as unknown as Record<string, unknown>)['referencedAt']);
}

/**
 * The code locations a result points at, for anything that shows results in code (walkthrough
 * comments, editor decorations): a reference is where it is used, a symbol where it is defined,
 * a location itself; lists are flattened; anything else has none.
 */
export function locationsOf(value: unknown): Location[] {
  if (Array.isArray(value)) return value.flatMap(locationsOf);
  if (isReference(value)) return [value.referencedAt];
  if (isSymbolDefinition(value)) return [value.definedAt];
  if (isLocation(value)) return [{ path: value.path, start: value.start, end: value.end, content: typeof value.content === 'string' ? value.content : '' }];
  return [];
}

/**
 * `path:line:column`, the form terminals and editors turn into links; also the one key of a
 * location's start (two locations with the same key start at the same place).
 */
export function formatLocation(location: Location): string {
  return `${location.path}:${location.start.line}:${location.start.column}`;
}

/** Whether two positions are the same line and column. */
export function samePosition(a: Position, b: Position): boolean {
  return a.line === b.line && a.column === b.column;
}

/** Whether two locations start at the same place (same path, line and column). */
export function sameStart(a: Location, b: Location): boolean {
  return a.path === b.path && samePosition(a.start, b.start);
}

/** The one order of locations: by path (code-unit order), then line, then column. */
export function compareLocations(a: Location, b: Location): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : a.start.line - b.start.line || a.start.column - b.start.column;
}
