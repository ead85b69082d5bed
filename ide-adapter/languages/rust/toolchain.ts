/**
 * Finding a WORKING Rust toolchain (cargo + rustc) the way discovery finds servers: every candidate
 * is probed with `--version`, because a `cargo` on PATH can be a rustup proxy without an installed
 * toolchain. Also the one function that runs cargo ({@link runCargo}), always with an explicit
 * environment so callers (e.g. a trust policy for untrusted workspaces) decide what cargo sees.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { killGroup, knownProbe, NEUTRAL_CWD, probeCandidate, type ProbeResult, type ResolvedBinary } from '../../lsp/discovery.js';
import { keepAnswer, keptAnswer } from '../../lsp/probe-cache.js';
import { searchPathFolders, withAbsoluteSearchPath } from '../../search-path.js';

/** An environment as child processes get it; `undefined` values are left out. */
export type ToolEnv = Readonly<Record<string, string | undefined>>;

/** A cargo and a rustc that both answered `--version`, with rustc's sysroot. */
export interface RustToolchain {
  readonly cargo: ResolvedBinary;
  readonly rustc: ResolvedBinary;
  /** `rustc --print sysroot`, when rustc answered it. */
  readonly sysroot?: string;
  /** The standard library's sources in the sysroot (`lib/rustlib/src/rust/library`), when installed. */
  readonly sysrootSrc?: string;
}

/** Outcome of {@link findRustToolchain}: the toolchain, or what was tried and why it failed. */
export interface ToolchainSearch {
  readonly toolchain?: RustToolchain;
  /** Every probe that failed, in the order tried (for messages). */
  readonly failed: readonly ProbeResult[];
}

/** Result of one cargo (or rustc) run. */
export interface ToolRun {
  readonly ok: boolean;
  /** Exit code; `undefined` when killed (timeout) or not started. */
  readonly code?: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/** Options of {@link runCargo}. */
export interface ToolRunOptions {
  readonly cwd: string;
  /** The complete environment of the child (not merged with `process.env`). */
  readonly env: ToolEnv;
  readonly timeoutMs: number;
  /** Also pin `RUSTC` to the toolchain's rustc (see {@link toolchainEnv}). */
  readonly rustc?: boolean;
}

/** Where the sources of std live relative to a sysroot (rustup's `rust-src`, Debian's `rust-web-src`). */
export const SYSROOT_SRC_RELATIVE = join('lib', 'rustlib', 'src', 'rust', 'library');
/** How long `rustc --print sysroot` (or `cfg`) may take. */
const SYSROOT_TIMEOUT_MS = 5000;
/** Output kept from a tool run; `cargo metadata` of a large workspace is a few MB. */
const MAX_OUTPUT_CHARS = 64 * 1024 * 1024;

/** `$CARGO_HOME/bin` (default `~/.cargo/bin`), where rustup puts its proxies. */
function cargoHomeBin(env: ToolEnv): string {
  return join(env.CARGO_HOME ?? join(env.HOME ?? homedir(), '.cargo'), 'bin');
}

function unique(candidates: (string | undefined)[]): string[] {
  return [...new Set(candidates.filter((c): c is string => c !== undefined && c.trim() !== ''))];
}

/** Every `name` on PATH, in order (not only the first: the first may be a broken proxy). */
function allOnPath(name: string, env: ToolEnv): string[] {
  return searchPathFolders(env.PATH)
    .map((dir) => join(dir, name))
    .filter((path) => existsSync(path));
}

/**
 * Cargo candidates in priority order: the `CARGO` variable (what cargo and rust-analyzer honour),
 * every `cargo` on PATH, then `$CARGO_HOME/bin/cargo` (rust-analyzer looks there too).
 */
export function cargoCandidates(env: ToolEnv): string[] {
  return unique([env.CARGO, ...allOnPath('cargo', env), join(cargoHomeBin(env), 'cargo')]);
}

/** rustc candidates for a cargo: `RUSTC`, the rustc next to that cargo (same toolchain), PATH, `$CARGO_HOME/bin`. */
export function rustcCandidates(env: ToolEnv, cargoPath: string): string[] {
  return unique([env.RUSTC, join(dirname(cargoPath), 'rustc'), ...allOnPath('rustc', env), join(cargoHomeBin(env), 'rustc')]);
}

/**
 * The first working cargo with a working rustc. Among working toolchains, one whose sysroot has
 * the std sources wins (rust-analyzer needs them for std types; a rustup toolchain without
 * `rust-src` next to Debian's `rust-web-src` is common); otherwise the first working one.
 *
 * The search is first made from what is already known — this process's probes and the answers
 * kept from earlier ones (`lsp/probe-cache.ts`) — and decides without running anything when every
 * candidate it reaches has a known answer; at the first one without, it is made again with
 * every probe started at once. Both make the same choice.
 */
export async function findRustToolchain(env: ToolEnv): Promise<ToolchainSearch> {
  return (await searchToolchain(env, knownAnswers(env))) ?? ((await searchToolchain(env, probesInParallel(env))) as ToolchainSearch);
}

/** How one search learns a candidate's version probe and a rustc's sysroot; `undefined`: not known without running it. */
interface ToolchainProbes {
  version(candidate: string): Promise<ProbeResult> | undefined;
  sysroot(rustcPath: string): Promise<string | undefined> | undefined;
}

/** The search of {@link findRustToolchain}; `undefined` when `probes` could not tell a candidate's answer. */
async function searchToolchain(env: ToolEnv, probes: ToolchainProbes): Promise<ToolchainSearch | undefined> {
  const failed: ProbeResult[] = [];
  const working: RustToolchain[] = [];
  const seen = new Set<string>();
  for (const candidate of cargoCandidates(env)) {
    const cargo = await probes.version(candidate);
    if (cargo === undefined) return undefined;
    if (!cargo.ok || cargo.path === undefined || cargo.version === undefined) {
      failed.push(cargo);
      continue;
    }
    if (seen.has(cargo.path)) continue;
    seen.add(cargo.path);
    const rustc = await firstWorking(rustcCandidates(env, cargo.path), probes, failed);
    if (rustc === 'unknown') return undefined;
    if (rustc === undefined) continue;
    const asked = probes.sysroot(rustc.path);
    if (asked === undefined) return undefined;
    const sysroot = await asked;
    const src = sysroot !== undefined ? join(sysroot, SYSROOT_SRC_RELATIVE) : undefined;
    const toolchain: RustToolchain = {
      cargo: { path: cargo.path, version: cargo.version },
      rustc,
      ...(sysroot !== undefined ? { sysroot } : {}),
      ...(src !== undefined && existsSync(src) ? { sysrootSrc: src } : {}),
    };
    if (toolchain.sysrootSrc !== undefined) return { toolchain, failed };
    working.push(toolchain);
  }
  const first = working[0];
  return first !== undefined ? { toolchain: first, failed } : { failed };
}

/** Answers known without running anything: this process's probes and the kept ones. */
function knownAnswers(env: ToolEnv): ToolchainProbes {
  return {
    version: (candidate) => knownProbe(candidate, { env }),
    sysroot: (rustcPath) => {
      const key = sysrootKey(rustcPath, env);
      const running = sysroots.get(key);
      if (running !== undefined) return running;
      return typeof keptAnswer(sysrootQuestion(env), rustcPath, env) === 'string' ? rustcSysroot(rustcPath, env) : undefined;
    },
  };
}

/**
 * The version probes of one search, started at once: every cargo candidate, the rustc candidates
 * next to each (as the search will ask for them), and each working rustc's sysroot. The search
 * then reads them in its own order, so its choice is the same as probing one after another, in
 * the time of the slowest chain instead of the sum.
 */
function probesInParallel(env: ToolEnv): ToolchainProbes {
  const started = new Map<string, Promise<ProbeResult>>();
  const probe = (candidate: string): Promise<ProbeResult> => {
    let result = started.get(candidate);
    if (result === undefined) {
      result = probeCandidate(candidate, { env });
      started.set(candidate, result);
    }
    return result;
  };
  for (const cargo of cargoCandidates(env)) {
    void probe(cargo);
    for (const rustc of rustcCandidates(env, cargo)) {
      void probe(rustc).then((p) => (p.ok && p.path !== undefined ? rustcSysroot(p.path, env) : undefined));
    }
  }
  return { version: probe, sysroot: (rustcPath) => rustcSysroot(rustcPath, env) };
}

/** The first candidate that answered its probe; `'unknown'` when `probes` could not tell one's answer. */
async function firstWorking(candidates: readonly string[], probes: ToolchainProbes, failed: ProbeResult[]): Promise<ResolvedBinary | undefined | 'unknown'> {
  for (const candidate of candidates) {
    const probe = await probes.version(candidate);
    if (probe === undefined) return 'unknown';
    if (probe.ok && probe.path !== undefined && probe.version !== undefined) return { path: probe.path, version: probe.version };
    failed.push(probe);
  }
  return undefined;
}

const sysroots = new Map<string, Promise<string | undefined>>();

function sysrootKey(rustcPath: string, env: ToolEnv): string {
  return JSON.stringify([rustcPath, env.PATH ?? '', env.RUSTUP_TOOLCHAIN ?? '']);
}

/** What `--print sysroot` and `--print cfg` ask, as kept answers name it: the environment that steers rustc. */
function sysrootQuestion(env: ToolEnv): string {
  return JSON.stringify(['--print sysroot', env.PATH ?? '', env.RUSTUP_TOOLCHAIN ?? '']);
}
function cfgQuestion(env: ToolEnv): string {
  return JSON.stringify(['--print cfg', env.PATH ?? '', env.RUSTUP_TOOLCHAIN ?? '']);
}

/**
 * `rustc --print sysroot` (cached per rustc and PATH, and kept across processes per rustc's
 * identity: `lsp/probe-cache.ts`); `undefined` when rustc cannot say.
 */
function rustcSysroot(rustcPath: string, env: ToolEnv): Promise<string | undefined> {
  const key = sysrootKey(rustcPath, env);
  let result = sysroots.get(key);
  if (result === undefined) {
    const kept = keptAnswer(sysrootQuestion(env), rustcPath, env);
    result =
      typeof kept === 'string' && kept !== ''
        ? Promise.resolve(kept)
        : runTool(rustcPath, ['--print', 'sysroot'], { cwd: NEUTRAL_CWD, env, timeoutMs: SYSROOT_TIMEOUT_MS }).then((run) => {
            const line = run.stdout.trim().split('\n')[0]?.trim();
            if (!run.ok || line === undefined || line === '') return undefined;
            keepAnswer(sysrootQuestion(env), rustcPath, env, line);
            return line;
          });
    sysroots.set(key, result);
  }
  return result;
}

const cfgs = new Map<string, Promise<string[] | undefined>>();

/**
 * `rustc --print cfg` of the host target, one atom a line as rustc prints them (`unix`,
 * `target_os="linux"`); cached per rustc and PATH, and kept across processes like the sysroot;
 * `undefined` when rustc cannot say.
 */
export function rustcCfg(rustcPath: string, env: ToolEnv): Promise<string[] | undefined> {
  const key = sysrootKey(rustcPath, env);
  let result = cfgs.get(key);
  if (result === undefined) {
    const kept = keptAnswer(cfgQuestion(env), rustcPath, env);
    result =
      Array.isArray(kept) && kept.length > 0 && kept.every((atom) => typeof atom === 'string')
        ? Promise.resolve(kept)
        : runTool(rustcPath, ['--print', 'cfg'], { cwd: NEUTRAL_CWD, env, timeoutMs: SYSROOT_TIMEOUT_MS }).then((run) => {
            const atoms = run.stdout.split('\n').map((l) => l.trim()).filter((l) => l !== '');
            if (!run.ok || atoms.length === 0) return undefined;
            keepAnswer(cfgQuestion(env), rustcPath, env, atoms);
            return atoms;
          });
    cfgs.set(key, result);
  }
  return result;
}

/**
 * The environment that makes rust-analyzer (and the cargo it runs) use `toolchain`: `CARGO` and
 * its directories first on PATH (rust-analyzer also runs bare `cargo`/`rustc`). `RUSTC` only when
 * asked: set, it would override a trusted workspace's own `build.rustc`.
 */
export function toolchainEnv(toolchain: RustToolchain, env: ToolEnv, options: { readonly rustc?: boolean } = {}): Record<string, string> {
  const dirs = unique([dirname(toolchain.cargo.path), dirname(toolchain.rustc.path)]);
  const path = env.PATH !== undefined && env.PATH !== '' ? `${dirs.join(':')}:${env.PATH}` : dirs.join(':');
  return { CARGO: toolchain.cargo.path, ...(options.rustc === true ? { RUSTC: toolchain.rustc.path } : {}), PATH: path };
}

/**
 * Runs cargo of `toolchain` with `args`: the one way Dialect runs cargo. `env` is the whole child
 * environment (plus `CARGO`/`RUSTC` of the toolchain); bounded by `timeoutMs` (the process group
 * is killed). Never throws.
 */
export function runCargo(toolchain: RustToolchain, args: readonly string[], options: ToolRunOptions): Promise<ToolRun> {
  return runTool(toolchain.cargo.path, args, { ...options, env: { ...options.env, ...toolchainEnv(toolchain, options.env, { rustc: options.rustc === true }) } });
}

async function runTool(command: string, args: readonly string[], options: ToolRunOptions): Promise<ToolRun> {
  // Loaded on first use: a call the background server answers never spawns anything here.
  const { spawn } = await import('node:child_process');
  return new Promise((resolvePromise) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let settled = false;
    const finish = (run: Omit<ToolRun, 'stdout' | 'stderr' | 'timedOut'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolvePromise({ ...run, stdout, stderr, timedOut });
    };
    const env = withAbsoluteSearchPath(Object.fromEntries(Object.entries(options.env).filter((e): e is [string, string] => e[1] !== undefined)));
    // Own process group: cargo's children (rustc, build scripts) die with it on timeout.
    const child = spawn(command, [...args], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true, windowsHide: true });
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid, 'SIGKILL');
    }, options.timeoutMs);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stdout.length < MAX_OUTPUT_CHARS) stdout += chunk;
    });
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < MAX_OUTPUT_CHARS) stderr += chunk;
    });
    child.on('error', (error) => {
      stderr += error.message;
      finish({ ok: false });
    });
    child.on('close', (code) => finish({ ok: code === 0 && !timedOut, ...(code !== null ? { code } : {}) }));
  });
}

/** The first `error:` line of cargo's stderr (or its first line), for messages. */
export function cargoErrorLine(run: ToolRun, timeoutMs: number): string {
  if (run.timedOut) return `no answer within ${timeoutMs} ms`;
  const lines = run.stderr.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  return lines.find((l) => l.startsWith('error')) ?? lines[0] ?? `exit code ${run.code ?? '?'}`;
}
