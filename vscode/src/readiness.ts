/**
 * Which languages the editor answers for a workspace folder, and when its answers are complete.
 * VS Code announces no "project loaded" event for another extension's language features, so
 * readiness is probed, bounded: the extension that provides the language is activated, then for
 * each project (one anchor file each, as the spawned servers use) the file's outline must come
 * back and a workspace-symbol search must prove the project loaded. For TypeScript that search is
 * for a name declared in a file of the project that is not open (`project-witness.ts`), and must
 * find it there: while the TypeScript extension loads a project, a syntax-only server answers
 * from the open files alone, so a name of the open anchor proves nothing. Elsewhere (and for a
 * one-file project) it is the anchor's first name.
 * A language is `ready` only when every probe answered; otherwise it stays `indexing` and answers
 * carry a note (never "complete" when unsure).
 *
 * For a language whose extension is missing but which Dialect can serve itself (rust-analyzer:
 * `spawned-server.ts`), the provider spawns the server in the window and its readiness is the
 * server's own status (quiescent, health, warnings) — no probing.
 *
 * The anchors are kept open as documents: the TypeScript extension searches workspace symbols in
 * the projects that have an open file only, and VS Code closes documents no editor shows after a
 * few minutes — so they are opened again before every workspace-wide question (`keepOpen`), the way
 * the spawned TypeScript server gets one open file per project.
 */
import * as vscode from 'vscode';
import { builtinServers } from '../../ide-adapter/languages/index.js';
import { detectServers, type ServerDefinition } from '../../ide-adapter/lsp/servers.js';
import type { ServerStatus } from '../../ide-adapter/status.js';
import { runCommand, withDeadline } from './commands.js';
import { projectWitnesses } from './project-witness.js';
import { EDITOR_LIMITS } from './limits.js';
import type { SpawnedServer } from './spawned-server.js';

/** Starts Dialect's own server for a definition in a folder when the editor has no extension for it; undefined when it cannot. */
export type SpawnServer = (definition: ServerDefinition, root: string) => SpawnedServer | undefined;

/** How people see a server the extension spawned itself. */
const SPAWNED_SUFFIX = ' (spawned by Dialect in VS Code)';

/** The editor extension that provides a built-in server's languages. */
interface EditorProvider {
  readonly extensionId: string;
  /** How people see the editor's feature. */
  readonly displayName: string;
  /** What to install when it is missing. */
  readonly installHint: string;
}

/** The editor extensions standing in for the servers Dialect would spawn, by server id. */
export const EDITOR_PROVIDERS: Readonly<Record<string, EditorProvider>> = {
  typescript: { extensionId: 'vscode.typescript-language-features', displayName: 'TypeScript (VS Code)', installHint: 'enable the built-in "TypeScript and JavaScript Language Features" extension' },
  'rust-analyzer': { extensionId: 'rust-lang.rust-analyzer', displayName: 'rust-analyzer (VS Code)', installHint: 'install the rust-analyzer extension (rust-lang.rust-analyzer)' },
};

/** A name a symbol provider reports, as the language writes it (the TypeScript extension adds `()` to functions). */
export function plainName(name: string): string {
  return name.endsWith('()') ? name.slice(0, -2) : name;
}

/** The readiness of one language provider in the editor. */
class ProviderReadiness {
  #status: ServerStatus;
  #probe: Promise<void> | undefined;
  #spawned: SpawnedServer | undefined;

  constructor(
    readonly definition: ServerDefinition,
    readonly provider: EditorProvider,
    private readonly root: string,
    private readonly emit: (status: ServerStatus) => void,
    private readonly spawn?: SpawnServer,
  ) {
    this.#status = { id: definition.id, displayName: provider.displayName, languages: definition.languages.map((l) => l.languageId), state: 'idle' };
  }

  get status(): ServerStatus {
    return this.#status;
  }

  /** One-time warnings of a server the extension spawned (std not loaded, …); none for the editor's own. */
  get warnings(): readonly string[] {
    return this.#spawned?.warnings ?? [];
  }

  /** What the window's trust holds back of a spawned server that runs; undefined otherwise. */
  get note(): string | undefined {
    return this.#status.state === 'unavailable' ? undefined : this.#spawned?.note;
  }

  #set(status: Omit<ServerStatus, 'id' | 'displayName' | 'languages'>): void {
    this.#status = { id: this.#status.id, displayName: this.#status.displayName, languages: this.#status.languages, ...status };
    this.emit(this.#status);
  }

  #anchors: Promise<Anchors> | undefined;

  /** The files that keep the language's projects loaded, and those whose loading is probed (absolute paths), found once. */
  anchors(): Promise<Anchors> {
    this.#anchors ??= Promise.resolve(this.definition.projectAnchors?.(this.root)).then(async (found) => {
      // The JavaScript no project covers comes later (a walk of the tree); the editor opens it all at once.
      const later = await found?.later?.().catch(() => undefined);
      const loose = new Set(later?.files ?? []);
      const projects = (found?.files ?? []).slice(0, EDITOR_LIMITS.maxProbedProjects);
      // Loose scripts all answer from one inferred project once open: one probe says the provider answers.
      const looseFiles = [...loose];
      return { open: [...projects, ...looseFiles], probed: [...projects, ...looseFiles.slice(0, 1)], loose };
    });
    return this.#anchors;
  }

  /** Opens every anchor as a document (again, if VS Code closed it), bounded; its project stays loaded. */
  async keepOpen(): Promise<void> {
    if (this.#status.state === 'unavailable') return;
    const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.fsPath));
    const missing = (await this.anchors()).open.filter((a) => !open.has(a));
    await withDeadline(Promise.all(missing.map((a) => Promise.resolve(vscode.workspace.openTextDocument(vscode.Uri.file(a))).catch(() => undefined))), EDITOR_LIMITS.commandTimeoutMs);
  }

  /** Starts probing once (again after a probe ran out of time); resolves when the probe ends. */
  probe(): Promise<void> {
    this.#probe ??= this.#run().finally(() => {
      // A probe that ran out of time may succeed later: the next wait probes again.
      if (this.#status.state !== 'ready' && this.#status.state !== 'unavailable') this.#probe = undefined;
    });
    return this.#probe;
  }

  async #run(): Promise<void> {
    const extension = vscode.extensions.getExtension(this.provider.extensionId);
    if (extension === undefined && this.#spawned === undefined) this.#startSpawned();
    if (this.#spawned !== undefined) {
      await this.keepOpen();
      await this.#spawned.settled(Date.now() + EDITOR_LIMITS.defaultReadyTimeoutMs);
      return;
    }
    if (extension === undefined) {
      this.#set({ state: 'unavailable', detail: `VS Code has no ${this.provider.extensionId} extension, so its files get text search only: ${this.provider.installHint}` });
      return;
    }
    this.#set({ state: 'starting' });
    if (!extension.isActive) await withDeadline(Promise.resolve(extension.activate()), EDITOR_LIMITS.activationTimeoutMs);
    const { probed: anchors, loose } = await this.anchors();
    await this.keepOpen();
    const deadline = Date.now() + EDITOR_LIMITS.defaultReadyTimeoutMs;
    // Until one project has answered with names, an empty outline may only mean "no provider yet";
    // after that it means the file declares nothing of its own (a re-export index).
    let answeredOnce = false;
    let pending = [...anchors];
    for (;;) {
      const done = anchors.length - pending.length;
      this.#set({ state: 'indexing', progress: { title: 'VS Code: loading projects', message: `${done}/${anchors.length}`, percentage: Math.round((100 * done) / Math.max(1, anchors.length)) } });
      const answers = new Map<string, ProbeAnswer>();
      // A loose script has no project to load (all of them are open): nothing to witness.
      for (const anchor of pending) answers.set(anchor, await probeOnce(anchor, deadline, this.definition.id === TYPESCRIPT && !loose.has(anchor)));
      answeredOnce ||= [...answers.values()].includes('indexed');
      pending = pending.filter((a) => answers.get(a) === 'no answer' || (answers.get(a) === 'empty' && !answeredOnce));
      if (pending.length === 0) break;
      if (Date.now() >= deadline) {
        this.#set({ state: 'indexing', detail: `VS Code's ${this.provider.displayName} did not answer for ${pending.join(', ')} yet` });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, EDITOR_LIMITS.probeIntervalMs));
    }
    this.#set({ state: 'ready' });
  }

  /** Spawns Dialect's own server (once) and mirrors its status as this provider's. */
  #startSpawned(): void {
    const spawned = this.spawn?.(this.definition, this.root);
    if (spawned === undefined) return;
    this.#spawned = spawned;
    const mirror = (status: ServerStatus): void => {
      this.#status = { ...status, displayName: `${this.definition.displayName}${SPAWNED_SUFFIX}` };
      this.emit(this.#status);
    };
    spawned.onStatus(mirror);
    mirror(spawned.status);
  }
}

/** A language's anchors (absolute paths): every file kept open, the ones probed, and the loose scripts among them. */
interface Anchors {
  readonly open: readonly string[];
  readonly probed: readonly string[];
  readonly loose: ReadonlySet<string>;
}

/** The built-in server whose editor extension answers from open files alone while it loads a project. */
const TYPESCRIPT = 'typescript';

/** What one probe of a project's anchor found. */
type ProbeAnswer = 'indexed' | 'empty' | 'no answer';

/**
 * One probe of a project's anchor: `indexed` when the editor outlines the file and a workspace
 * search proves the project loaded (with `witnessed`, it finds a name of a closed file of the
 * project in that file; else it answers the anchor's first name); `empty` when the outline came
 * back empty; `no answer` otherwise.
 */
async function probeOnce(file: string, deadline: number, witnessed: boolean): Promise<ProbeAnswer> {
  const uri = vscode.Uri.file(file);
  const remaining = (): number => Math.max(1, deadline - Date.now());
  const outline = await runCommand<vscode.DocumentSymbol[] | undefined>('vscode.executeDocumentSymbolProvider', [uri], { timeoutMs: remaining() }).then(
    (symbols) => symbols ?? [],
    () => undefined,
  );
  if (outline === undefined) return 'no answer';
  // VS Code answers `undefined` for an empty outline.
  const first = outline[0];
  if (first === undefined) return 'empty';
  if (witnessed) {
    // Looked for again on every probe: a file the reader opened meanwhile proves nothing any more.
    const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.fsPath));
    const witnesses = projectWitnesses(file, (f) => open.has(f));
    for (const witness of witnesses) {
      const found = await runCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', [witness.name], { timeoutMs: remaining() }).catch(() => undefined);
      if (found?.some((s) => s.location.uri.fsPath === witness.file) === true) return 'indexed';
    }
    if (witnesses.length > 0) return 'no answer';
  }
  const found = await runCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', [plainName(first.name)], { timeoutMs: remaining() }).catch(() => undefined);
  // Found anywhere: the name may be declared in another file of the project.
  return found !== undefined && found.length > 0 ? 'indexed' : 'no answer';
}

/** The editor's language providers for one workspace folder. */
export class EditorLanguages {
  readonly #listeners = new Set<(status: ServerStatus) => void>();
  #providers: Promise<ProviderReadiness[]> | undefined;
  #known: readonly ProviderReadiness[] = [];

  /** `spawn` starts Dialect's own server for a language whose editor extension is missing. */
  constructor(
    private readonly root: string,
    private readonly spawn?: SpawnServer,
  ) {}

  /** The built-in server definitions whose languages the editor may answer (for `handles`, module paths). */
  readonly definitions: readonly ServerDefinition[] = builtinServers();

  /** The providers the folder needs (detected like the spawned servers), created once. */
  providers(): Promise<ProviderReadiness[]> {
    this.#providers ??= detectServers(this.root, this.definitions).then((detected) => {
      this.#known = detected
        .map((d) => d.definition)
        .filter((d) => EDITOR_PROVIDERS[d.id] !== undefined)
        .map((d) => new ProviderReadiness(d, EDITOR_PROVIDERS[d.id] as EditorProvider, this.root, (s) => this.#emit(s), this.spawn));
      return [...this.#known];
    });
    return this.#providers;
  }

  /** The status of every provider found so far. */
  statuses(): ServerStatus[] {
    return this.#known.map((p) => p.status);
  }

  /** The one-time warnings of every provider (a spawned server's known problems). */
  warnings(): string[] {
    return this.#known.flatMap((p) => p.warnings);
  }

  /** The notes of every provider (an untrusted window's restrictions of a spawned server). */
  notes(): string[] {
    return this.#known.flatMap((p) => (p.note !== undefined ? [p.note] : []));
  }

  /** Keeps one document of every project of every language open (see the module comment). */
  async keepProjectsOpen(): Promise<void> {
    await Promise.all((await this.providers()).map((p) => p.keepOpen()));
  }

  /** Whether the editor has no provider for a language it would need (so its files get no answers). */
  unavailable(languageId: string): boolean {
    return this.#known.some((p) => p.status.state === 'unavailable' && p.status.languages.includes(languageId));
  }

  /** Calls `listener` on every status change; returns the unsubscribe function. */
  onStatus(listener: (status: ServerStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(status: ServerStatus): void {
    for (const listener of this.#listeners) listener(status);
  }
}
