/**
 * The serving side of the remote protocol: answers one client connection with any `IdeBackend`
 * (the background server serves its `LspBackend`; the VS Code extension will serve its own).
 * Each request's cancellation becomes the `AbortSignal` the backend already honours, so a client's
 * `$/cancelRequest` reaches the language server; a client that goes away mid-call has its
 * requests aborted and leaves the backend healthy. `shutdown` is not served: clients share the
 * language servers, and only `dialect/stop` ends the server (through `onStop`).
 */
import type { CancellationToken, Disposable, MessageConnection } from 'vscode-jsonrpc/node';
import type { DialectError } from '../../dialect/outcome.js';
import { noEditor, type IdeBackend } from '../backend.js';
import { asDialectError, LspClientError } from '../lsp/errors.js';
import { protocolMismatch, toResponseError } from './errors.js';
import { REQUESTS, RemoteMethod, RemoteNotification, type HelloInfo, type ParamsOf, type RemoteMethodName, type ServerInfo } from './protocol.js';

/** What the serving process adds to the backend: the options of {@link serveBackend}. */
export interface ServeOptions {
  /**
   * The handshake's answer (called per `dialect/hello`, so `servers` is current). It may check,
   * bounded, that the serving side can answer at all (an editor window without its workbench
   * cannot) and throw a `background-server-lost` error: the client then passes it over.
   */
  readonly hello: () => HelloInfo | Promise<HelloInfo>;
  /** The answer to `dialect/info`; by default the hello with this process's memory and this connection's activity. */
  readonly info?: () => ServerInfo;
  /** Called once `dialect/stop` has been answered: the serving process stops. */
  readonly onStop?: () => void;
  /** Called when a request starts and when it ends (an idle timer's cue). */
  readonly onActivity?: () => void;
  /**
   * Adds handlers of another protocol to the same connection before it listens (the editor's
   * walkthrough methods, `walkthrough/editor-protocol.ts`); what it returns is disposed with the
   * connection.
   */
  readonly extend?: (connection: MessageConnection) => Disposable;
}

/** One request's implementation over the backend; the result goes out as it is (the client validates it). */
type Handler<M extends RemoteMethodName> = (params: ParamsOf<M>, signal: AbortSignal) => unknown;

/** The reason a request's signal aborts when its client cancels it or goes away. */
function clientCancelled(): DialectError {
  return asDialectError(new LspClientError('request-cancelled', 'the client cancelled the request or went away'));
}

/**
 * Serves `backend` on `connection` and starts listening: one handler per protocol request,
 * `ide/status` notifications for every status change. Disposing (or the connection closing)
 * aborts every request still running for this connection, stops the notifications and disposes
 * the connection; the backend keeps running.
 */
export function serveBackend(backend: IdeBackend, connection: MessageConnection, options: ServeOptions): Disposable {
  const running = new Set<AbortController>();
  let lastActivityAt = Date.now();
  let disposed = false;
  const activity = (): void => {
    lastActivityAt = Date.now();
    options.onActivity?.();
  };

  const handlers: { readonly [M in RemoteMethodName]: Handler<M> } = {
    [RemoteMethod.Hello]: () => options.hello(),
    [RemoteMethod.Info]: async () => options.info?.() ?? { ...(await options.hello()), memoryBytes: process.memoryUsage.rss(), connections: 1, lastActivityAt },
    [RemoteMethod.Stop]: () => {
      // After the answer is queued on the socket, so the client hears it before the process goes.
      if (options.onStop !== undefined) setImmediate(options.onStop);
      return null;
    },
    [RemoteMethod.Selection]: async (_p, signal) => {
      if (backend.selection === undefined) throw noEditor('this server answers with its own language servers, not an editor');
      return (await backend.selection({ signal })) ?? null;
    },
    [RemoteMethod.WorkspaceSymbols]: (p, signal) => backend.workspaceSymbols(p.query, { signal, ...(p.exact === true ? { exact: true } : {}) }),
    [RemoteMethod.DocumentSymbols]: (p, signal) => backend.documentSymbols(p.path, { signal }),
    [RemoteMethod.Definition]: (p, signal) => backend.definition(p.path, p.position, { signal }),
    [RemoteMethod.References]: (p, signal) => backend.references(p.path, p.position, { ...optional(p, 'includeDeclaration', 'limit', 'name'), signal }),
    [RemoteMethod.Hover]: async (p, signal) => (await backend.hover(p.path, p.position, { signal })) ?? null,
    [RemoteMethod.Implementation]: (p, signal) => backend.implementation(p.path, p.position, { signal }),
    [RemoteMethod.PrepareCallHierarchy]: (p, signal) => backend.prepareCallHierarchy(p.path, p.position, { signal }),
    [RemoteMethod.IncomingCalls]: (p, signal) => backend.incomingCalls(p.item, { signal }),
    [RemoteMethod.OutgoingCalls]: (p, signal) => backend.outgoingCalls(p.item, { signal }),
    [RemoteMethod.TypeDefinition]: (p, signal) => backend.typeDefinition(p.path, p.position, { signal }),
    [RemoteMethod.PrepareTypeHierarchy]: (p, signal) => backend.prepareTypeHierarchy(p.path, p.position, { signal }),
    [RemoteMethod.TypeHierarchy]: (p, signal) => backend.typeHierarchy(p.item, p.direction, { signal }),
    [RemoteMethod.Diagnostics]: (p, signal) => backend.diagnostics(p.path, { ...optional(p, 'waitMs'), signal }),
    [RemoteMethod.ModulePath]: (p) => backend.modulePath(p.path),
    [RemoteMethod.UnbuiltDeclarations]: async (p, signal) => (await backend.unbuiltDeclarations?.(p.name, p.qualifiers, { signal })) ?? [],
    [RemoteMethod.ImportOf]: async (p, signal) => (await backend.importOf?.(p.name, { signal })) ?? null,
    [RemoteMethod.Start]: async () => (await backend.start(), null),
    [RemoteMethod.WaitUntilReady]: (p, signal) => backend.waitUntilReady({ ...optional(p, 'timeoutMs', 'paths', 'onlyPaths'), signal }),
    [RemoteMethod.Servers]: () => backend.servers(),
  };

  const registrations = (Object.keys(handlers) as RemoteMethodName[]).map((method) =>
    connection.onRequest(method, async (raw: unknown, token: CancellationToken) => {
      const params = REQUESTS[method].params.safeParse(raw ?? {});
      if (!params.success) return toResponseError(protocolMismatch(`invalid params of ${method}: ${params.error.message}`));
      const controller = new AbortController();
      running.add(controller);
      const cancellation = token.onCancellationRequested(() => controller.abort(clientCancelled()));
      activity();
      try {
        return await handlers[method](params.data as never, controller.signal);
      } catch (error) {
        return toResponseError(error);
      } finally {
        cancellation.dispose();
        running.delete(controller);
        activity();
      }
    }),
  );

  const unsubscribe = backend.onStatus((status) => {
    // A connection closing under a notification is handled by onClose; the notification is moot.
    // Status events carry no memory; the listing samples it, so the client's `.servers` has it too.
    const memoryBytes = status.memoryBytes ?? backend.servers().find((s) => s.id === status.id)?.memoryBytes;
    connection.sendNotification(RemoteNotification.Status, memoryBytes !== undefined ? { ...status, memoryBytes } : status).catch(() => undefined);
  });

  const dispose = (): void => {
    if (disposed) return;
    disposed = true;
    unsubscribe();
    for (const controller of running) controller.abort(clientCancelled());
    running.clear();
    for (const registration of registrations) registration.dispose();
    connection.dispose();
  };
  const extension = options.extend?.(connection);
  if (extension !== undefined) registrations.push(extension);
  connection.onClose(dispose);
  connection.listen();
  return { dispose };
}

/** The named optional fields of `params` that are present (the port's options leave absent ones out). */
function optional<T extends object, K extends keyof T>(params: T, ...keys: K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (params[key] !== undefined) out[key] = params[key];
  return out;
}
