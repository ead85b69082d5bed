/**
 * The part of VS Code's extension API this extension uses, declared by hand: `@types/vscode` is
 * not among the project's dependencies (see the README's VS Code section). The shapes follow
 * `vscode.d.ts` of VS Code 1.90+; only what the extension touches is declared. At run time the
 * module `vscode` is the editor's own (the bundle leaves it external).
 */
declare module 'vscode' {
  /** A disposable resource. */
  export interface Disposable {
    dispose(): unknown;
  }

  /** A thenable, as VS Code returns from commands. */
  export type Thenable<T> = PromiseLike<T>;

  /** A universal resource identifier. */
  export class Uri {
    static file(path: string): Uri;
    static parse(value: string): Uri;
    readonly scheme: string;
    readonly fsPath: string;
    readonly path: string;
    toString(): string;
  }

  /** A 0-based line and a 0-based character offset in UTF-16 code units. */
  export class Position {
    constructor(line: number, character: number);
    readonly line: number;
    readonly character: number;
  }

  /** A range of positions. */
  export class Range {
    constructor(start: Position, end: Position);
    readonly start: Position;
    readonly end: Position;
  }

  /** A selection in an editor. */
  export class Selection extends Range {
    readonly anchor: Position;
    readonly active: Position;
    readonly isEmpty: boolean;
  }

  /** A location in a document. */
  export class Location {
    constructor(uri: Uri, range: Range);
    readonly uri: Uri;
    readonly range: Range;
  }

  /** A link from a place in a document to a target. */
  export interface LocationLink {
    readonly originSelectionRange?: Range;
    readonly targetUri: Uri;
    readonly targetRange: Range;
    readonly targetSelectionRange?: Range;
  }

  /** Symbol kinds: LSP's kinds minus one (File = 0). */
  export enum SymbolKind {
    File = 0,
  }

  /** A flat symbol (workspace symbols, old-style document symbols). */
  export class SymbolInformation {
    readonly name: string;
    readonly containerName: string;
    readonly kind: SymbolKind;
    readonly location: Location;
  }

  /** A hierarchical document symbol. */
  export class DocumentSymbol {
    readonly name: string;
    readonly detail: string;
    readonly kind: SymbolKind;
    readonly range: Range;
    readonly selectionRange: Range;
    readonly children: DocumentSymbol[];
  }

  /** Formatted text. */
  export class MarkdownString {
    readonly value: string;
  }

  /** Deprecated hover content: plain Markdown or a code block. */
  export type MarkedString = string | { readonly language: string; readonly value: string };

  /** A hover. */
  export class Hover {
    readonly contents: Array<MarkdownString | MarkedString>;
    readonly range?: Range;
  }

  /** An item of a call hierarchy. */
  export class CallHierarchyItem {
    constructor(kind: SymbolKind, name: string, detail: string, uri: Uri, range: Range, selectionRange: Range);
    readonly name: string;
    readonly kind: SymbolKind;
    readonly detail?: string;
    readonly uri: Uri;
    readonly range: Range;
    readonly selectionRange: Range;
  }

  /** A caller. */
  export class CallHierarchyIncomingCall {
    readonly from: CallHierarchyItem;
    readonly fromRanges: Range[];
  }

  /** A callee. */
  export class CallHierarchyOutgoingCall {
    readonly to: CallHierarchyItem;
    readonly fromRanges: Range[];
  }

  /** An item of a type hierarchy. */
  export class TypeHierarchyItem {
    readonly name: string;
    readonly kind: SymbolKind;
    readonly uri: Uri;
    readonly range: Range;
    readonly selectionRange: Range;
  }

  /** Diagnostic severities (0-based, unlike LSP). */
  export enum DiagnosticSeverity {
    Error = 0,
    Warning = 1,
    Information = 2,
    Hint = 3,
  }

  /** A diagnostic. */
  export class Diagnostic {
    readonly range: Range;
    readonly message: string;
    readonly severity: DiagnosticSeverity;
    readonly source?: string;
    readonly code?: string | number | { readonly value: string | number; readonly target: Uri };
  }

  /** A line of a text document. */
  export interface TextLine {
    readonly text: string;
  }

  /** A document open in the editor (maybe with unsaved changes). */
  export interface TextDocument {
    readonly uri: Uri;
    readonly languageId: string;
    readonly version: number;
    readonly lineCount: number;
    lineAt(line: number): TextLine;
    getText(range?: Range): string;
  }

  /** An editor showing a document. */
  export interface TextEditor {
    readonly document: TextDocument;
    readonly selection: Selection;
  }

  /** A folder open in the window. */
  export interface WorkspaceFolder {
    readonly uri: Uri;
    readonly name: string;
    readonly index: number;
  }

  /** An event. */
  export type Event<T> = (listener: (e: T) => unknown) => Disposable;

  /** Environment variables the window's terminals get. */
  export interface EnvironmentVariableCollection {
    persistent: boolean;
    description: string | MarkdownString | undefined;
    replace(variable: string, value: string): void;
    delete(variable: string): void;
    clear(): void;
  }

  /** The terminal variables of a window, scoped per workspace folder. */
  export interface GlobalEnvironmentVariableCollection extends EnvironmentVariableCollection {
    getScoped(scope: { workspaceFolder?: WorkspaceFolder }): EnvironmentVariableCollection;
  }

  /** An installed extension. */
  export interface Extension<T> {
    readonly id: string;
    readonly isActive: boolean;
    readonly packageJSON: { readonly version?: string; readonly [key: string]: unknown };
    readonly exports: T;
    activate(): Thenable<T>;
  }

  /** What `activate` receives. */
  export interface ExtensionContext {
    readonly subscriptions: Disposable[];
    readonly extensionPath: string;
    readonly extension: Extension<unknown>;
    readonly environmentVariableCollection: GlobalEnvironmentVariableCollection;
  }

  /** A log channel. */
  export interface LogOutputChannel {
    info(message: string): void;
    warn(message: string): void;
    error(message: string | Error): void;
    dispose(): void;
  }

  export namespace commands {
    function executeCommand<T = unknown>(command: string, ...rest: unknown[]): Thenable<T>;
    function registerCommand(command: string, callback: (...args: unknown[]) => unknown): Disposable;
  }

  export namespace workspace {
    const workspaceFolders: readonly WorkspaceFolder[] | undefined;
    const textDocuments: readonly TextDocument[];
    const isTrusted: boolean;
    function getWorkspaceFolder(uri: Uri): WorkspaceFolder | undefined;
    function openTextDocument(uri: Uri): Thenable<TextDocument>;
  }

  /** Which documents' diagnostics changed. */
  export interface DiagnosticChangeEvent {
    readonly uris: readonly Uri[];
  }

  export namespace languages {
    function getDiagnostics(resource: Uri): Diagnostic[];
    function getDiagnostics(): [Uri, Diagnostic[]][];
    const onDidChangeDiagnostics: Event<DiagnosticChangeEvent>;
  }

  /** A tab of the editor area. */
  export interface Tab {
    readonly input: unknown;
  }

  /** A group of tabs. */
  export interface TabGroup {
    readonly tabs: readonly Tab[];
  }

  /** The editor area's tab groups. */
  export interface TabGroups {
    readonly all: readonly TabGroup[];
    close(tab: Tab, preserveFocus?: boolean): Thenable<boolean>;
  }

  /** How a document is shown. */
  export interface TextDocumentShowOptions {
    readonly preserveFocus?: boolean;
    readonly preview?: boolean;
  }

  export namespace window {
    const activeTextEditor: TextEditor | undefined;
    const tabGroups: TabGroups;
    function showTextDocument(document: TextDocument, options?: TextDocumentShowOptions): Thenable<TextEditor>;
    function createOutputChannel(name: string, options: { log: true }): LogOutputChannel;
  }

  export namespace extensions {
    function getExtension<T = unknown>(id: string): Extension<T> | undefined;
  }

  export namespace env {
    const appName: string;
  }

  export const version: string;
}
