/**
 * The background server's side of `dialect/eval` (eval-protocol.ts): it answers a client's whole
 * `dialect eval` on its warm language servers — parses, evaluates and prints exactly as the
 * command does in its own process (`answerAndPrint`, the same code), into text sent back with the
 * exit code — so the client loads neither the parser nor the interpreter. It answers only what
 * the client would have asked it anyway, with the same result: programs that ask a language
 * server or the editor (and programs that do not parse: their caret snippet is pure), once its
 * servers have settled. Anything else is `elsewhere` and the client evaluates it itself:
 * programs that ask no server (they never touched the server before), programs that run git
 * (`gitdiff` runs git with the caller's environment, not the server's; `explain` runs a program
 * given as text, which may), and programs asked while
 * the servers still start or index (the client waits with its live progress line).
 */
import type { CancellationToken, Disposable, MessageConnection } from 'vscode-jsonrpc/node';
import type { ParseResult } from '../../dialect/index.js';
import type { IdeBackend } from '../../ide-adapter/backend.js';
import { dirname } from 'node:path';
import type { Io } from '../terminal.js';
import { checkEvalParams, EVAL_METHOD, type EvalParams, type EvalResult } from './eval-protocol.js';
import { PROTOCOL_VERSION } from '../../ide-adapter/remote/methods.js';
import { serverIdentity, type ServerIdentity } from './identity.js';
import { currentProduct, sameProduct } from './record.js';

/** What the server lends to its clients' evaluations. */
export interface EvalServiceOptions {
  readonly backend: IdeBackend;
  /** This server's identity: a client whose environment resolves to another is answered `elsewhere`. */
  readonly identity: ServerIdentity;
  /** Whether the server has started its language servers (before that, their list is not known yet). */
  readonly started: () => boolean;
  /** Called when a request starts and when it ends (the idle timer's cue). */
  readonly onActivity?: () => void;
}

/**
 * Functions (by name) a program calling which is evaluated by the caller: `gitdiff` runs git with
 * the caller's environment, and `explain` runs a program given as text, which may call it.
 */
const CALLER_ENVIRONMENT_FUNCTIONS: ReadonlySet<string> = new Set(['gitdiff', 'explain']);

/** A client's output stream, collected: the printers only write to it and read `isTTY` and `columns`. */
class TextSink {
  readonly #parts: string[] = [];
  constructor(
    readonly isTTY: boolean,
    readonly columns: number | undefined,
  ) {}

  write(chunk: string | Uint8Array): boolean {
    this.#parts.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  }

  get text(): string {
    return this.#parts.join('');
  }
}

/** Adds `dialect/eval` to a client's connection; disposing it (the connection closing) cancels its evaluations. */
export function serveEval(connection: MessageConnection, options: EvalServiceOptions): Disposable {
  const running = new Set<AbortController>();
  const registration = connection.onRequest<EvalResult, unknown>(EVAL_METHOD, async (raw: unknown, token: CancellationToken): Promise<EvalResult> => {
    const params = checkEvalParams(raw);
    if (typeof params === 'string') {
      const { ResponseError, ErrorCodes } = await import('vscode-jsonrpc/node');
      throw new ResponseError(ErrorCodes.InvalidParams, `invalid params of ${EVAL_METHOD}: ${params}`); // answered as an error response
    }
    const controller = new AbortController();
    running.add(controller);
    const cancellation = token.onCancellationRequested(() => controller.abort());
    options.onActivity?.();
    try {
      return await answer(params, controller.signal, options);
    } finally {
      cancellation.dispose();
      running.delete(controller);
      options.onActivity?.();
    }
  });
  return {
    dispose: () => {
      for (const controller of running) controller.abort();
      running.clear();
      registration.dispose();
    },
  };
}

/** The answer to one request (see the module comment). */
async function answer(params: EvalParams, signal: AbortSignal, options: EvalServiceOptions): Promise<EvalResult> {
  const startedAt = performance.now();
  const { expect } = params;
  const product = currentProduct();
  const { identity } = options;
  if (expect.protocolVersion !== PROTOCOL_VERSION || expect.workspaceRoot !== identity.workspaceRoot || expect.trusted !== identity.trusted || !sameProduct(expect.product, product)) {
    return elsewhere('this server is of another protocol, build, workspace or trust');
  }
  // Loaded with the first request, not with the server: its start-up loads none of it.
  const [{ parse }, { programCalls, programNeedsServers }] = await Promise.all([import('../../dialect/index.js'), import('../session.js')]);
  const parsed = parse(params.program);
  if (parsed.ok) {
    if (!programNeedsServers(parsed.ast)) return elsewhere('the program asks no language server');
    if (programCalls(parsed.ast, CALLER_ENVIRONMENT_FUNCTIONS)) return elsewhere('the program runs git (or a program that may) with the caller’s environment');
  }
  // Whether the client's environment is this server's takes a few milliseconds of file-system
  // probes: they run while the language servers work on the evaluation, whose answer goes only to
  // a client they admit (the evaluation only reads; another client's is cancelled and dropped).
  const speculation = new AbortController();
  const evaluation = evaluate(params, parsed, AbortSignal.any([signal, speculation.signal]), options, startedAt);
  evaluation.catch(() => undefined); // awaited below; handled until then
  const admitted = await new Promise<boolean>((resolve) => setImmediate(() => resolve(isOurClient(params, identity))));
  if (!admitted) {
    speculation.abort();
    await evaluation.catch(() => undefined);
    return elsewhere('the client’s environment belongs to another background server');
  }
  return evaluation;
}

/** Evaluates and prints a program the server answers (see the module comment), or says why it does not now. */
async function evaluate(params: EvalParams, parsed: ParseResult, signal: AbortSignal, options: EvalServiceOptions, startedAt: number): Promise<EvalResult> {
  const [{ CliSession }, { answerAndPrint }] = await Promise.all([import('../session.js'), import('../eval.js')]);
  const cli = await CliSession.borrow({ workspaceRoot: options.identity.workspaceRoot, backend: options.backend, trusted: options.identity.trusted, readyTimeoutMs: params.timeoutMs });
  try {
    if (parsed.ok && (!options.started() || !cli.isSettled())) return elsewhere(`the language servers are not ready (${cli.progressText()})`);
    const stdout = new TextSink(params.stdout.isTTY, params.stdout.columns);
    const stderr = new TextSink(params.stderr.isTTY, params.stderr.columns);
    // Only written to (stdin is never read: the client read the program).
    const io = { stdin: undefined, stdout, stderr, env: params.env } as unknown as Io;
    const exitCode = await answerAndPrint(cli, params.program, parsed, { json: params.json, quiet: params.quiet, timeoutMs: params.timeoutMs, startedAt, signal, io });
    return { kind: 'answer', stdout: stdout.text, stderr: stderr.text, exitCode };
  } finally {
    await cli.shutdown();
  }
}

/**
 * Whether the client's environment resolves to this server's identity, computed as the client's
 * full path computes it (`connectOrStart`): in its working folder, so a relative `PATH` entry
 * finds what it finds there. Synchronous, so nothing else runs while the folder is the client's.
 */
function isOurClient(params: EvalParams, identity: ServerIdentity): boolean {
  const own = process.cwd();
  try {
    process.chdir(params.cwd);
  } catch {
    return false; // the client's folder is not ours to enter: its full path decides
  }
  try {
    return serverIdentity(dirname(identity.socketPath), { workspaceRoot: identity.workspaceRoot, trusted: identity.trusted, env: params.env }).id === identity.id;
  } finally {
    process.chdir(own);
  }
}

function elsewhere(reason: string): EvalResult {
  return { kind: 'elsewhere', reason };
}
