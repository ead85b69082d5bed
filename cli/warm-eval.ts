/**
 * `dialect eval`'s entry. When the workspace's background server is already running and warm, the
 * whole command is its work (`dialect/eval`, `cli/server/eval-service.ts`): this client finds its
 * socket exactly as the full client does (the same identity, runtime-folder, record, owner and
 * handshake checks), sends the program and writes out the printed answer — it loads neither the
 * parser, the interpreter, the remote backend nor vscode-jsonrpc (`cli/test/bundle.test.ts`).
 * Anything but that happy case — no server, one of another build, an editor window that may
 * answer, a server that answers `elsewhere` or not at all — runs the full command (`eval.ts`),
 * which connects, starts, repairs or fails over and says so, as before. A signal cancels the
 * server's evaluation, prints what it answers and exits as the full command does.
 */
import { readdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { editorCandidates } from '../ide-adapter/editors/candidates.js';
import { PROTOCOL_VERSION, RemoteMethod } from '../ide-adapter/remote/methods.js';
import { announcedVersion, checkHello } from '../ide-adapter/remote/wire-checks.js';
import { isTrusted } from '../ide-adapter/trust.js';
import type { EvalOptions } from './eval.js';
import { listenForInterrupt, type Interrupt } from './interrupt.js';
import { noServerRequested, SERVER_TIMEOUTS } from './server/defaults.js';
import { checkEvalResult, EVAL_METHOD, MAX_PROGRAM_BYTES, type EvalParams, type StreamShape } from './server/eval-protocol.js';
import { isServerProcess } from './server/process.js';
import { currentProduct, identityFiles, isRecordFile, readRecord, sameProduct, type Product } from './server/record.js';
import { RpcClient } from './server/rpc-client.js';
import { ensureRuntimeDir, isOwnSocket } from './server/runtime-dir.js';
import type { Io } from './terminal.js';
import { UsageError } from './usage.js';

/** After a signal, how long the server may take to answer the cancelled evaluation before the command ends without it. */
const INTERRUPT_GRACE_MS = 2_000;

/** Runs `dialect eval` (its `program` may be `-`: read from stdin): answered by the warm background server, else in this process. */
export async function runEvalCommand(options: EvalOptions): Promise<number> {
  const program = options.program === '-' ? await readStdin(options.io.stdin) : options.program;
  const startedAt = performance.now();
  if (options.noServer !== true && !noServerRequested(options.io.env)) {
    const interrupt = listenForInterrupt();
    try {
      const answered = await askWarmServer({ ...options, program }, startedAt, interrupt);
      if (answered !== undefined) return answered;
      // Interrupted before any server answered: stop here, as the full command would.
      if (interrupt.interrupted) return interrupt.exitCode;
    } finally {
      interrupt.dispose();
    }
  }
  const { runEval } = await import('./eval.js');
  return runEval({ ...options, program });
}

/**
 * The exit code once the warm server's answer is printed; undefined (nothing printed) when this
 * call is not for it. The checks are the full client's (`cli/server/connect.ts`) but one: which
 * server its environment belongs to (answer-inputs.ts, whose computation loads every language's
 * server definitions) is checked by the server, which has them loaded — the client asks the
 * live servers of this workspace, trust and build in its own private runtime folder (normally
 * one). A failed check is left to the full client: it repairs what it can and tells the user.
 */
async function askWarmServer(options: EvalOptions, startedAt: number, interrupt: Interrupt): Promise<number | undefined> {
  const { io } = options;
  const env = io.env;
  let root: string;
  try {
    root = realpathSync(options.workspace);
  } catch {
    return undefined;
  }
  // An editor window with the folder open answers first (cli/server/backend.ts); the full client asks it.
  if (editorCandidates({ root }, env).length > 0) return undefined;
  const trusted = options.trust === true || (await isTrusted(root, env));
  let runtimeDir: string;
  try {
    runtimeDir = ensureRuntimeDir(env);
  } catch {
    return undefined; // an unsafe runtime folder: the full client says why
  }
  const product = currentProduct();
  for (const name of readdirSync(runtimeDir)) {
    if (!isRecordFile(name)) continue;
    const files = identityFiles(runtimeDir, name);
    const record = readRecord(files.recordPath);
    if (record === undefined || record.workspace !== root || record.trusted !== trusted || !sameProduct(record.product, product)) continue;
    if (!isServerProcess(record.pid) || !isOwnSocket(files.socketPath)) continue;
    const answered = await ask(files.socketPath, { root, trusted, product }, options, startedAt, interrupt);
    if (answered !== undefined || interrupt.interrupted) return answered;
  }
  return undefined;
}

/** Asks the server on `socketPath` (see {@link askWarmServer}); undefined when it does not answer this call. */
async function ask(socketPath: string, expected: { root: string; trusted: boolean; product: Product }, options: EvalOptions, startedAt: number, interrupt: Interrupt): Promise<number | undefined> {
  const { io } = options;
  let client: RpcClient;
  try {
    client = await RpcClient.connect(socketPath, SERVER_TIMEOUTS.connectMs);
  } catch {
    return undefined;
  }
  try {
    const hello = await bounded(client.request(RemoteMethod.Hello, { protocolVersion: PROTOCOL_VERSION }), SERVER_TIMEOUTS.connectMs);
    if (announcedVersion(hello) !== PROTOCOL_VERSION) return undefined;
    const served = checkHello(hello);
    if (typeof served === 'string' || served.workspaceRoot !== expected.root || served.trusted !== expected.trusted || !sameProduct(served.product, expected.product)) return undefined;

    const params: EvalParams = {
      program: options.program,
      json: options.json,
      quiet: options.quiet === true,
      timeoutMs: options.timeoutMs - (performance.now() - startedAt),
      stdout: shapeOf(io.stdout),
      stderr: shapeOf(io.stderr),
      // HOME as this process resolves it: the identity's default cargo home depends on it.
      env: { ...definedOnly(io.env), HOME: io.env['HOME'] ?? homedir() },
      cwd: process.cwd(),
    };
    let requestId: number | undefined;
    const cancel = (): void => {
      if (requestId !== undefined) client.cancel(requestId);
    };
    interrupt.signal.addEventListener('abort', cancel, { once: true });
    const asked = client.request(EVAL_METHOD, params, (id) => (requestId = id));
    if (interrupt.interrupted) cancel();
    // The server's evaluation ends by the timeout; this bounds a server that stopped answering.
    const raw = await bounded(asked, options.timeoutMs + SERVER_TIMEOUTS.connectMs, interrupt.signal);
    interrupt.signal.removeEventListener('abort', cancel);
    const result = checkEvalResult(raw);
    if (result === undefined || result.kind === 'elsewhere') return interrupt.interrupted ? interrupt.exitCode : undefined;
    io.stdout.write(result.stdout);
    io.stderr.write(result.stderr);
    return interrupt.interrupted ? interrupt.exitCode : result.exitCode;
  } catch {
    return interrupt.interrupted ? interrupt.exitCode : undefined;
  } finally {
    client.close();
  }
}

/** The variables that are set. */
function definedOnly(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value;
  return out;
}

/** What the server needs to know of an output stream to print for it. */
function shapeOf(stream: Io['stdout']): StreamShape {
  return { isTTY: stream.isTTY === true, ...(stream.isTTY === true && stream.columns !== undefined ? { columns: stream.columns } : {}) };
}

/** `work`, or a rejection after `ms` — or, once `signal` aborts, after {@link INTERRUPT_GRACE_MS} at most. */
function bounded<T>(work: Promise<T>, ms: number, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expire = (after: number): void => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(() => reject(new Error(`no answer within ${after} ms`))), after);
    };
    const onAbort = (): void => expire(Math.min(ms, INTERRUPT_GRACE_MS));
    const finish = (settle: () => void): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    expire(ms);
    if (signal?.aborted === true) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(error instanceof Error ? error : new Error(String(error)))),
    );
  });
}

async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > MAX_PROGRAM_BYTES) throw new UsageError(`the program on stdin is longer than ${MAX_PROGRAM_BYTES / 1024 / 1024} MB`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
