/**
 * The Dialect MCP server: the `ide_operation`, `present_walkthrough`, `expand_reference` and
 * `get_selection` tools and the `walkthrough-format.md` and `dialect-reference.md` resources,
 * over one IDE session.
 * Every call shares the session's one pool of language servers.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { IdeSession, loadWorkspaceConfig, packageVersion, TIMEOUTS } from '../ide-adapter/index.js';
import { walkthroughLimits, type WalkthroughLimits } from '../walkthrough/index.js';
import { dialectReference, ideOperationDescription } from './describe.js';
import { EditorPresenter } from './editor-presenter.js';
import { readGuidance } from './guidance.js';
import { DEFAULT_MAX_PROGRAM_LENGTH, ideOperationInputSchema, ideOperationOutputSchema, runIdeOperation, watchStartup } from './ide-operation.js';
import { expandReferenceInputSchema, expandReferenceOutputSchema, ReferenceStore, runExpandReference, type GuidanceDocument } from './references.js';
import { defaultPagesFolder, preparePagesFolder } from './pages-folder.js';
import { getSelectionOutputSchema, runGetSelection } from './selection-tool.js';
import { SessionCache } from './sessions.js';
import { outputDirectory, presentWalkthroughInputSchema, presentWalkthroughOutputSchema, runPresentWalkthrough } from './walkthrough-tool.js';

/** The server's name and version as clients see them. */
export const SERVER_NAME = 'dialect';
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
}

/** Random bytes in the id of a message from the editor (ids are not guessable by other clients' readers). */
const REFERENCE_ID_BYTES = 4;

/** Calls in flight and done, for health checks and tests. */
export interface ServerStats {
  readonly activeCalls: number;
  readonly completedCalls: number;
}

/** An MCP server over one IDE session. Connect it to a transport; close it when done. */
export class DialectMcpServer {
  readonly mcp: McpServer;
  readonly session: IdeSession;
  readonly references = new ReferenceStore();
  readonly #sessions: SessionCache;
  readonly #editor: EditorPresenter;
  #messages = 0;
  #active = 0;
  #completed = 0;
  readonly #statsListeners = new Set<(stats: ServerStats) => void>();

  constructor(session: IdeSession, options: DialectMcpOptions = {}) {
    this.session = session;
    watchStartup(session);
    const log = options.log ?? (() => undefined);
    const readyTimeoutMs = options.readyTimeoutMs ?? TIMEOUTS.mcp.readyWaitMs;
    this.#sessions = new SessionCache(session, {
      open: async (root) => {
        const opened =
          options.openSession !== undefined
            ? await options.openSession(root)
            : await IdeSession.open({
                workspaceRoot: root,
                readyTimeoutMs,
                definitions: (await loadWorkspaceConfig(session.workspace.root)).servers,
                ...(options.sessionEnv !== undefined ? { env: options.sessionEnv } : {}),
              });
        watchStartup(opened);
        return opened;
      },
      max: options.maxExtraSessions ?? 4,
      log,
    });
    const registry = session.registry;
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

    const ideContext = { session, deadlineMs: options.deadlineMs ?? TIMEOUTS.mcp.deadlineMs, log };
    this.mcp.registerTool(
      'ide_operation',
      {
        title: 'Ask the IDE (Dialect)',
        description: ideOperationDescription(registry),
        inputSchema: ideOperationInputSchema(options.maxProgramLength ?? DEFAULT_MAX_PROGRAM_LENGTH),
        outputSchema: ideOperationOutputSchema,
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      ({ program }, extra) => track(() => runIdeOperation(ideContext, program, extra)),
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
      sessions: this.#sessions,
      limits,
      deadlineMs: ideContext.deadlineMs,
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
        inputSchema: {},
        outputSchema: getSelectionOutputSchema,
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      },
      (_args, extra) => track(() => runGetSelection(session, extra.signal)),
    );

    for (const doc of docs) {
      this.mcp.registerResource(doc.name, doc.uri, { title: doc.title, description: doc.description, mimeType: 'text/markdown' }, (uri) => ({
        contents: [{ uri: uri.href, mimeType: 'text/markdown', text: doc.text() }],
      }));
    }
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

  /** Folders with a session opened for walkthroughs (besides the server's own workspace). */
  get extraSessionFolders(): string[] {
    return this.#sessions.openFolders;
  }

  async connect(transport: Transport): Promise<void> {
    await this.mcp.connect(transport);
  }

  /**
   * Closes the connection and shuts down the sessions this server opened for other folders. The
   * session passed in belongs to the caller, who shuts it down.
   */
  async close(): Promise<void> {
    try {
      this.#editor.close();
      await this.mcp.close();
    } finally {
      await this.#sessions.shutdown();
    }
  }
}

/** Creates the MCP server over a session (connect it to any transport, e.g. the in-memory one). */
export function createMcpServer(session: IdeSession, options: DialectMcpOptions = {}): DialectMcpServer {
  return new DialectMcpServer(session, options);
}
