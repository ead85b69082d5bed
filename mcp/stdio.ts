/**
 * `dialect mcp`: the MCP server on stdio. stdout carries only the protocol; every log line goes to
 * stderr. The server stops cleanly — language servers shut down — when the client closes stdin or
 * the process gets SIGTERM or SIGINT.
 */
import { resolve } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { configuredServers, IdeSession, statusLine, TIMEOUTS, Workspace, type ConfiguredServers, type IdeBackend } from '../ide-adapter/index.js';
import { createMcpServer, createRootsMcpServer, type DialectMcpOptions } from './server.js';

/**
 * Makes the backend of the server's workspace, given the trust and servers decided for it (the
 * CLI passes one that uses the workspace's background server). `log` writes to the server's log.
 */
export type McpBackendFactory = (workspaceRoot: string, configured: ConfiguredServers, log: (line: string) => void) => Promise<IdeBackend>;

/** How the MCP server runs over stdio. */
export interface RunMcpServerOptions extends Omit<DialectMcpOptions, 'log'> {
  /**
   * The workspace folder. Default: the client's roots (each a workspace), or without roots the
   * current directory — refused when that is `/` or the home folder (`workspaces.ts`).
   */
  readonly workspaceRoot?: string;
  /** Whether that workspace is trusted (`dialect mcp --trust`). Default: the user's trust store decides. */
  readonly trusted?: boolean;
  /** Environment for the language servers (merged over the process environment by the pool). */
  readonly env?: Readonly<Record<string, string>>;
  /** Longest the shutdown of the language servers may take before we give up waiting. Default 10 s. */
  readonly shutdownTimeoutMs?: number;
  /** Streams, for tests; default: the process's. */
  readonly stdin?: NodeJS.ReadableStream & { pause(): unknown };
  readonly stdout?: NodeJS.WritableStream;
  readonly stderr?: NodeJS.WritableStream;
  /** Handle SIGTERM/SIGINT (default true). */
  readonly handleSignals?: boolean;
  /** The backend of the workspace; default: language servers in this process. */
  readonly backend?: McpBackendFactory;
}

/** Largest JSON-RPC message read from stdin. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** Why the server stopped. */
export type StopReason = 'stdin-closed' | 'transport-closed' | 'SIGTERM' | 'SIGINT';

/**
 * Serves MCP on stdio until the client goes away or a signal arrives, then shuts the language
 * servers down and resolves with the reason. The caller (the CLI) exits afterwards. Throws before
 * serving when the workspace folder does not exist.
 */
export async function runMcpServer(options: RunMcpServerOptions = {}): Promise<StopReason> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const log = (line: string): void => {
    stderr.write(`dialect mcp: ${line}\n`);
  };
  const readyTimeoutMs = options.readyTimeoutMs ?? TIMEOUTS.mcp.readyWaitMs;
  // Server state changes (starting → indexing → ready, crashes) go to the log; not every percent.
  const statusLogs: (() => void)[] = [];
  const logStatus = (session: IdeSession, prefix: string): void => {
    const lastState = new Map<string, string>();
    statusLogs.push(
      session.backend.onStatus((status) => {
        // A degraded server is ready but incomplete: that is a change worth a line too.
        const state = status.health !== undefined ? 'degraded' : status.state;
        if (lastState.get(status.id) === state) return;
        lastState.set(status.id, state);
        log(`${prefix}${statusLine(status)}`);
      }),
    );
  };
  // With --workspace, throws (before anything is served) when the folder does not exist or its
  // dialect.json is invalid; the client's roots are opened once it lists them.
  const session = options.workspaceRoot !== undefined ? await openSession(resolve(options.workspaceRoot), readyTimeoutMs, options, log) : undefined;
  if (session !== undefined) logStatus(session, '');
  const restoreConsole = options.stdout === undefined ? divertConsoleToStderr() : () => undefined;
  const serverOptions = { ...options, readyTimeoutMs, ...(options.env !== undefined && options.sessionEnv === undefined ? { sessionEnv: options.env } : {}), log };
  const server =
    session !== undefined
      ? createMcpServer(session, serverOptions)
      : createRootsMcpServer(
          {
            openRoot: async (root) => {
              const opened = await openSession(root, readyTimeoutMs, options, log);
              logStatus(opened, `${root}: `);
              return opened;
            },
            startFolder: process.cwd(),
          },
          serverOptions,
        );
  const onRejection = (reason: unknown): void => log(`unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`);
  process.on('unhandledRejection', onRejection);

  let stop!: (reason: StopReason) => void;
  const stopped = new Promise<StopReason>((r) => (stop = r));
  const onEnd = (): void => stop('stdin-closed');
  const onTerm = (): void => stop('SIGTERM');
  const onInt = (): void => stop('SIGINT');
  stdin.on('end', onEnd);
  stdin.on('close', onEnd);
  if (options.handleSignals !== false) {
    process.on('SIGTERM', onTerm);
    process.on('SIGINT', onInt);
  }

  // The SDK's default (10 MB) closes the connection on one oversized message; with room for
  // 64 MB such a request reaches the tool and gets a clear "too long" error instead.
  const transport = new StdioServerTransport(stdin as typeof process.stdin, stdout as typeof process.stdout, { maxBufferSize: MAX_MESSAGE_BYTES });
  transport.onerror = (error) => log(`transport error: ${error.message}`);
  try {
    await server.connect(transport);
    // After connect: the server installs its own onclose, which we chain.
    const serverOnClose = transport.onclose;
    transport.onclose = () => {
      serverOnClose?.();
      stop('transport-closed');
    };
    log(session !== undefined ? `serving ${session.workspace.root} on stdio` : "serving on stdio; the workspaces are the client's roots (else the folder it started in)");
    const reason = await stopped;
    log(`stopping (${reason}); shutting down the language servers`);
    return reason;
  } finally {
    stdin.off('end', onEnd);
    stdin.off('close', onEnd);
    process.off('SIGTERM', onTerm);
    process.off('SIGINT', onInt);
    for (const unsubscribe of statusLogs) unsubscribe();
    await withTimeout(
      (async () => {
        await server.close().catch((error: unknown) => log(`closing the server failed: ${String(error)}`));
        await session?.shutdown().catch((error: unknown) => log(`shutting down the language servers failed: ${String(error)}`));
      })(),
      options.shutdownTimeoutMs ?? 10_000,
      () => log('the language servers did not shut down in time'),
    );
    stdin.pause();
    process.off('unhandledRejection', onRejection);
    restoreConsole();
    log('stopped');
  }
}

async function openSession(workspaceRoot: string, readyTimeoutMs: number, options: RunMcpServerOptions, log: (line: string) => void): Promise<IdeSession> {
  if (options.backend === undefined) {
    return IdeSession.openConfigured({
      workspaceRoot,
      readyTimeoutMs,
      ...(options.trusted !== undefined ? { trusted: options.trusted } : {}),
      ...(options.env !== undefined ? { env: options.env } : {}),
    });
  }
  const root = new Workspace(workspaceRoot).root;
  const configured = await configuredServers(root, options.trusted);
  return IdeSession.open({ workspaceRoot: root, readyTimeoutMs, backend: await options.backend(root, configured, log) });
}

/** console.log/info/debug write to stdout, which is the protocol: send them to stderr instead. */
function divertConsoleToStderr(): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  const toStderr = (...args: unknown[]): void => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  return () => {
    console.log = saved.log;
    console.info = saved.info;
    console.debug = saved.debug;
  };
}

async function withTimeout(work: Promise<void>, ms: number, onTimeout: () => void): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((r) => {
    timer = setTimeout(() => {
      onTimeout();
      r();
    }, ms);
  });
  try {
    await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
