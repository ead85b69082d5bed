/**
 * The Dialect MCP server: the `ide_operation`, `present_walkthrough`, `expand_reference` and
 * `get_selection` tools and the `walkthrough-format.md` and `dialect-reference.md` resources,
 * over one IDE session — or, without one, over a session per root the client lists
 * (`workspaces.ts`): a tool call names its workspace with `workspace` when there are several.
 * Every call on a workspace shares its session's one pool of language servers.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { RootsListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { createIdeRegistry, IdeSession, loadWorkspaceConfig, packageVersion, presentOutcome, TIMEOUTS } from '../ide-adapter/index.js';
import { PACKAGE_NAME } from '../ide-adapter/package-files.js';
import { walkthroughLimits, type WalkthroughLimits } from '../walkthrough/index.js';
import { dialectReference, ideOperationDescription } from './describe.js';
import { EditorPresenter } from './editor-presenter.js';
import { readGuidance } from './guidance.js';
import { DEFAULT_MAX_PROGRAM_LENGTH, ideOperationInputSchema, ideOperationOutputSchema, runIdeOperation, watchStartup } from './ide-operation.js';
import { expandReferenceInputSchema, expandReferenceOutputSchema, ReferenceStore, runExpandReference, type GuidanceDocument } from './references.js';
import { defaultPagesFolder, preparePagesFolder } from './pages-folder.js';
import { getSelectionOutputSchema, runGetSelection } from './selection-tool.js';
import { ToolInputError } from './sessions.js';
import { outputDirectory, presentWalkthroughInputSchema, presentWalkthroughOutputSchema, runPresentWalkthrough } from './walkthrough-tool.js';
import { refusalFor, rootFolders, WorkspaceSet } from './workspaces.js';

/** The server's name as clients see it: the package's npm name. */
export const SERVER_NAME = PACKAGE_NAME;
/** The version the MCP server reports (the package's). */
export const SERVER_VERSION = packageVersion();

/** How the MCP server is set up. */
export interface DialectMcpOptions {
  /** Longest one `ide_operation` may run, in ms. Default 50 s (below the usual 60 s client timeout). */
  readonly deadlineMs?: number;
  /** Largest program accepted, in characters. Default 1,000,000. */
  readonly maxProgramLength?: number;
  /** Limits of one walkthrough (comments, diffs, links, choices, sizes); the rest keep their defaults (`walkthrough/limits.ts`). */
  readonly walkthroughLimits?: Partial<WalkthroughLimits>;
  /**
   * Where `present_walkthrough` writes pages. Default: the user's shared pages folder
   * (`$XDG_CACHE_HOME/dialect/walkthroughs`, see `pages-folder.ts`), or, when it cannot be
   * created, a new folder under the OS temp dir.
   */
  readonly outputDir?: string;
  /**
   * Opens a session for a walkthrough about a folder inside the workspace. Default: a session with
   * the servers of the *workspace's* `dialect.json` (never one found in the subfolder: a tool
   * argument must not choose which commands run), `sessionEnv` and `readyTimeoutMs`.
   */
  readonly openSession?: (workspaceRoot: string) => IdeSession | Promise<IdeSession>;
  /** Environment for the language servers of sessions this server opens. */
  readonly sessionEnv?: Readonly<Record<string, string>>;
  /** `readyTimeoutMs` of sessions this server opens. Default 30 s. */
  readonly readyTimeoutMs?: number;
  /** How many sessions for subfolders may stay open. Default 4. */
  readonly maxExtraSessions?: number;
  /** Diagnostic lines (never stdout: that is the protocol). Default: dropped. */
  readonly log?: (line: string) => void;
  /**
   * Where `present_walkthrough` looks for an editor window to show walkthroughs in (the
   * environment of `DIALECT_IDE` and the runtime folder's records). Default: this process's
   * environment; `DIALECT_IDE=off` there writes pages only.
   */
  readonly editorEnv?: Readonly<Record<string, string | undefined>>;
  /** How a server made without a session of its own (`createRootsMcpServer`) serves the client's roots. */
  readonly roots?: ClientRootsOptions;
}

/** How a server without a session of its own serves the client's roots (`workspaces.ts`). */
export interface ClientRootsOptions {
  /** Opens the session of a root the client lists (the server shuts it down). */
  readonly openRoot: (root: string) => Promise<IdeSession>;
  /**
   * The folder served when the client has no roots (no `roots` capability, or an empty list): the
   * folder the server started in — refused when it is `/` or the home folder.
   */
  readonly startFolder: string;
}

/** The optional `workspace` argument of the tools that ask one workspace. */
const workspaceArgument = z
  .string()
  .optional()
  .describe("Which workspace to ask when the server has several (the client's roots): the name of its folder, or its path. Omit it when there is one.");

/** Random bytes in the id of a message from the editor (ids are not guessable by other clients' readers). */
const REFERENCE_ID_BYTES = 4;

/** Calls in flight and done, for health checks and tests. */
export interface ServerStats {
  readonly activeCalls: number;
  readonly completedCalls: number;
}

/** The resource with the details behind the notes (what `status()` returns). */
export const STATUS_RESOURCE = 'dialect://status';

/**
 * An MCP server over one IDE session, or over the client's roots. Connect it to a transport; close
 * it when done.
 */
export class DialectMcpServer {
  readonly mcp: McpServer;
  readonly references = new ReferenceStore();
  readonly #workspaces: WorkspaceSet;
  readonly #editor: EditorPresenter;
  /** Ends the wait for the client's first roots (at initialization, or when closed before it). */
  #firstRoots: ((roots: Promise<{ readonly roots: readonly string[] } | { readonly refusal: string }>) => void) | undefined;
  #messages = 0;
  #active = 0;
  #completed = 0;
  readonly #statsListeners = new Set<(stats: ServerStats) => void>();

  /** A server over `session` (the caller's: it shuts it down); without one, over the client's roots (`options.roots`). */
  constructor(session: IdeSession | undefined, options: DialectMcpOptions = {}) {
    const log = options.log ?? (() => undefined);
    const readyTimeoutMs = options.readyTimeoutMs ?? TIMEOUTS.mcp.readyWaitMs;
    const roots = options.roots;
    const workspaceOptions = {
      openRoot: async (root: string) => {
        if (roots === undefined) throw new Error('this server serves one workspace');
        const opened = await roots.openRoot(root);
        watchStartup(opened);
        return opened;
      },
      cache: {
        // A walkthrough about a subfolder: the servers of the *workspace's* dialect.json.
        open: async (main: IdeSession, root: string) => {
          const opened =
            options.openSession !== undefined
              ? await options.openSession(root)
              : await IdeSession.open({
                  workspaceRoot: root,
                  readyTimeoutMs,
                  definitions: (await loadWorkspaceConfig(main.workspace.root)).servers,
                  ...(options.sessionEnv !== undefined ? { env: options.sessionEnv } : {}),
                });
          watchStartup(opened);
          return opened;
        },
        max: options.maxExtraSessions ?? 4,
        log,
      },
      log,
    };
    if (session !== undefined) {
      watchStartup(session);
      this.#workspaces = WorkspaceSet.fixed(session, workspaceOptions);
    } else {
      if (roots === undefined) throw new Error('a server without a session needs options.roots');
      this.#workspaces = new WorkspaceSet(workspaceOptions);
      // Tool calls wait until the client's roots are known (read once the client is initialized).
      void this.#workspaces.update(new Promise((resolve) => (this.#firstRoots = (next) => resolve(next))));
    }
    const registry = session?.registry ?? createIdeRegistry();
    // Read now, so a missing guidance file stops the server at start-up, not at first use.
    const reference = dialectReference(registry);
    const walkthroughFormat = readGuidance('walkthrough-format.md');
    const docs: GuidanceDocument[] = [
      {
        name: 'walkthrough-format.md',
        uri: 'dialect://guidance/walkthrough-format.md',
        title: 'Writing walkthroughs',
        description: 'How to write walkthroughs for present_walkthrough: the comment, action, mermaid and gitdiff elements, location expressions, links to code, and a complete example.',
        text: () => walkthroughFormat,
      },
      {
        name: 'dialect-reference.md',
        uri: 'dialect://guidance/dialect-reference.md',
        title: 'Dialect reference',
        description: 'The Dialect language of ide_operation and every function with its parameters, result type and examples (generated from the function registry).',
        text: () => reference,
      },
    ];

    this.mcp = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION }, { instructions: readGuidance('server-instructions.md').trim() });
    if (roots !== undefined && session === undefined) {
      this.mcp.server.oninitialized = () => {
        this.#firstRoots?.(this.#readRoots(roots, log));
        this.#firstRoots = undefined;
      };
      this.mcp.server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
        log('the client changed its roots');
        void this.#workspaces.update(this.#readRoots(roots, log));
      });
    }

    const track = async (run: () => Promise<CallToolResult>): Promise<CallToolResult> => {
      this.#active += 1;
      this.#emitStats();
      try {
        return await run();
      } finally {
        this.#active -= 1;
        this.#completed += 1;
        this.#emitStats();
      }
    };

    const deadlineMs = options.deadlineMs ?? TIMEOUTS.mcp.deadlineMs;
    /** Runs a tool on the session of the workspace a call names; a wrong or missing name is an `isError` result saying which there are. */
    const onWorkspace = async (workspace: string | undefined, run: (session: IdeSession) => Promise<CallToolResult>): Promise<CallToolResult> => {
      let session: IdeSession;
      try {
        session = await this.#workspaces.session(workspace);
      } catch (error) {
        if (error instanceof ToolInputError) return { isError: true, content: [{ type: 'text', text: error.message }] };
        throw error;
      }
      return run(session);
    };
    this.mcp.registerTool(
      'ide_operation',
      {
        title: 'Ask the IDE (Dialect)',
        description: ideOperationDescription(registry),
        inputSchema: { ...ideOperationInputSchema(options.maxProgramLength ?? DEFAULT_MAX_PROGRAM_LENGTH), workspace: workspaceArgument },
        outputSchema: ideOperationOutputSchema,
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      ({ program, workspace }, extra) => track(() => onWorkspace(workspace, (on) => runIdeOperation({ session: on, deadlineMs, log }, program, extra))),
    );

    const limits = walkthroughLimits(options.walkthroughLimits);
    // What the reader sends from the editor (replies, actions) is kept here for expand_reference.
    this.#editor = new EditorPresenter((message) => {
      this.#messages += 1;
      const id = `walkthrough-${message.kind}-${this.#messages}-${randomBytes(REFERENCE_ID_BYTES).toString('hex')}`;
      this.references.set(id, message);
      return id;
    }, options.editorEnv ?? process.env);
    const walkthroughContext = {
      editor: this.#editor,
      workspaces: this.#workspaces,
      limits,
      deadlineMs,
      outputDir: outputDirectory(options.outputDir, () =>
        preparePagesFolder(defaultPagesFolder()).catch((error: unknown) => {
          log(`cannot use ${defaultPagesFolder()} for walkthrough pages (${String(error)}); writing them to a temporary folder`);
          return mkdtemp(join(tmpdir(), 'dialect-walkthroughs-'));
        }),
      ),
      log,
    };
    this.mcp.registerTool(
      'present_walkthrough',
      {
        title: 'Present a code walkthrough',
        description: readGuidance('present-walkthrough.md').trim(),
        inputSchema: presentWalkthroughInputSchema(limits.maxMarkdownChars),
        outputSchema: presentWalkthroughOutputSchema,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      },
      ({ content, baseUri }, extra) => track(() => runPresentWalkthrough(walkthroughContext, content, baseUri, extra)),
    );

    this.mcp.registerTool(
      'expand_reference',
      {
        title: 'Expand a reference or read a guide',
        description: `Returns the full content of a compact reference: the JSON stored under an id (the id="…" of a <dialect-ref id="…"/> tag in the conversation), or a guidance document by name: ${docs.map((d) => d.name).join(', ')}.`,
        inputSchema: expandReferenceInputSchema,
        outputSchema: expandReferenceOutputSchema,
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      ({ id }) => track(async () => runExpandReference(this.references, docs, id)),
    );

    this.mcp.registerTool(
      'get_selection',
      {
        title: "The editor's selection",
        description:
          'The text selected in the active editor of VS Code (with the Dialect extension) as {selectedText, path, start, end}: a workspace-relative path, 1-based lines, columns in characters, end exclusive. selection is null, with a reason and code (no-editor, no-active-editor), when no editor is connected or no file is open. In ide_operation, selection() is the same place: findReferences(symbolAt(selection())).',
        inputSchema: { workspace: workspaceArgument },
        outputSchema: getSelectionOutputSchema,
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      },
      ({ workspace }, extra) => track(() => onWorkspace(workspace, (on) => runGetSelection(on, extra.signal))),
    );

    for (const doc of docs) {
      this.mcp.registerResource(doc.name, doc.uri, { title: doc.title, description: doc.description, mimeType: 'text/markdown' }, (uri) => ({
        contents: [{ uri: uri.href, mimeType: 'text/markdown', text: doc.text() }],
      }));
    }

    // The details behind the one-line notes: the same text as ide_operation's status().
    this.mcp.registerResource(
      'status',
      STATUS_RESOURCE,
      { title: 'Language servers and workspace status', description: 'Every language server with its state and why, what could not be loaded and how to fix it, and the workspace trust: what status() returns.', mimeType: 'text/plain' },
      async (uri) => {
        // The default workspace's (with several roots, ide_operation's status() names one with `workspace`).
        let text: string;
        try {
          text = presentOutcome(await (await this.#workspaces.session(undefined)).evaluate('status()'));
        } catch (error) {
          if (!(error instanceof ToolInputError)) throw error;
          text = error.message;
        }
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text }] };
      },
    );
  }

  /** Stores arbitrary JSON under an id, for `expand_reference`. */
  storeReference(id: string, value: unknown): void {
    this.references.set(id, value);
  }

  get stats(): ServerStats {
    return { activeCalls: this.#active, completedCalls: this.#completed };
  }

  /**
   * Calls `listener` with the new {@link stats} whenever a tool call starts or ends, so a health
   * check or a test can wait for "the call ended" instead of polling; returns the unsubscribe.
   */
  onStats(listener: (stats: ServerStats) => void): () => void {
    this.#statsListeners.add(listener);
    return () => this.#statsListeners.delete(listener);
  }

  #emitStats(): void {
    const stats = this.stats;
    for (const listener of this.#statsListeners) listener(stats);
  }

  /** Folders with a session opened for walkthroughs (besides the workspaces' own). */
  get extraSessionFolders(): string[] {
    return this.#workspaces.extraFolders;
  }

  /** The workspaces served (the client's roots, or the one fixed workspace) and the names tool calls use for them. */
  get workspaces(): { readonly name: string; readonly root: string }[] {
    return this.#workspaces.workspaces;
  }

  /** The client's roots as folders to serve, or why none is served; the start folder when the client has none. */
  async #readRoots(roots: ClientRootsOptions, log: (line: string) => void): Promise<{ readonly roots: readonly string[] } | { readonly refusal: string }> {
    let folders: string[] = [];
    if (this.mcp.server.getClientCapabilities()?.roots !== undefined) {
      try {
        folders = await rootFolders((await this.mcp.server.listRoots()).roots, log);
      } catch (error) {
        log(`the client did not list its roots: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (folders.length > 0) return { roots: folders };
    }
    const refusal = refusalFor(roots.startFolder);
    if (refusal !== undefined) {
      log(refusal);
      return { refusal };
    }
    log(`the client gave no roots: serving the folder the server started in, ${roots.startFolder}`);
    return { roots: [await realpath(roots.startFolder)] };
  }

  async connect(transport: Transport): Promise<void> {
    await this.mcp.connect(transport);
  }

  /**
   * Closes the connection and shuts down the sessions this server opened for other folders. The
   * session passed in belongs to the caller, who shuts it down.
   */
  async close(): Promise<void> {
    // Closed before the client initialized: no roots will come.
    this.#firstRoots?.(Promise.resolve({ refusal: 'the server is closing' }));
    this.#firstRoots = undefined;
    try {
      this.#editor.close();
      await this.mcp.close();
    } finally {
      await this.#workspaces.shutdown();
    }
  }
}

/** Creates the MCP server over a session (connect it to any transport, e.g. the in-memory one). */
export function createMcpServer(session: IdeSession, options: DialectMcpOptions = {}): DialectMcpServer {
  return new DialectMcpServer(session, options);
}

/**
 * Creates an MCP server over the client's roots: each root the client lists (and changes) is a
 * workspace with its own session, opened by `roots.openRoot`; without roots, the start folder.
 */
export function createRootsMcpServer(roots: ClientRootsOptions, options: Omit<DialectMcpOptions, 'roots'> = {}): DialectMcpServer {
  return new DialectMcpServer(undefined, { ...options, roots });
}
