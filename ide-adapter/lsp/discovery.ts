/**
 * Finding a WORKING server binary: every candidate is probed with `--version` (bounded by a timeout)
 * because a file on PATH can be a rustup proxy without the component, a stale symlink or a launcher
 * that needs a missing package. Results are cached per candidate and environment, and a working
 * candidate's answer is kept across processes per program identity (`probe-cache.ts`), so a cold
 * start does not run it again until the program changes.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { LspClientError } from './errors.js';
import type { ServerDefinition } from './servers.js';
import { keepAnswer, keptAnswer } from './probe-cache.js';
import { searchPathFolders } from '../search-path.js';

/** A candidate that answered its version probe. */
export interface ResolvedBinary {
  /** Absolute path of the executable (or script). */
  readonly path: string;
  /** First line of its `--version` output. */
  readonly version: string;
}

/** Outcome of probing one candidate. */
export interface ProbeResult {
  readonly candidate: string;
  readonly ok: boolean;
  /** The absolute path the candidate resolved to, if it exists. */
  readonly path?: string;
  readonly version?: string;
  /** Why it failed, e.g. `not on PATH`, `exit code 1: error: Unknown binary...`, `no answer within 5000 ms`. */
  readonly reason?: string;
}

/** Options of {@link findServerBinary} and {@link probeCandidate}. */
export interface DiscoveryOptions {
  /** Environment used to resolve bare names (PATH) and to run the probe; defaults to `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Per-probe timeout; default 5000 ms. */
  readonly timeoutMs?: number;
  /** Probe arguments; default `['--version']`. */
  readonly versionArgs?: readonly string[];
}

const DEFAULT_PROBE_TIMEOUT_MS = 5000;
const cache = new Map<string, Promise<ProbeResult>>();

/** Forgets this process's probe results (a kept answer stays: its program is asked again once it changed, `probe-cache.ts`). */
export function clearDiscoveryCache(): void {
  cache.clear();
}

/** Scripts run with this Node binary: no reliance on shebangs or exec bits (test fakes, npm servers). */
function isNodeScript(path: string): boolean {
  return /\.(c|m)?js$/i.test(path);
}

/** The command line that runs `binary` with `args`. */
export function launchCommand(binary: string, args: readonly string[]): { command: string; args: string[] } {
  return isNodeScript(binary) ? { command: process.execPath, args: [binary, ...args] } : { command: binary, args: [...args] };
}

/** Resolves a bare name on PATH (first executable match); paths are made absolute and checked to exist. */
export function resolveCandidate(candidate: string, env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  const usable = (path: string): boolean => {
    try {
      if (!statSync(path).isFile()) return false;
      if (!isNodeScript(path)) accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (candidate.includes('/') || isAbsolute(candidate)) {
    const path = resolve(candidate);
    return usable(path) ? path : undefined;
  }
  for (const dir of searchPathFolders(env.PATH)) {
    const path = join(dir, candidate);
    if (usable(path)) return path;
  }
  return undefined;
}

/** Probes one candidate (cached by resolved path, arguments and PATH). Never throws, never hangs. */
export function probeCandidate(candidate: string, options: DiscoveryOptions = {}): Promise<ProbeResult> {
  const env = options.env ?? process.env;
  const path = resolveCandidate(candidate, env);
  if (path === undefined) {
    return Promise.resolve({ candidate, ok: false, reason: candidate.includes('/') ? 'no such executable' : 'not on PATH' });
  }
  const versionArgs = options.versionArgs ?? ['--version'];
  const key = JSON.stringify([path, versionArgs, env.PATH ?? '']);
  let result = cache.get(key);
  if (result === undefined) {
    const kept = keptVersion(path, versionArgs, env);
    result =
      kept !== undefined
        ? Promise.resolve({ candidate, path, ok: true, version: kept })
        : runProbe(candidate, path, versionArgs, env, options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS).then((probed) => {
            if (probed.ok && probed.version !== undefined) keepAnswer(versionQuestion(versionArgs, env), path, env, probed.version);
            return probed;
          });
    cache.set(key, result);
  }
  return result;
}

/**
 * The answer of a probe this process ran or started, or one kept from an earlier process
 * (`probe-cache.ts`); `undefined` when only running the candidate would tell. Never spawns.
 */
export function knownProbe(candidate: string, options: DiscoveryOptions = {}): Promise<ProbeResult> | undefined {
  const env = options.env ?? process.env;
  const path = resolveCandidate(candidate, env);
  if (path === undefined) return undefined;
  const versionArgs = options.versionArgs ?? ['--version'];
  const running = cache.get(JSON.stringify([path, versionArgs, env.PATH ?? '']));
  if (running !== undefined) return running;
  return keptVersion(path, versionArgs, env) !== undefined ? probeCandidate(candidate, options) : undefined;
}

/** What a version probe asks: its arguments and the PATH a launcher may search. */
function versionQuestion(versionArgs: readonly string[], env: Readonly<Record<string, string | undefined>>): string {
  return JSON.stringify(['version', versionArgs, env.PATH ?? '']);
}

function keptVersion(path: string, versionArgs: readonly string[], env: Readonly<Record<string, string | undefined>>): string | undefined {
  const kept = keptAnswer(versionQuestion(versionArgs, env), path, env);
  return typeof kept === 'string' && kept !== '' ? kept : undefined;
}

/** Where probes run: a folder no workspace controls. */
export const NEUTRAL_CWD = '/';

async function runProbe(
  candidate: string,
  path: string,
  versionArgs: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  timeoutMs: number,
): Promise<ProbeResult> {
  const { command, args } = launchCommand(path, versionArgs);
  // Loaded on first use: a call the background server answers never spawns anything here.
  const { spawn } = await import('node:child_process');
  return new Promise((resolvePromise) => {
    let stdout = '';
    let stderr = '';
    let settled = false;
    const finish = (result: ProbeResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolvePromise(result);
    };
    const firstLine = (text: string) => text.split(/\r?\n/).find((l) => l.trim() !== '')?.trim() ?? '';
    // Own process group, so a launcher's grandchild holding our pipes dies with it on timeout. Run
    // from a folder no workspace controls: a rustup proxy obeys the rust-toolchain.toml of its
    // working directory, which an untrusted workspace could point at a program of its own.
    const child = spawn(command, args, { cwd: NEUTRAL_CWD, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true, windowsHide: true });
    const timer = setTimeout(() => {
      killGroup(child.pid, 'SIGKILL');
      finish({ candidate, path, ok: false, reason: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
    const collect = (chunk: Buffer, into: 'out' | 'err') => {
      // Only the first line matters; keep a little to stay bounded against chatty binaries.
      if (into === 'out' && stdout.length < 4096) stdout += chunk.toString('utf8');
      if (into === 'err' && stderr.length < 4096) stderr += chunk.toString('utf8');
    };
    child.stdout.on('data', (chunk: Buffer) => collect(chunk, 'out'));
    child.stderr.on('data', (chunk: Buffer) => collect(chunk, 'err'));
    child.on('error', (error) => finish({ candidate, path, ok: false, reason: error.message }));
    child.on('close', (code, signal) => {
      if (code === 0) {
        const version = firstLine(stdout) || firstLine(stderr);
        finish(version === '' ? { candidate, path, ok: false, reason: 'printed no version' } : { candidate, path, ok: true, version });
      } else {
        const why = code !== null ? `exit code ${code}` : `killed by ${signal ?? 'a signal'}`;
        finish({ candidate, path, ok: false, reason: firstLine(stderr) ? `${why}: ${firstLine(stderr)}` : why });
      }
    });
  });
}

/** Sends `signal` to the process group led by `pid` (our detached children lead their own groups). */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

/**
 * The first candidate of `definition` that answers its version probe. Candidates are probed in
 * priority order; a missing server throws `server-not-found` naming the install command and what
 * was tried.
 */
export async function findServerBinary(definition: ServerDefinition, options: DiscoveryOptions = {}): Promise<ResolvedBinary> {
  const tried: ProbeResult[] = [];
  const env = options.env ?? process.env;
  const candidates = definition.candidates(env);
  for (const candidate of candidates) {
    // A version known without running the binary (a bundled package's) needs no probe.
    const path = definition.staticVersion !== undefined ? resolveCandidate(candidate, env) : undefined;
    const known = path !== undefined ? definition.staticVersion?.(path) : undefined;
    if (path !== undefined && known !== undefined) return { path, version: known };
    const result = await probeCandidate(candidate, { ...options, versionArgs: options.versionArgs ?? definition.versionArgs });
    if (result.ok && result.path !== undefined && result.version !== undefined) return { path: result.path, version: result.version };
    tried.push(result);
  }
  const override = definition.overrideVar !== undefined ? env[definition.overrideVar] : undefined;
  if (definition.overrideVar !== undefined && override !== undefined && override.trim() !== '') {
    // The user named this program: say it is broken rather than quietly using another one.
    const why = tried[0]?.reason ?? 'not usable here';
    throw new LspClientError(
      'server-misconfigured',
      `${definition.overrideVar} names ${override}, which is not a working ${definition.displayName} (${why}). Fix the path, or unset ${definition.overrideVar} to use the installed one.`,
      { serverId: definition.id },
    );
  }
  const detail = tried.length === 0 ? 'no candidates' : tried.map((t) => `${t.path ?? t.candidate} (${t.reason ?? 'failed'})`).join('; ');
  throw new LspClientError('server-not-found', `${definition.displayName} was not found or does not work. Install it: ${definition.installHint}. Tried: ${detail}.`, {
    serverId: definition.id,
  });
}
