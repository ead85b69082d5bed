/**
 * Faults of real language servers: a tsgo process that stops answering (SIGSTOP) is detected,
 * killed and restarted; 200 concurrent calls sharing one AbortSignal (directly, and as one Dialect
 * evaluation) add one listener to it, not 200; rust-analyzer's proc-macro-srv temp folders go away
 * with the server's private temp folder.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocumentSymbolRequest, WorkspaceSymbolRequest, type DocumentSymbol, type SymbolInformation } from 'vscode-languageserver-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LanguageServer, LIVENESS_PROBE_TIMEOUT_MS, statusLine } from '../lsp/client.js';
import { isLspClientError, type LspClientError } from '../lsp/errors.js';
import { rustAnalyzerServer } from '../languages/rust/index.js';
import { typeScriptServer } from '../languages/typescript/index.js';
import { uriToPath } from '../lsp/uris.js';
import { IdeSession } from '../session.js';
import { rustOfflineEnv } from './support/rust-offline.js';
import { copyFixture, isAlive, requireServer } from './support/servers.js';

const tsBinary = await requireServer(typeScriptServer);
const rustEnv = await rustOfflineEnv();
const rustBinary = await requireServer(rustAnalyzerServer, rustEnv);

/** Live (non-zombie) processes in a process group, from /proc. */
/** A process's state letter from /proc (`R`, `S`, `T` when stopped…), or undefined when it is gone. */
function processState(pid: number): string | undefined {
  try {
    // The state follows the command name, which is in parentheses and may itself hold spaces.
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[0];
  } catch {
    return undefined;
  }
}

function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command: state ppid pgrp ...
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') members.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return members;
}

/** The value of an environment variable of a running process, from /proc. */
function environmentOf(pid: number, name: string): string | undefined {
  const entry = readFileSync(`/proc/${pid}/environ`, 'utf8')
    .split('\0')
    .find((e) => e.startsWith(`${name}=`));
  return entry?.slice(name.length + 1);
}

/** Bounded polling of a condition in another process (a server's files), which emits no event for it. */
async function eventually(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(tsBinary === undefined)('tsgo faults (real server, fixtures/ts-app)', () => {
  let workspace: { root: string; dispose: () => Promise<void> };
  let server: LanguageServer;
  const pids: number[] = [];

  const configNames = async (timeoutMs: number): Promise<string[]> => {
    const symbols = ((await server.request(WorkspaceSymbolRequest.type, { query: 'Config' }, { timeoutMs })) ?? []) as SymbolInformation[];
    return symbols.filter((s) => s.name === 'Config').map((s) => uriToPath(s.location.uri) ?? '');
  };

  beforeAll(async () => {
    workspace = await copyFixture('ts-app');
    server = await LanguageServer.start(typeScriptServer, workspace.root, { binary: tsBinary });
    if (server.pid !== undefined) pids.push(server.pid);
    const ready = await server.waitUntilReady({ timeoutMs: 30_000 });
    expect(ready.state, statusLine(ready)).toBe('ready');
  });

  afterAll(async () => {
    await server?.shutdown();
    for (const pid of pids) {
      expect(isAlive(pid), `process ${pid} survived`).toBe(false);
      expect(groupMembers(pid), `group ${pid} survived`).toEqual([]);
    }
    await workspace?.dispose();
  });

  it('answers 200 concurrent calls sharing one AbortSignal without a MaxListenersExceededWarning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const evaluation = new AbortController(); // one signal for every call, as an evaluation passes it
      const file = join(workspace.root, 'src', 'config.ts');
      const doc = await server.ensureOpen(file, { signal: evaluation.signal });
      const calls = Array.from({ length: 200 }, async () => {
        await server.waitUntilReady({ signal: evaluation.signal, timeoutMs: 30_000 });
        return server.request(DocumentSymbolRequest.type, { textDocument: { uri: doc.uri } }, { signal: evaluation.signal, timeoutMs: 60_000 });
      });
      const answers = await Promise.all(calls);
      expect(answers).toHaveLength(200);
      for (const answer of answers) expect((answer as DocumentSymbol[]).some((s) => s.name === 'Config')).toBe(true);
      // Warnings are emitted on the next tick.
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
  });

  it('kills and restarts a SIGSTOPped server: the caller hears so in bounded time, the next call runs on the new process', async () => {
    expect((await configNames(30_000)).length).toBeGreaterThan(0);
    const hungPid = server.pid as number;
    const states: string[] = [];
    const subscription = server.onStatus((s) => states.push(s.state));
    process.kill(hungPid, 'SIGSTOP');
    // The kernel reports the stop in /proc: wait for it, so the request below goes to a stopped process.
    await eventually(() => processState(hungPid) === 'T', 10_000);
    const timeoutMs = 1000;
    /** Scheduling slack on a loaded machine. */
    const slackMs = 3000;
    const began = Date.now();
    const error = await configNames(timeoutMs).catch((e: unknown) => e);
    const took = Date.now() - began;
    expect(isLspClientError(error, 'server-unresponsive'), `${String(error)} — after ${took} ms; pid ${hungPid} → ${server.pid}; states ${states.join(' → ')}`).toBe(true);
    expect((error as LspClientError).message).toContain(`pid ${hungPid}`);
    expect((error as LspClientError).message).toContain('restarted');
    expect(took).toBeGreaterThanOrEqual(timeoutMs + LIVENESS_PROBE_TIMEOUT_MS - 20);
    expect(took).toBeLessThan(timeoutMs + LIVENESS_PROBE_TIMEOUT_MS + slackMs);
    expect(server.state).not.toBe('ready');
    const names = await configNames(30_000);
    expect(names).toEqual(expect.arrayContaining([join(workspace.root, 'src', 'config.ts'), join(workspace.root, 'src', 'repository.ts')]));
    const newPid = server.pid as number;
    pids.push(newPid);
    expect(newPid).not.toBe(hungPid);
    expect(environmentOf(newPid, 'TMPDIR')).toBeDefined();
    expect(isAlive(hungPid)).toBe(false);
    expect(groupMembers(hungPid)).toEqual([]);
    expect(states).toContain('crashed');
    expect(states.indexOf('crashed')).toBeLessThan(states.lastIndexOf('starting'));
    subscription.dispose();
  });
});

describe.skipIf(tsBinary === undefined)('200 concurrent calls in one evaluation (real tsgo, fixtures/ts-app)', () => {
  it('evaluates a program of 200 concurrent IDE calls without a MaxListenersExceededWarning', async () => {
    const workspace = await copyFixture('ts-app');
    const session = await IdeSession.open({ workspaceRoot: workspace.root });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      expect(await session.waitUntilReady({ timeoutMs: 60_000 })).toBe(true);
      // Every call gets the evaluation's one AbortSignal.
      const call = 'getSymbolInfo(findDefinition("Config", file: "config.ts"))';
      const outcome = await session.evaluate(`[${Array.from({ length: 200 }, () => call).join(', ')}]`, { deadlineMs: 60_000 });
      expect(outcome.kind, JSON.stringify(outcome).slice(0, 500)).toBe('value');
      const infos = (outcome as { value: { name: string; definedAt: { path: string } }[] }).value;
      expect(infos).toHaveLength(200);
      for (const info of infos) expect(info).toMatchObject({ name: 'Config', definedAt: { path: 'src/config.ts' } });
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
    } finally {
      process.off('warning', onWarning);
      await session.shutdown();
      await workspace.dispose();
    }
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
  });
});

describe.skipIf(rustBinary === undefined)('rust-analyzer temp folders (real server, fixtures/rust-app)', () => {
  it('keeps proc-macro-srv folders in the private temp folder, which is gone after shutdown', async () => {
    const workspace = await copyFixture('rust-app');
    const parent = await mkdtemp(join(tmpdir(), 'dialect-tmp-parent-'));
    try {
      const server = await LanguageServer.start(rustAnalyzerServer, workspace.root, { env: { ...rustEnv, TMPDIR: parent }, binary: rustBinary });
      const pid = server.pid as number;
      try {
        const ready = await server.waitUntilReady({ timeoutMs: 90_000 });
        expect(ready.state, statusLine(ready)).toBe('ready');
        const privateDir = environmentOf(pid, 'TMPDIR') ?? '';
        expect(privateDir.startsWith(join(parent, 'dialect-rust-analyzer-'))).toBe(true);
        expect(environmentOf(pid, 'TEMP')).toBe(privateDir);
        expect(environmentOf(pid, 'TMP')).toBe(privateDir);
        // rust-analyzer's proc-macro server makes its folder there, and never removes it itself.
        await eventually(async () => (await readdir(privateDir)).some((e) => e.startsWith('proc-macro-srv')), 60_000);
      } finally {
        await server.shutdown();
      }
      expect(isAlive(pid)).toBe(false);
      expect(groupMembers(pid)).toEqual([]);
      expect(await readdir(parent)).toEqual([]);
    } finally {
      await rm(parent, { recursive: true, force: true });
      await workspace.dispose();
    }
  });
});
