/**
 * `dialect/eval`: the background server's request that answers a whole `dialect eval` — the
 * server parses the program, evaluates it on its warm language servers and prints the answer as
 * the command would have, into text the client writes out. Its names, wire types and checks. It
 * rides on the remote protocol's connection (`serveBackend`'s `extend`); it carries what the
 * handshake would check, so a warm call makes one round trip.
 */
import { MAX_PROGRAM_BYTES } from '../stdin-program.js';

/** The request's method. */
export const EVAL_METHOD = 'dialect/eval';

/** What a client's output stream is: colour and the live line depend on it. */
export interface StreamShape {
  readonly isTTY: boolean;
  readonly columns?: number;
}

/**
 * What the client expects the server to be — what the full client checks in the handshake: the
 * server answers `elsewhere` unless it is all of it (the request needs no handshake before it).
 */
export interface EvalExpectation {
  readonly protocolVersion: number;
  readonly workspaceRoot: string;
  readonly trusted: boolean;
  readonly product: { readonly version: string; readonly installPath: string };
}

/** The request: the program and every option of `dialect eval` that changes what is printed. */
export interface EvalParams {
  readonly expect: EvalExpectation;
  readonly program: string;
  readonly json: boolean;
  readonly quiet: boolean;
  /** What is left of `--timeout` when the request is sent. */
  readonly timeoutMs: number;
  readonly stdout: StreamShape;
  readonly stderr: StreamShape;
  /**
   * The client's environment (with `HOME` as the client resolves it) and working folder: the
   * server answers only when they resolve to its own identity (`answer-inputs.ts`), which the
   * client does not compute; `NO_COLOR`, `FORCE_COLOR` and `TERM` also decide colour.
   */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
}

/**
 * The answer: what to print and the exit code; or `elsewhere` — the server does not answer this
 * program (it asks no language server, it runs git with the caller's environment, the servers are
 * still indexing, the client's environment is another server's) and the client evaluates it
 * itself, exactly as without a server.
 */
export type EvalResult =
  | { readonly kind: 'answer'; readonly stdout: string; readonly stderr: string; readonly exitCode: number }
  | { readonly kind: 'elsewhere'; readonly reason: string };


function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStreamShape(value: unknown): value is StreamShape {
  return isObject(value) && typeof value['isTTY'] === 'boolean' && (value['columns'] === undefined || (Number.isInteger(value['columns']) && (value['columns'] as number) > 0));
}

function isExpectation(value: unknown): value is EvalExpectation {
  if (!isObject(value) || typeof value['protocolVersion'] !== 'number' || typeof value['workspaceRoot'] !== 'string' || typeof value['trusted'] !== 'boolean') return false;
  const product = value['product'];
  return isObject(product) && typeof product['version'] === 'string' && typeof product['installPath'] === 'string';
}

/** The request's params, or what is wrong with them (checked by hand on the server). */
export function checkEvalParams(raw: unknown): EvalParams | string {
  if (!isObject(raw)) return 'not an object';
  const { expect, program, json, quiet, timeoutMs, stdout, stderr, env, cwd } = raw;
  if (!isExpectation(expect)) return 'expect: expected {protocolVersion, workspaceRoot, trusted, product}';
  if (typeof program !== 'string' || Buffer.byteLength(program) > MAX_PROGRAM_BYTES) return `program: expected a string of at most ${MAX_PROGRAM_BYTES} bytes`;
  if (typeof json !== 'boolean' || typeof quiet !== 'boolean') return 'json, quiet: expected booleans';
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs)) return 'timeoutMs: expected a number';
  if (!isStreamShape(stdout) || !isStreamShape(stderr)) return 'stdout, stderr: expected {isTTY, columns?}';
  if (!isObject(env) || !Object.values(env).every((value) => typeof value === 'string')) return 'env: expected an object of strings';
  if (typeof cwd !== 'string' || !cwd.startsWith('/')) return 'cwd: expected an absolute path';
  return raw as unknown as EvalParams;
}

/** The server's answer, or undefined when it is not one (the client then evaluates the program itself). */
export function checkEvalResult(raw: unknown): EvalResult | undefined {
  if (!isObject(raw)) return undefined;
  if (raw['kind'] === 'elsewhere') return typeof raw['reason'] === 'string' ? (raw as unknown as EvalResult) : undefined;
  if (raw['kind'] !== 'answer') return undefined;
  return typeof raw['stdout'] === 'string' && typeof raw['stderr'] === 'string' && Number.isInteger(raw['exitCode']) ? (raw as unknown as EvalResult) : undefined;
}
