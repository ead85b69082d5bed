/**
 * The adapter pattern inside the editor: for a language the window has no extension for, the
 * Dialect extension starts the server itself with `vscode-languageclient`, so VS Code's own
 * `execute*Provider` commands answer its files (the client registers the providers). The server is
 * found, configured and restricted exactly as the spawned servers of `dialect` are — one source of
 * truth: the definition of `ide-adapter/lsp/servers.ts`, its `prepare` step, binary discovery, and
 * in an untrusted window (`vscode.workspace.isTrusted === false`) `restrictServers` (no build
 * scripts, proc macros or cargo check; cargo/rustc only through the untrusted shims; no rustup
 * proxy; no start next to a workspace `rust-analyzer.toml`) — so no workspace code runs.
 * Readiness is the server's own: rust-analyzer's `experimental/serverStatus` quiescent, its health
 * and known problems kept by the same `StatusTracker` the spawned servers use.
 */
import * as vscode from 'vscode';
import { LanguageClient, RevealOutputChannelOn, State, type LanguageClientOptions, type ServerOptions, type StaticFeature } from 'vscode-languageclient/node.js';
import { lookupSetting } from '../../ide-adapter/lsp/capabilities.js';
import { findServerBinary, launchCommand } from '../../ide-adapter/lsp/discovery.js';
import type { ServerStatusParams } from '../../ide-adapter/lsp/handlers.js';
import type { ServerDefinition } from '../../ide-adapter/lsp/servers.js';
import { startVerdict } from '../../ide-adapter/lsp/start-checks.js';
import { StatusTracker } from '../../ide-adapter/lsp/status-tracker.js';
import { restrictServers } from '../../ide-adapter/lsp/untrusted.js';
import type { ServerStatus } from '../../ide-adapter/status.js';
import { spawnPlan } from './server-environment.js';

/**
 * The servers the extension starts itself when their editor extension is missing: rust-analyzer
 * (one binary, found like `dialect` finds it). The TypeScript server is `dialect`'s bundled tsgo,
 * which the extension does not ship; VS Code's built-in TypeScript features answer instead.
 */
export const SPAWNABLE_SERVERS: ReadonlySet<string> = new Set(['rust-analyzer']);

/** rust-analyzer's status notification (the client asks for it through `experimentalCapabilities`). */
const SERVER_STATUS_NOTIFICATION = 'experimental/serverStatus';

/** How long stopping a client may take before the window moves on (the process group dies with the host). */
const STOP_TIMEOUT_MS = 5_000;

/** A server the extension runs for one workspace folder. */
export interface SpawnedServer {
  /** Its status now (`starting`, `indexing`, `ready` with health, `unavailable`, `crashed`). */
  readonly status: ServerStatus;
  /** One-time warnings (known problems such as "std not loaded", unhealthy status messages). */
  readonly warnings: readonly string[];
  /** What the window's trust holds back, for the answers' notes; `undefined` when trusted. */
  readonly note: string | undefined;
  /** Calls `listener` on every status change; returns the unsubscribe function. */
  onStatus(listener: (status: ServerStatus) => void): () => void;
  /** Resolves when the server is ready, could not start or stopped — or at `deadline` (epoch ms). */
  settled(deadline: number): Promise<void>;
  /** Stops the server (bounded). */
  stop(): Promise<void>;
}

/** Where the spawned servers log, and whether the window is trusted. */
export interface SpawnHost {
  readonly log: vscode.LogOutputChannel;
  trusted(): boolean;
  /** Environment the server starts with (default the extension host's). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The definitions a window of this trust may launch: `restrictServers` when untrusted (see module comment). */
export function definitionFor(definition: ServerDefinition, trusted: boolean): ServerDefinition {
  return restrictServers([definition], trusted)[0] as ServerDefinition;
}

/** Starts `definition`'s server for the folder `root` with `vscode-languageclient` (in the background); undefined when the extension cannot spawn it. */
export function spawnServer(definition: ServerDefinition, root: string, host: SpawnHost): SpawnedServer | undefined {
  if (!SPAWNABLE_SERVERS.has(definition.id)) return undefined;
  const trusted = host.trusted();
  return new LanguageClientServer(definitionFor(definition, trusted), root, host, trusted ? undefined : untrustedWindowNote(definition));
}

/** The note of a server restricted by an untrusted window (the window's trust, not `dialect trust`, lifts it). */
function untrustedWindowNote(definition: ServerDefinition): string {
  return `untrusted VS Code window: ${definition.untrustedLimits ?? `${definition.displayName} runs restricted`}. To lift this, trust the folder in VS Code (Manage Workspace Trust) and reload the window.`;
}

/** States after which waiting for readiness is over. */
const SETTLED_STATES: ReadonlySet<string> = new Set(['ready', 'unavailable', 'crashed', 'stopped']);

class LanguageClientServer implements SpawnedServer {
  readonly #tracker: StatusTracker;
  #client: LanguageClient | undefined;
  #stopped = false;
  readonly #started: Promise<void>;

  constructor(
    private readonly definition: ServerDefinition,
    private readonly root: string,
    private readonly host: SpawnHost,
    readonly note: string | undefined,
  ) {
    this.#tracker = new StatusTracker(definition, () => undefined);
    this.#started = this.#start().catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      host.log.error(`${definition.displayName} for ${root}: ${message}`);
      this.#tracker.setState('unavailable', message);
    });
  }

  get status(): ServerStatus {
    return this.#tracker.snapshot();
  }

  get warnings(): readonly string[] {
    return this.#tracker.warnings;
  }

  onStatus(listener: (status: ServerStatus) => void): () => void {
    const subscription = this.#tracker.onStatus(listener);
    return () => subscription.dispose();
  }

  async settled(deadline: number): Promise<void> {
    if (SETTLED_STATES.has(this.#tracker.state)) return;
    let unsubscribe: (() => void) | undefined;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      unsubscribe = this.onStatus((s) => {
        if (SETTLED_STATES.has(s.state)) resolve();
      });
      timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
    });
    unsubscribe?.();
    clearTimeout(timer);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#started;
    const client = this.#client;
    this.#client = undefined;
    if (client === undefined) return;
    await client.stop(STOP_TIMEOUT_MS).catch(() => undefined);
    this.#tracker.setState('stopped');
  }

  async #start(): Promise<void> {
    const { refusal, notes } = await startVerdict(this.definition, this.root);
    if (refusal !== undefined) {
      this.#tracker.setState('unavailable', refusal);
      return;
    }
    for (const note of notes) this.#tracker.addWarning(`projects:${note}`, note);
    // PATH's absolute folders only, as for every child of Dialect (`server-environment.ts`).
    const { definition, warnings, env } = await spawnPlan(this.definition, this.root, this.host.env ?? {});
    for (const warning of warnings) this.#tracker.addWarning(warning.key, warning.text);
    const binary = await findServerBinary(definition, { env });
    if (this.#stopped) return;
    const { command, args } = launchCommand(binary.path, definition.args);
    const serverOptions: ServerOptions = { command, args, options: { cwd: this.root, env } };
    const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(this.root));
    const clientOptions: LanguageClientOptions = {
      // Only this folder's files: another folder of the window gets its own server.
      documentSelector: definition.languages.map((l) => ({ scheme: 'file', language: l.languageId, pattern: `${globLiteral(this.root)}/**/*` })),
      ...(folder !== undefined ? { workspaceFolder: folder } : {}),
      initializationOptions: definition.initializationOptions,
      outputChannel: this.host.log,
      // No pop-ups in the user's window: the status reaches Dialect's answers instead.
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      middleware: {
        // The product's settings, not the window's (no rust-analyzer extension contributes any).
        workspace: { configuration: (params) => params.items.map((item) => lookupSetting(definition.settings, item.section)) },
      },
    };
    const client = new LanguageClient(`dialect.${definition.id}`, `${definition.displayName} (Dialect)`, serverOptions, clientOptions);
    client.registerFeature(experimentalCapabilities(definition));
    client.onNotification(SERVER_STATUS_NOTIFICATION, (params: ServerStatusParams) => this.#serverStatus(params));
    client.onDidChangeState((change) => {
      if (change.newState === State.Stopped && !this.#stopped) this.#tracker.setState('crashed', `${definition.displayName} stopped`);
    });
    this.#client = client;
    this.#tracker.setState('starting');
    this.host.log.info(`starting ${binary.path} (${binary.version}) for ${this.root}${this.host.trusted() ? '' : ' (untrusted: restricted)'}`);
    await client.start();
    // Without the status notification there is no later signal: initialized is ready.
    if (definition.readiness !== 'rust-analyzer-status') this.#tracker.setState('ready');
    else if (this.#tracker.state === 'starting') this.#tracker.setState('indexing');
  }

  /** rust-analyzer's `experimental/serverStatus`: health and warnings, then quiescent means ready. */
  #serverStatus(params: ServerStatusParams): void {
    this.#tracker.serverStatus(params);
    this.#tracker.setState(params.quiescent === true ? 'ready' : 'indexing');
    this.#tracker.emit();
  }
}

/** Adds the definition's `experimentalCapabilities` (rust-analyzer's `serverStatusNotification`) to the client's. */
function experimentalCapabilities(definition: ServerDefinition): StaticFeature {
  return {
    fillClientCapabilities: (capabilities) => {
      capabilities.experimental = { ...((capabilities.experimental as Record<string, unknown> | undefined) ?? {}), ...(definition.experimentalCapabilities ?? {}) };
    },
    initialize: () => undefined,
    getState: () => ({ kind: 'static' }),
    clear: () => undefined,
  };
}

/** A path as a glob matching itself (glob characters in brackets). */
function globLiteral(path: string): string {
  return path.replace(/[*?{}[]/g, (c) => `[${c}]`);
}
