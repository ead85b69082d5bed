/**
 * `dialect eval` from the command line, first of all (`bin/dialect.js` runs it from its own
 * one-file bundle, `dist/bundle/cli/warm-eval.js`: loading one file instead of the command's
 * dozens of chunks is most of what a warm call saves). When the workspace's background server is
 * already running and warm, the whole command is its work (`dialect/eval`,
 * `cli/server/eval-service.ts`): this client reads the command line as the command does, finds
 * the server's socket with the full client's checks (runtime folder, record, build, owner; the
 * handshake's are the request's), sends the program and writes out the printed answer — it loads neither the parser,
 * the interpreter, the language definitions nor vscode-jsonrpc (`cli/test/bundle.test.ts`).
 * Anything but that happy case — a usage error, `--no-server`, no server, one of another build,
 * an editor window that may answer, a server that answers `elsewhere` or not at all — runs the
 * command (`main.ts`), which reports, connects, starts, repairs or fails over and says so, as
 * before. A signal cancels the server's evaluation, prints what it answers and exits as the
 * command does.
 */
import { readdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
// `performance` is Node's global: importing node:perf_hooks would load a module a warm call does not need.
import { editorCandidates } from '../ide-adapter/editors/candidates.js';
import { PROTOCOL_VERSION } from '../ide-adapter/remote/methods.js';
import { isTrusted } from '../ide-adapter/trust.js';
import type { EvalOptions } from './eval.js';
import { listenForInterrupt, type Interrupt } from './interrupt.js';
import { evalOptionsOf } from './options.js';
import { noServerRequested, SERVER_TIMEOUTS } from './server/defaults.js';
import { checkEvalResult, EVAL_METHOD, type EvalParams, type StreamShape } from './server/eval-protocol.js';
import { isServerProcess } from './server/process.js';
import { currentProduct, identityFiles, isRecordFile, readRecord, sameProduct, type Product } from './server/record.js';
import { RpcClient } from './server/rpc-client.js';
import { checkRuntimeDir, isOwnSocket, runtimeDirPath } from './server/runtime-dir.js';
import { readStdin } from './stdin-program.js';
import { letReaderLeave, processIo, type Io } from './terminal.js';
import { parseCommandLine } from './usage.js';

/** After a signal, how long the server may take to answer the cancelled evaluation before the command ends without it. */
const INTERRUPT_GRACE_MS = 2_000;

/** Runs the command line `argv` (a `dialect eval …`, or anything the command runs) and resolves with the exit code. */
export async function runEvalCommandLine(argv: readonly string[]): Promise<number> {
  let io = processIo();
  // A reader may leave early (`| head`): the answer's exit code, not an EPIPE error.
  letReaderLeave(io.stdout);
  letReaderLeave(io.stderr);
  let options: EvalOptions | undefined;
  try {
    const parsed = parseCommandLine(argv);
    if (parsed.kind === 'command' && parsed.name === 'eval') options = evalOptionsOf(parsed, io);
  } catch {
    // A usage error: the command reports it.
  }
  if (options !== undefined && options.noServer !== true && !noServerRequested(io.env)) {
    let program: string | undefined = options.program;
    if (program === '-') {
      const read = await readStdin(io.stdin);
      // The command reads stdin again: it gets what was read, then (past the limit, which it reports) the rest.
      const { Readable } = await import('node:stream');
      io = { ...io, stdin: Readable.from(replay(read.chunks, read.complete ? undefined : io.stdin)) };
      program = read.complete ? Buffer.concat(read.chunks).toString('utf8') : undefined;
    }
    if (program !== undefined) {
      const startedAt = performance.now();
      const interrupt = listenForInterrupt();
      try {
        const answered = await askWarmServer({ ...options, program, io }, startedAt, interrupt).catch(() => undefined); // the command reports what failed
        if (answered !== undefined) return answered;
        // Interrupted before any server answered: stop here, as the command would.
        if (interrupt.interrupted) return interrupt.exitCode;
      } finally {
        interrupt.dispose();
      }
    }
  }
  const { runCli } = await import('./main.js');
  return runCli(argv, io);
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
  // The live servers recorded for this workspace and build: normally none (then nothing else is
  // done here) or one. The folder is checked, never created: a call that finds none leaves no trace.
  const runtimeDir = runtimeDirPath(env);
  let names: string[];
  try {
    checkRuntimeDir(runtimeDir);
    names = readdirSync(runtimeDir);
  } catch {
    return undefined; // missing, or unsafe: the full client creates it or says why
  }
  const product = currentProduct();
  const recorded = names
    .filter(isRecordFile)
    .map((name) => identityFiles(runtimeDir, name))
    .flatMap((files) => {
      const record = readRecord(files.recordPath);
      return record !== undefined && record.workspace === root && sameProduct(record.product, product) ? [{ files, record }] : [];
    });
  if (recorded.length === 0) return undefined;
  // An editor window with the folder open answers first (cli/server/backend.ts); the full client asks it.
  if (editorCandidates({ root }, env).length > 0) return undefined;
  const trusted = options.trust === true || (await isTrusted(root, env));
  for (const { files, record } of recorded) {
    if (record.trusted !== trusted || !isServerProcess(record.pid) || !isOwnSocket(files.socketPath)) continue;
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
    // What the full client checks in the handshake, checked by the server (one round trip).
    const params: EvalParams = {
      expect: { protocolVersion: PROTOCOL_VERSION, workspaceRoot: expected.root, trusted: expected.trusted, product: expected.product },
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

/** The chunks already read, then the rest of `stream` (if any). */
async function* replay(chunks: readonly Buffer[], stream: NodeJS.ReadableStream | undefined): AsyncGenerator<Buffer> {
  yield* chunks;
  if (stream !== undefined) for await (const chunk of stream) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
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
