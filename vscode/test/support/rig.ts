/**
 * A real VS Code for tests: code-server (installed once by scripts/vscode-rig.sh into a cache
 * folder) on a free 127.0.0.1 port with a fresh user-data-dir, extensions-dir and runtime dir,
 * our extension installed as an unpacked folder (bundled from the current sources, once per run:
 * support/extension-build.ts), and headless
 * Debian Chromium (playwright-core) showing the workbench on a folder — the page must stay open:
 * without a connected workbench the editor's provider commands hang. Every wait is bounded and
 * waits on an event (a log line, a file appearing); `close()` stops everything it started.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, watch } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { buildExtension } from '../../build.js';
import { readRecords, type DiscoveryRecord } from '../../../ide-adapter/editors/discovery.js';

/** Debian's Chromium (never a downloaded browser). */
export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const RIG_SCRIPT = join(repoRoot, 'scripts', 'vscode-rig.sh');

/** The unpacked extension's folder name: `publisher.name-version`, as VS Code expects. */
const EXTENSION_FOLDER = 'dialect-ide.dialect-ide-vscode-0.1.0';

/** Bounds of the rig's waits (measured: health 0.4 s, activation 5.5–9.7 s on a fresh profile, 2 cores). */
export const RIG_LIMITS = {
  /** code-server prints that it listens. */
  listenMs: 30_000,
  /** The workbench connects and our extension activates and advertises its folder. */
  activationMs: 90_000,
  /** Stopping code-server gracefully before it is killed. */
  stopMs: 5_000,
} as const;

/** Where the installed rig's programs are (`rig.json` written by the install script). */
export interface RigPaths {
  readonly node: string;
  readonly codeServer: string;
}

/**
 * The installed rig, or undefined so the test can skip; under CI (`CI=true`) a missing rig or
 * browser is a failure, never a silent skip.
 */
export async function requireRig(): Promise<RigPaths | undefined> {
  const check = spawnSync('sh', [RIG_SCRIPT, '--check'], { encoding: 'utf8' });
  const missing = check.status !== 0 ? `the VS Code test rig is not installed: run sh scripts/vscode-rig.sh (npm test's setup does)` : !existsSync(CHROMIUM) ? `${CHROMIUM} is missing: apt-get install -y chromium` : undefined;
  if (missing !== undefined) {
    if (process.env.CI === 'true') throw new Error(missing);
    return undefined;
  }
  const dir = check.stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(await readFile(join(dir, 'rig.json'), 'utf8')) as RigPaths;
}

/** A VS Code window on a folder with our extension running in it. */
export interface VsCodeWindow {
  readonly page: Page;
  /** The runtime dir the window's extension advertises in (its `XDG_RUNTIME_DIR`). */
  readonly runtimeDir: string;
  /** The discovery record of the folder (written by our extension once it serves). */
  readonly record: DiscoveryRecord;
  /** The code-server process (its own process group). */
  readonly pid: number;
  /** code-server's output so far, for failure messages. */
  log(): string;
  /** Stops the browser and code-server (the whole process group); waits until they are gone. */
  close(): Promise<void>;
  /** Closes the browser only: code-server keeps the window's extension host, without its workbench. */
  closeBrowser(): Promise<void>;
  /** Kills code-server's whole process group at once (SIGKILL), leaving its files where they are (`close` removes them later). */
  kill(): Promise<void>;
}

/** Options of {@link openVsCode}. */
export interface OpenOptions {
  /** An unpacked extension folder to install instead of a bundle of the current sources. */
  readonly extension?: string;
  /** Variables added to code-server's environment (its extension host and the servers it spawns inherit them). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Open the folder as an UNTRUSTED workspace (restricted mode): workspace trust on, with no
   * start-up prompt, so the folder stays untrusted. Default: trust off (every folder trusted).
   */
  readonly untrusted?: boolean;
}

/** Opens `folder` in a fresh code-server with our extension, and waits (bounded) until the extension serves it. */
export async function openVsCode(rig: RigPaths, folder: string, options: OpenOptions = {}): Promise<VsCodeWindow> {
  const base = await mkdtemp(join(tmpdir(), 'dialect-vscode-'));
  const userData = join(base, 'user-data');
  const extensions = join(base, 'extensions');
  const runtimeDir = join(base, 'runtime');
  await mkdir(runtimeDir, { mode: 0o700 });
  if (options.untrusted === true) {
    await mkdir(join(userData, 'User'), { recursive: true });
    await writeFile(join(userData, 'User', 'settings.json'), JSON.stringify({ 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' }));
  }
  // The run's one build (extension-build.ts, the editor project's globalSetup), else a build of its own.
  const extension = options.extension ?? inject('dialectExtensionBuild');
  if (extension !== undefined) await cp(extension, join(extensions, EXTENSION_FOLDER), { recursive: true });
  else await buildExtension(join(extensions, EXTENSION_FOLDER));
  const port = await freePort();
  let output = '';
  let browser: Browser | undefined;
  const child = spawn(
    rig.node,
    [rig.codeServer, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check', ...(options.untrusted === true ? [] : ['--disable-workspace-trust']), '--user-data-dir', userData, '--extensions-dir', extensions, folder],
    // Its own process group, so every process it starts (extension host, servers) is stopped with it.
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...(options.env ?? {}), XDG_RUNTIME_DIR: runtimeDir } },
  );
  const collect = (chunk: Buffer): void => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  // Chromium starts while code-server does (both take seconds; neither needs the other yet).
  const launching = chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS, ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])] }).then((b) => (browser = b));
  // Its failure is thrown where the page is opened; until then it must not count as unhandled.
  launching.catch(() => undefined);
  const closeBrowser = async (): Promise<void> => {
    await launching.catch(() => undefined);
    await browser?.close().catch(() => undefined);
  };
  const close = async (): Promise<void> => {
    await closeBrowser();
    await stopGroup(child);
    await rm(base, { recursive: true, force: true });
  };
  const kill = async (): Promise<void> => {
    await closeBrowser();
    await stopGroup(child, 'SIGKILL');
  };
  try {
    await waitFor(child, () => output.includes('HTTP server listening'), RIG_LIMITS.listenMs, 'code-server to listen', () => output);
    const page = await (await launching).newPage();
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}`);
    const record = await waitForRecord(join(runtimeDir, 'dialect', 'vscode'), runtimeDir, folder, child, () => output);
    return { page, runtimeDir, record, pid: child.pid as number, log: () => output, close, closeBrowser, kill };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A free TCP port on 127.0.0.1. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Resolves when `ready()` holds after output arrives; rejects at the deadline or when the process exits. */
function waitFor(child: ChildProcess, ready: () => boolean, ms: number, what: string, log: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (ready()) finish(resolve);
    };
    const onExit = (code: number | null): void => finish(() => reject(new Error(`code-server exited (${code}) while waiting for ${what}:\n${log()}`)));
    const timer = setTimeout(() => finish(() => reject(new Error(`no ${what} within ${ms} ms:\n${log()}`))), ms);
    const finish = (then: () => void): void => {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.stderr?.off('data', check);
      child.off('exit', onExit);
      then();
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.on('exit', onExit);
    check();
  });
}

/** Waits (on file events, bounded) for the extension's discovery record of `folder`. */
async function waitForRecord(dir: string, runtimeDir: string, folder: string, child: ChildProcess, log: () => string): Promise<DiscoveryRecord> {
  const root = await realpath(folder);
  const find = (): DiscoveryRecord | undefined => readRecords(dir).find((r) => r.workspaceRoot === root);
  // The folder appears when the extension first advertises: watch the runtime dir until then.
  return new Promise((resolve, reject) => {
    const watchers = [watch(runtimeDir, { recursive: true }, () => check())];
    const check = (): void => {
      const found = find();
      if (found !== undefined) finish(() => resolve(found));
    };
    const onExit = (code: number | null): void => finish(() => reject(new Error(`code-server exited (${code}) before the extension served ${folder}:\n${log()}`)));
    const timer = setTimeout(() => finish(() => reject(new Error(`the extension did not serve ${folder} within ${RIG_LIMITS.activationMs} ms:\n${log()}`))), RIG_LIMITS.activationMs);
    const finish = (then: () => void): void => {
      clearTimeout(timer);
      for (const w of watchers) w.close();
      child.off('exit', onExit);
      then();
    };
    child.on('exit', onExit);
    check();
  });
}

/** Stops a detached child's whole process group: SIGTERM (or `first`), then SIGKILL after a bounded wait. */
async function stopGroup(child: ChildProcess, first: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const signalGroup = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is gone already.
    }
  };
  const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(first);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, RIG_LIMITS.stopMs)))]);
  clearTimeout(timer);
  // Whatever is left of the group (extension host, language servers, the agent host) goes now.
  signalGroup('SIGKILL');
  await exited;
}

/** Whether any process of a process group is still alive (not a zombie). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  // Zombies still count for kill(0); read their states.
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') return true;
    } catch {
      // The process ended while we looked.
    }
  }
  return false;
}
