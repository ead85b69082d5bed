/**
 * `present_walkthrough` in the editor: finds the editor window that has the walkthrough's folder
 * open (the same discovery as IDE queries: `DIALECT_IDE`, then the records, see
 * `ide-adapter/editors/connect.ts`), and asks it to show the walkthrough
 * (`dialect/presentWalkthrough`, walkthrough/editor-protocol.ts). The connection stays open: over
 * it the editor hands back what the reader sends the agent (replies to comments, action
 * buttons), which this server keeps as references (`expand_reference`) and answers with their ids.
 */
import { connect, type Socket } from 'node:net';
import { CancellationTokenSource, ResponseError, type MessageConnection } from 'vscode-jsonrpc/node';
import { editorCandidates } from '../ide-adapter/editors/connect.js';
import { fromResponseError } from '../ide-adapter/remote/errors.js';
import { socketConnection } from '../ide-adapter/remote/transport.js';
import { processAncestry } from './process-ancestry.js';
import { Workspace } from '../ide-adapter/workspace.js';
import { DeliverParamsSchema, PresentResultSchema, WalkthroughMethod, type AgentMessage, type PresentParams, type PresentResult } from '../walkthrough/editor-protocol.js';

/** How long connecting to one window may take before the next is tried. */
const CONNECT_TIMEOUT_MS = 3_000;

/** What the editor showed, or why no editor showed it. */
export type EditorPresentation =
  | { readonly shown: true; readonly result: PresentResult; readonly socket: string }
  | { readonly shown: false; readonly reason: string; /** Whether some window was asked (and failed). */ readonly tried: boolean };

/** Keeps a message from the reader for the agent; returns its reference id. */
export type KeepMessage = (message: AgentMessage) => string;

/** Presents walkthroughs in the editor window that has their folder open. */
export class EditorPresenter {
  readonly #connections = new Map<string, Promise<EditorLink>>();

  constructor(
    private readonly keep: KeepMessage,
    private readonly env: Readonly<Record<string, string | undefined>> = process.env,
  ) {}

  /**
   * Shows `markdown` (about `folder`) in the first window that accepts it. A window that is gone,
   * refuses or fails is passed over; none showing it is `{ shown: false, reason }` (the caller
   * writes a page instead). Rejects only when `signal` aborts.
   */
  async present(markdown: string, folder: string, signal: AbortSignal): Promise<EditorPresentation> {
    const candidates = editorCandidates(new Workspace(folder), this.env);
    if (candidates.length === 0) return { shown: false, reason: 'no editor window with this folder open runs the Dialect extension', tried: false };
    const reasons: string[] = [];
    const params: PresentParams = { markdown, folder, agent: { pids: processAncestry() } };
    for (const candidate of candidates) {
      try {
        const { connection } = await this.#connection(candidate.socket);
        const raw = await request(connection, params, signal);
        const parsed = PresentResultSchema.safeParse(raw);
        if (!parsed.success) throw new Error(`the editor's answer is not a walkthrough result: ${parsed.error.message}`);
        return { shown: true, result: parsed.data, socket: candidate.socket };
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        reasons.push(`${candidate.editor ?? candidate.socket}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return { shown: false, reason: reasons.join('; '), tried: true };
  }

  /** Closes every connection (the server is stopping). */
  close(): void {
    for (const pending of this.#connections.values()) {
      void pending.then(
        (link) => {
          link.connection.dispose();
          link.socket.destroy();
        },
        () => undefined,
      );
    }
    this.#connections.clear();
  }

  #connection(socketPath: string): Promise<EditorLink> {
    let pending = this.#connections.get(socketPath);
    if (pending === undefined) {
      pending = openConnection(socketPath, this.keep, () => this.#connections.delete(socketPath));
      pending.catch(() => this.#connections.delete(socketPath));
      this.#connections.set(socketPath, pending);
    }
    return pending;
  }
}

/** An open connection to a window. */
interface EditorLink {
  readonly connection: MessageConnection;
  readonly socket: Socket;
}

/** Connects to a window's socket and serves `dialect/deliverToAgent` on the connection. */
async function openConnection(socketPath: string, keep: KeepMessage, onClose: () => void): Promise<EditorLink> {
  const socket = await new Promise<Socket>((resolve, reject) => {
    const s = connect(socketPath);
    const timer = setTimeout(() => {
      s.destroy();
      reject(new Error(`no answer at ${socketPath} within ${CONNECT_TIMEOUT_MS} ms`));
    }, CONNECT_TIMEOUT_MS);
    s.once('connect', () => {
      clearTimeout(timer);
      s.removeAllListeners('error');
      resolve(s);
    });
    s.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new Error(`cannot connect to ${socketPath} (${error.code ?? error.message})`));
    });
  });
  socket.on('error', () => socket.destroy());
  const connection = socketConnection(socket);
  connection.onRequest(WalkthroughMethod.Deliver, (raw: unknown) => {
    const parsed = DeliverParamsSchema.safeParse(raw);
    if (!parsed.success) return new ResponseError(-32602, `invalid params of ${WalkthroughMethod.Deliver}: ${parsed.error.message}`);
    return { id: keep(parsed.data) };
  });
  connection.onClose(() => {
    onClose();
    socket.destroy();
  });
  socket.once('close', () => connection.dispose());
  connection.listen();
  return { connection, socket };
}

/** Sends the present request; cancels it (and rejects) when `signal` aborts. */
async function request(connection: MessageConnection, params: PresentParams, signal: AbortSignal): Promise<unknown> {
  const source = new CancellationTokenSource();
  const onAbort = (): void => source.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await connection.sendRequest(WalkthroughMethod.Present, params, source.token);
  } catch (error) {
    if (error instanceof ResponseError) throw fromResponseError(error, WalkthroughMethod.Present);
    throw error instanceof Error ? error : new Error(String(error));
  } finally {
    signal.removeEventListener('abort', onAbort);
    source.dispose();
  }
}
