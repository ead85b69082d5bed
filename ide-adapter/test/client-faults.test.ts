/**
 * Fault handling of LanguageServer against small fake servers (test/fakes/fake-server.js): crashes
 * mid-request, servers that never answer, stopped (hung) servers, stderr floods, ContentModified,
 * cancellation, progress, temp files left behind.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HoverRequest, type Hover } from 'vscode-languageserver-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LanguageServer, statusLine, type ServerStatus } from '../lsp/client.js';
import { MAX_OPEN_DOCUMENTS } from '../lsp/documents.js';
import { indexingOf } from '../indexing.js';
import { pathToUri } from '../lsp/uris.js';
import { isLspClientError, type LspClientError } from '../lsp/errors.js';
import type { ServerDefinition } from '../lsp/servers.js';
import { fakeServerScript, isAlive } from './support/servers.js';

let dir: string;
let file: string;
const pids = new Set<number>();
const started: LanguageServer[] = [];

function fake(mode: string, args: string[] = [], overrides: Partial<ServerDefinition> = {}): ServerDefinition {
  return {
    id: `fake-${mode}`,
    displayName: `fake-${mode}`,
    languages: [{ languageId: 'fakelang', extensions: ['.fake'] }],
    rootMarkers: [],
    candidates: () => [fakeServerScript],
    args: [`--mode=${mode}`, ...args],
    settings: { fake: { answer: 42, nested: { value: 'deep' } } },
    readiness: 'immediate',
    installHint: 'it is a test fake',
    ...overrides,
  };
}

async function start(definition: ServerDefinition, options: Parameters<typeof LanguageServer.start>[2] = {}): Promise<LanguageServer> {
  const server = await LanguageServer.start(definition, dir, { restartDelayMs: 50, ...options });
  started.push(server);
  if (server.pid !== undefined) pids.add(server.pid);
  server.onStatus(() => {
    if (server.pid !== undefined) pids.add(server.pid);
  });
  return server;
}

function hover(server: LanguageServer, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<Hover | null> {
  return server.request(HoverRequest.type, { textDocument: { uri: `file://${file}` }, position: { line: 0, character: 3 } }, options);
}

interface FakeStats {
  cancelled: number;
  /** `fake/slow` requests received. */
  slow: number;
  opened: { uri: string; languageId: string; version: number }[];
  /** URIs of `didClose`, in order. */
  closed: string[];
  changed: number;
  hovers: number;
  configuration: unknown;
  pid: number;
  /** The server's temp dir (its TMPDIR). */
  tmpdir: string;
  /** With --litter: the folder it left in its temp dir. */
  litter: string | null;
}

async function stats(server: LanguageServer): Promise<FakeStats> {
  return server.request('fake/stats', {});
}

/** Resolves when the server is in `state`: now, or at the status event that says so. */
function stateReached(server: LanguageServer, state: LanguageServer['state']): Promise<void> {
  return new Promise((resolve) => {
    if (server.state === state) return resolve();
    const subscription = server.onStatus((status) => {
      if (status.state !== state) return;
      subscription.dispose();
      resolve();
    });
  });
}

/** The stderr log limit of the flood test, and the length of one line the fake floods with. */
const FLOOD_LOG_LIMIT = 16 * 1024;
const FLOOD_LINE_LENGTH = 'flood \n'.length + 1000;

/** Bounded polling of a condition in another process, which emits no event for it (20 ms steps). */
async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dialect-fakes-'));
  file = join(dir, 'main.fake');
  await writeFile(file, 'let x = 1;\n');
});

afterAll(async () => {
  await Promise.all(started.map((s) => s.shutdown()));
  for (const pid of pids) expect(isAlive(pid), `process ${pid} survived`).toBe(false);
  await rm(dir, { recursive: true, force: true });
});

describe('LanguageServer against fake servers', () => {
  it('starts, negotiates the position encoding and answers workspace/configuration from settings', async () => {
    const server = await start(fake('ok', ['--encoding=utf-32']));
    expect(server.state).toBe('ready');
    expect(server.positionEncoding).toBe('utf-32');
    expect(server.capabilities.hoverProvider).toBe(true);
    expect(server.binary.version).toBe('fake-lsp 1.0.0');
    await eventually(async () => (await stats(server)).configuration !== null);
    expect((await stats(server)).configuration).toEqual([{ answer: 42, nested: { value: 'deep' } }, 'deep', null]);
    expect(server.memory()).toBeGreaterThan(1024 * 1024);
    const echoed = await server.request<{ hello: string }>('fake/echo', { hello: 'world' });
    expect(echoed).toEqual({ hello: 'world' });
    // An unbounded deadline must not turn into an instant timer.
    await expect(server.request('fake/echo', { n: 1 }, { timeoutMs: Infinity })).resolves.toEqual({ n: 1 });
    expect((await server.waitUntilReady({ timeoutMs: Infinity })).state).toBe('ready');
  });

  it('opens documents once, with the right languageId, and re-syncs changed files', async () => {
    const server = await start(fake('ok'));
    const [a, b] = await Promise.all([server.ensureOpen(file), server.ensureOpen(file)]);
    expect(a).toBe(b);
    expect(a.languageId).toBe('fakelang');
    expect(a.version).toBe(1);
    expect(await server.ensureOpen(file)).toBe(a);
    let s = await stats(server);
    expect(s.opened).toHaveLength(1);
    await writeFile(file, 'let x = 2; // changed\n');
    const changed = await server.ensureOpen(file);
    expect(changed.version).toBe(2);
    expect(changed.text).toContain('changed');
    s = await stats(server);
    expect(s.changed).toBe(1);
    await writeFile(file, 'let x = 1;\n');
    await expect(server.ensureOpen(join(dir, 'missing.fake'))).rejects.toMatchObject({ code: 'document-unreadable' });
  });

  it('restarts a server that crashes mid-request and retries the request once', async () => {
    const server = await start(fake('crash', [`--state=${join(dir, 'crashed-once')}`]));
    const firstPid = server.pid;
    await server.ensureOpen(file);
    const states: string[] = [];
    server.onStatus((s) => states.push(s.state));
    const result = await hover(server, { timeoutMs: 10_000 });
    expect(JSON.stringify(result)).toContain('hover #1');
    expect(server.pid).not.toBe(firstPid);
    expect(server.restartCount).toBe(1);
    expect(states).toEqual(expect.arrayContaining(['crashed', 'starting', 'ready']));
    expect(states.indexOf('crashed')).toBeLessThan(states.lastIndexOf('starting'));
    expect(server.stderrTail()).toContain('crashing on purpose');
    // The document was re-opened in the new process.
    const s = await stats(server);
    expect(s.opened.map((o) => o.uri)).toEqual([`file://${file}`]);
    expect(isAlive(firstPid as number)).toBe(false);
  });

  it('gives up after maxRestarts when the server keeps crashing', async () => {
    const server = await start(fake('crash'), { maxRestarts: 1 });
    const error = await hover(server, { timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(isLspClientError(error, 'server-crashed')).toBe(true);
    expect((error as LspClientError).message).toContain('crashing on purpose');
    await stateReached(server, 'crashed');
    const report = await server.waitUntilReady({ timeoutMs: 2000 });
    expect(report.state).toBe('crashed');
    await expect(hover(server)).rejects.toMatchObject({ code: 'server-crashed' });
  });

  it('times out a request that is never answered, then kills the unresponsive server and its children', async () => {
    const pidfile = join(dir, 'grandchild.pid');
    const server = await start(fake('hang', [`--pidfile=${pidfile}`]));
    const pid = server.pid as number;
    const began = Date.now();
    const error = await hover(server, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(Date.now() - began).toBeLessThan(2000);
    expect(isLspClientError(error, 'request-timeout')).toBe(true);
    expect((error as Error).message).toContain('textDocument/hover');
    expect((error as Error).message).toContain('300 ms');
    // Its message loop still runs (it answers the liveness probe): slow is not hung, it stays.
    expect(server.pid).toBe(pid);
    expect(server.state).toBe('ready');
    const { readFile } = await import('node:fs/promises');
    await eventually(async () => (await readFile(pidfile, 'utf8').catch(() => '')) !== '');
    const grandchild = Number(await readFile(pidfile, 'utf8'));
    expect(isAlive(grandchild)).toBe(true);
    // Shutdown is not answered and SIGTERM is ignored: the client escalates to SIGKILL on the group.
    await server.shutdown({ timeoutMs: 300 });
    expect(server.state).toBe('stopped');
    expect(isAlive(pid)).toBe(false);
    await eventually(() => !isAlive(grandchild));
    await expect(hover(server)).rejects.toMatchObject({ code: 'server-stopped' });
  });

  it('kills and restarts a server that stops answering (SIGSTOP), says so to the caller and retries the other pending calls', async () => {
    const probeMs = 500;
    const timeoutMs = 300;
    /** Scheduling slack on a loaded machine. */
    const slackMs = 2000;
    const server = await start(fake('ok'), { livenessProbeTimeoutMs: probeMs });
    await server.ensureOpen(file);
    const hungPid = server.pid as number;
    const states: string[] = [];
    server.onStatus((s) => states.push(s.state));
    process.kill(hungPid, 'SIGSTOP');
    const began = Date.now();
    // A second caller with a longer deadline is pending on the hung process when it is killed.
    const patient = hover(server, { timeoutMs: 20_000 });
    const error = await hover(server, { timeoutMs }).catch((e: unknown) => e);
    const took = Date.now() - began;
    expect(isLspClientError(error, 'server-unresponsive'), String(error)).toBe(true);
    const { message, hint } = error as LspClientError;
    expect(message).toContain('textDocument/hover');
    expect(message).toContain(`pid ${hungPid}`);
    expect(message).toContain('restarted');
    expect(hint).toContain('ask again');
    // Bounded: its own deadline plus the probe's.
    expect(took).toBeGreaterThanOrEqual(timeoutMs + probeMs - 20);
    expect(took).toBeLessThan(timeoutMs + probeMs + slackMs);
    expect(server.state).not.toBe('ready');
    expect(states[0]).toBe('crashed');
    expect(statusLine(server.status)).toContain('stopped answering');
    // The pending call is answered by the new process; the next call too.
    const retried = await patient;
    expect(server.pid).not.toBe(hungPid);
    expect(JSON.stringify(retried)).toContain(`pid ${server.pid}`);
    const next = await hover(server, { timeoutMs: 5000 });
    expect(JSON.stringify(next)).toContain(`pid ${server.pid}`);
    expect(server.state).toBe('ready');
    expect(states).toEqual(expect.arrayContaining(['crashed', 'starting', 'ready']));
    expect(server.restartCount).toBe(1);
    expect(isAlive(hungPid)).toBe(false);
    // The document was re-opened in the new process.
    expect((await stats(server)).opened.map((o) => o.uri)).toEqual([`file://${file}`]);
  });

  it('gives each server process a private temp folder and deletes it after a crash and after shutdown', async () => {
    const parent = join(dir, 'tmp-parent');
    await mkdir(parent);
    const server = await start(fake('crash', ['--litter', `--state=${join(dir, 'crashed-litter')}`]), { env: { TMPDIR: parent } });
    const first = await stats(server);
    // The server's temp dir is its own folder inside the temp dir it was given.
    expect(first.tmpdir.startsWith(`${parent}/dialect-fake-crash-`)).toBe(true);
    expect(first.litter !== null && existsSync(first.litter)).toBe(true);
    await server.ensureOpen(file);
    await hover(server, { timeoutMs: 10_000 }); // crashes once, answered by the restarted process
    const second = await stats(server);
    expect(second.pid).not.toBe(first.pid);
    expect(second.tmpdir).not.toBe(first.tmpdir);
    await eventually(() => !existsSync(first.tmpdir));
    expect(existsSync(second.tmpdir)).toBe(true);
    await server.shutdown();
    expect(await readdir(parent)).toEqual([]);
  });

  it('keeps a bounded log of a server that floods stderr and keeps working', async () => {
    const server = await start(fake('flood'), { stderrLimit: FLOOD_LOG_LIMIT });
    for (let i = 0; i < 20; i++) {
      const result = await hover(server, { timeoutMs: 5000 });
      expect(JSON.stringify(result)).toContain(`hover #${i + 1}`);
    }
    // The flood has no end to wait for: wait until it has filled the log (bounded polling).
    await eventually(() => server.stderrTail(Number.MAX_SAFE_INTEGER).length >= FLOOD_LOG_LIMIT - FLOOD_LINE_LENGTH);
    const tail = server.stderrTail(Number.MAX_SAFE_INTEGER);
    expect(tail.length).toBeLessThanOrEqual(FLOOD_LOG_LIMIT);
    expect(tail).toContain('flood xxxx');
    expect(server.stderrTail(500).length).toBeLessThanOrEqual(500);
  });

  it('retries a request answered with ContentModified', async () => {
    const server = await start(fake('content-modified'));
    const result = await hover(server);
    expect(JSON.stringify(result)).toContain('hover #2');
    expect((await stats(server)).hovers).toBe(2);
  });

  it('sends $/cancelRequest when the caller aborts or the deadline passes', async () => {
    const server = await start(fake('ok'));
    const controller = new AbortController();
    const pending = server.request('fake/slow', {}, { signal: controller.signal });
    // Abort once the server has the request (it emits nothing on receipt: ask it).
    await eventually(async () => (await stats(server)).slow === 1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'request-cancelled' });
    await eventually(async () => (await stats(server)).cancelled === 1);
    await expect(server.request('fake/slow', {}, { timeoutMs: 100 })).rejects.toMatchObject({ code: 'request-timeout' });
    await eventually(async () => (await stats(server)).cancelled === 2);
    const aborted = AbortSignal.abort();
    await expect(server.request('fake/slow', {}, { signal: aborted })).rejects.toMatchObject({ code: 'request-cancelled' });
  });

  it('waits past the per-request limit for a live server when the caller holds the budget, and says a ready server was only slow', async () => {
    const server = await start(fake('ok'));
    await server.waitUntilReady({ timeoutMs: 10_000 });
    const controller = new AbortController();
    // Three limits long: the server answers the liveness probe each time, so the request is kept.
    await expect(server.request('fake/after', { ms: 900 }, { timeoutMs: 300, signal: controller.signal, untilCancelled: true })).resolves.toBe('done');
    // Without the caller's budget the limit holds, and the hint tells the truth: ready, not indexing.
    const error = (await server.request('fake/after', { ms: 900 }, { timeoutMs: 300 }).catch((e: unknown) => e)) as LspClientError;
    expect(error.code).toBe('request-timeout');
    expect(error.hint).toMatch(/ready but this request takes longer/);
    // The caller's signal still ends a kept request at once.
    const pending = server.request('fake/slow', {}, { timeoutMs: 200, signal: controller.signal, untilCancelled: true });
    await eventually(async () => (await stats(server)).slow === 1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'request-cancelled' });
  });

  it('keeps at most MAX_OPEN_DOCUMENTS open: the least recently used is closed, a used one and the anchors stay', async () => {
    const docs = join(dir, 'many');
    await mkdir(docs, { recursive: true });
    const files = Array.from({ length: MAX_OPEN_DOCUMENTS + 10 }, (_, i) => join(docs, `f${i}.fake`));
    const anchor = join(docs, 'anchor.fake');
    await Promise.all([...files, anchor].map((f) => writeFile(f, 'let x = 1;\n')));
    const server = await start(fake('ok', [], { id: 'fake-bounded', projectAnchors: async () => ({ files: [anchor], warnings: [] }) }));
    for (const [i, f] of files.entries()) {
      await server.ensureOpen(f);
      if (i % 10 === 0) await server.ensureOpen(files[0] as string); // kept in use
    }
    const open = server.openDocuments().map((d) => d.path);
    expect(open.length).toBe(MAX_OPEN_DOCUMENTS);
    expect(open).toContain(anchor);
    expect(open).toContain(files[0]);
    expect(open).toContain(files[files.length - 1]);
    expect(open).not.toContain(files[1]);
    await eventually(async () => (await stats(server)).closed.includes(pathToUri(files[1] as string)));
    expect((await stats(server)).closed).not.toContain(pathToUri(anchor));
  });

  it('a server whose projects were not all loaded is degraded: answers and MCP say incomplete', async () => {
    const warning = 'TypeScript: found 300 projects; loaded the 250 closest to the workspace root (MAX_PROJECTS): answers may miss symbols and references of the other 50';
    const server = await start(fake('ok', [], { id: 'fake-limited', projectAnchors: async () => ({ files: [], warnings: [warning], complete: false }) }));
    await server.waitUntilReady({ timeoutMs: 10_000 });
    expect(server.status).toMatchObject({ state: 'ready', health: { level: 'warning', message: warning } });
    expect(indexingOf({ servers: () => [server.status] }, true)).toMatchObject({ complete: false, stillIndexing: false });
    const whole = await start(fake('ok', [], { id: 'fake-whole', projectAnchors: async () => ({ files: [], warnings: [], complete: true }) }));
    await whole.waitUntilReady({ timeoutMs: 10_000 });
    expect(indexingOf({ servers: () => [whole.status] }, true)).toMatchObject({ complete: true });
  });

  it('tracks $/progress readiness, reports status text and a deadline that explains itself', async () => {
    const events: ServerStatus[] = [];
    // The fake holds the end of its work until told, so the first wait times out on any machine.
    const server = await start(fake('progress', ['--hold-progress'], { readiness: 'progress', displayName: 'fake' }));
    // Wait for the work to begin (an event), so a loaded machine cannot end the short wait first.
    const begun = new Promise<void>((resolve) => {
      server.onStatus((s) => {
        events.push(s);
        if (s.state === 'indexing' && s.progress?.title === 'Indexing') resolve();
      });
      if (server.state === 'indexing' && server.progress?.title === 'Indexing') resolve();
    });
    await begun;
    const waitStarted = Date.now();
    const early = await server.waitUntilReady({ timeoutMs: 80 });
    expect(Date.now() - waitStarted).toBeGreaterThanOrEqual(70);
    expect(early.state).toBe('indexing');
    expect(early.progress?.title).toBe('Indexing');
    expect(statusLine(early)).toMatch(/^fake: indexing/);
    await server.request('fake/finish-progress', {});
    const report = await server.waitUntilReady({ timeoutMs: 5000 });
    expect(report.state).toBe('ready');
    expect(server.progress?.title).toBe('Indexing');
    const texts = events.map((e) => statusLine(e));
    expect(texts).toContain('fake: indexing 50% (Indexing 2/4 (crates))');
    expect(texts.at(-1)).toBe('fake: ready');
  });

  it('keeps up with a server that begins a flood of $/progress works it never ends (bounded work per notification)', async () => {
    // Each notification used to copy every active work to find the latest: quadratic, minutes here.
    const works = 100_000;
    // The bound is on this process's CPU time (the client's work), not the wall clock: the fake
    // server sending the flood, and every other process of a loaded machine, do not count.
    const started = process.cpuUsage();
    const server = await start(fake('progress', ['--hold-progress', `--progress-flood=${works}`], { readiness: 'progress', displayName: 'fake' }));
    // The server's own work begins after the flood: seeing it means every flooded one was taken.
    await new Promise<void>((resolve) => {
      server.onStatus((s) => {
        if (s.progress?.title === 'Indexing') resolve();
      });
      if (server.progress?.title === 'Indexing') resolve();
    });
    // The flood costs the client a few seconds of CPU; quadratic, minutes (5e9 copies).
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(30_000);
    expect(server.state).toBe('indexing');
    await server.request('fake/finish-progress', {});
  }, 120_000);

  it('rejects waitUntilReady when its signal aborts', async () => {
    const server = await start(fake('progress', [], { readiness: 'progress' }));
    await expect(server.waitUntilReady({ signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'request-cancelled' });
    await server.waitUntilReady({ timeoutMs: 5000 });
  });

  it('reports servers that die or refuse during initialize, leaving no process behind', async () => {
    const died = await LanguageServer.start(fake('die-on-init'), dir).catch((e: unknown) => e);
    expect(isLspClientError(died, 'spawn-failed')).toBe(true);
    expect((died as Error).message).toContain('exited with code 2');
    const refused = await LanguageServer.start(fake('refuse-init'), dir).catch((e: unknown) => e);
    expect(isLspClientError(refused, 'initialize-failed')).toBe(true);
    expect((refused as Error).message).toContain('refusing to initialize');
    const { execFileSync } = await import('node:child_process');
    const survivors = execFileSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => /--mode=(die-on-init|refuse-init)/.test(l) && !l.trimStart().startsWith('Z'));
    expect(survivors).toEqual([]);
  });

  it('fails fast with server-not-found naming the install command', async () => {
    const definition = fake('ok', [], { candidates: () => ['/nonexistent/fake-lsp', 'dialect-no-such-server'], installHint: 'apt-get install -y fake-lsp' });
    const error = await LanguageServer.start(definition, dir).catch((e: unknown) => e);
    expect(isLspClientError(error, 'server-not-found')).toBe(true);
    expect((error as Error).message).toContain('apt-get install -y fake-lsp');
    expect((error as Error).message).toContain('/nonexistent/fake-lsp');
  });
});
