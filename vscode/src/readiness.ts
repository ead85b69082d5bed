/**
 * Which languages the editor answers for a workspace folder, and when its answers are complete.
 * VS Code announces no "project loaded" event for another extension's language features, so
 * readiness is probed, bounded: the extension that provides the language is activated, then for
 * each project (one anchor file each, as the spawned servers use) the file's outline must come
 * back and a workspace-symbol search for one of its names must find it (the project is indexed).
 * A language is `ready` only when every probe answered; otherwise it stays `indexing` and answers
 * carry a note (never "complete" when unsure).
 */
import * as vscode from 'vscode';
import { builtinServers, detectServers, type ServerDefinition } from '../../ide-adapter/lsp/servers.js';
import type { ServerStatus } from '../../ide-adapter/status.js';
import { runCommand, withDeadline } from './commands.js';
import { EDITOR_LIMITS } from './limits.js';

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

  constructor(
    readonly definition: ServerDefinition,
    readonly provider: EditorProvider,
    private readonly root: string,
    private readonly emit: (status: ServerStatus) => void,
  ) {
    this.#status = { id: definition.id, displayName: provider.displayName, languages: definition.languages.map((l) => l.languageId), state: 'idle' };
  }

  get status(): ServerStatus {
    return this.#status;
  }

  #set(status: Omit<ServerStatus, 'id' | 'displayName' | 'languages'>): void {
    this.#status = { id: this.#status.id, displayName: this.#status.displayName, languages: this.#status.languages, ...status };
    this.emit(this.#status);
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
    if (extension === undefined) {
      this.#set({ state: 'unavailable', detail: `VS Code has no ${this.provider.extensionId} extension, so its files get text search only: ${this.provider.installHint}` });
      return;
    }
    this.#set({ state: 'starting' });
    if (!extension.isActive) await withDeadline(Promise.resolve(extension.activate()), EDITOR_LIMITS.activationTimeoutMs);
    const anchors = ((await this.definition.projectAnchors?.(this.root))?.files ?? []).slice(0, EDITOR_LIMITS.maxProbedProjects);
    const deadline = Date.now() + EDITOR_LIMITS.defaultReadyTimeoutMs;
    let done = 0;
    for (const anchor of anchors) {
      this.#set({ state: 'indexing', progress: { title: 'VS Code: loading projects', message: `${done}/${anchors.length}`, percentage: Math.round((100 * done) / anchors.length) } });
      if (!(await probeProject(anchor, deadline))) {
        this.#set({ state: 'indexing', detail: `VS Code's ${this.provider.displayName} did not answer for ${anchor} yet` });
        return;
      }
      done++;
    }
    this.#set({ state: 'ready' });
  }
}

/** Whether the editor outlines `file` and finds one of its names by workspace search before `deadline`. */
async function probeProject(file: string, deadline: number): Promise<boolean> {
  const uri = vscode.Uri.file(file);
  while (Date.now() < deadline) {
    const remaining = deadline - Date.now();
    const outline = await runCommand<vscode.DocumentSymbol[] | undefined>('vscode.executeDocumentSymbolProvider', [uri], { timeoutMs: remaining }).catch(() => undefined);
    const name = outline?.[0] !== undefined ? plainName(outline[0].name) : undefined;
    if (name !== undefined) {
      const found = await runCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', [name], { timeoutMs: Math.max(1, deadline - Date.now()) }).catch(() => undefined);
      if (found?.some((s) => s.location.uri.fsPath === file) === true) return true;
    }
    await new Promise((resolve) => setTimeout(resolve, EDITOR_LIMITS.probeIntervalMs));
  }
  return false;
}

/** The editor's language providers for one workspace folder. */
export class EditorLanguages {
  readonly #listeners = new Set<(status: ServerStatus) => void>();
  #providers: Promise<ProviderReadiness[]> | undefined;
  #known: readonly ProviderReadiness[] = [];

  constructor(private readonly root: string) {}

  /** The built-in server definitions whose languages the editor may answer (for `handles`, module paths). */
  readonly definitions: readonly ServerDefinition[] = builtinServers();

  /** The providers the folder needs (detected like the spawned servers), created once. */
  providers(): Promise<ProviderReadiness[]> {
    this.#providers ??= detectServers(this.root).then((detected) => {
      this.#known = detected
        .map((d) => d.definition)
        .filter((d) => EDITOR_PROVIDERS[d.id] !== undefined)
        .map((d) => new ProviderReadiness(d, EDITOR_PROVIDERS[d.id] as EditorProvider, this.root, (s) => this.#emit(s)));
      return [...this.#known];
    });
    return this.#providers;
  }

  /** The status of every provider found so far. */
  statuses(): ServerStatus[] {
    return this.#known.map((p) => p.status);
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
