/** Readiness strategies, driven through a small host: which events make a server ready, per definition. */
import { describe, expect, it } from 'vitest';
import { FOLDER_REPLACED_REASON, readinessStrategy, REREADING_REASON, type ReadinessHost } from '../lsp/readiness.js';
import type { Readiness, WarmUp } from '../lsp/servers.js';
import { WarmUpRun, type WarmUpHost } from '../lsp/warm-up.js';
import type { ServerState } from '../lsp/status.js';

/** A barrier request in flight: the test decides when the server answers it, or dies. */
interface Barrier {
  answer(): void;
  die(): void;
}

/** Lets promise callbacks queued so far run. */
const settled = (): Promise<void> => new Promise((r) => setImmediate(r));

/** A host whose state changes are recorded and can be awaited. */
function host(): ReadinessHost & { progress: number; states: ServerState[]; reason: string | undefined; barriers: Barrier[]; next(state: ServerState): Promise<void> } {
  let state: ServerState = 'starting';
  const waiters: { state: ServerState; wake: () => void }[] = [];
  const h = {
    progress: 0,
    states: [] as ServerState[],
    state: () => state,
    setState(next: ServerState) {
      state = next;
      h.states.push(next);
      for (const w of waiters.filter((x) => x.state === next)) w.wake();
    },
    activeProgress: () => h.progress,
    stopping: () => false,
    reason: undefined as string | undefined,
    setReason(reason: string | undefined) {
      h.reason = reason;
    },
    next: (wanted: ServerState) => new Promise<void>((wake) => waiters.push({ state: wanted, wake })),
    barriers: [] as Barrier[],
    barrier: () =>
      new Promise<void>((answer, die) => {
        h.barriers.push({ answer, die: () => die(new Error('the process died')) });
      }),
  };
  return h;
}

const SETTLE_MS = 1;

describe('readinessStrategy', () => {
  it('immediate: ready as soon as initialize completed, whatever progress says', () => {
    const h = host();
    const strategy = readinessStrategy('immediate', h, SETTLE_MS);
    h.progress = 1;
    strategy.initialized();
    strategy.progressChanged();
    expect(h.states).toEqual(['ready']);
  });

  it.each<Readiness>(['progress', 'rust-analyzer-status'])('%s: indexing while progress runs, ready once it ended and settled', async (readiness) => {
    const h = host();
    const strategy = readinessStrategy(readiness, h, SETTLE_MS);
    h.progress = 1;
    strategy.initialized();
    expect(h.states).toEqual(['indexing']);
    const ready = h.next('ready');
    h.progress = 0;
    strategy.progressChanged();
    await ready;
    expect(h.states).toEqual(['indexing', 'ready']);
    h.progress = 1;
    strategy.progressChanged();
    expect(h.states.at(-1)).toBe('indexing');
    strategy.dispose();
  });

  it('rust-analyzer-status: once serverStatus is seen, quiescence decides and progress no longer does', () => {
    const h = host();
    const strategy = readinessStrategy('rust-analyzer-status', h, SETTLE_MS);
    h.progress = 1;
    strategy.initialized();
    strategy.serverStatus(true, 'loaded');
    expect(h.states).toEqual(['indexing', 'ready']);
    h.progress = 2;
    strategy.progressChanged();
    expect(h.states).toEqual(['indexing', 'ready']);
    strategy.serverStatus(false, 'indexing');
    expect(h.states.at(-1)).toBe('indexing');
    strategy.dispose();
  });

  it.each<Readiness>(['immediate', 'progress', 'rust-analyzer-status'])('%s: files changing on disk make a ready server re-read until the changes were sent and it settled', async (readiness) => {
    const h = host();
    const strategy = readinessStrategy(readiness, h, SETTLE_MS);
    strategy.initialized();
    if (readiness === 'rust-analyzer-status') strategy.serverStatus(true, 'loaded');
    else if (readiness === 'progress') await h.next('ready');
    expect(h.states.at(-1)).toBe('ready');
    strategy.filesChanging();
    expect(h.states.at(-1)).toBe('indexing');
    expect(h.reason).toBe(REREADING_REASON);
    // A quiescent report or ended progress from before the changes were sent proves nothing.
    strategy.serverStatus(true, 'loaded');
    strategy.progressChanged();
    await new Promise((r) => setTimeout(r, SETTLE_MS * 20));
    expect(h.states.at(-1)).toBe('indexing');
    const ready = h.next('ready');
    strategy.filesSettled(false);
    await ready;
    strategy.dispose();
  });

  it('a replaced workspace folder keeps the server indexing, saying so', async () => {
    const h = host();
    const strategy = readinessStrategy('progress', h, SETTLE_MS);
    strategy.initialized();
    await h.next('ready');
    strategy.filesChanging();
    strategy.filesSettled(true);
    strategy.progressChanged();
    await new Promise((r) => setTimeout(r, SETTLE_MS * 20));
    expect(h.states.at(-1)).toBe('indexing');
    expect(h.reason).toBe(FOLDER_REPLACED_REASON);
    strategy.dispose();
  });

  describe('in-order (tsgo)', () => {
    /** A settle delay no test waits for: in-order readiness must not depend on it. */
    const NEVER_MS = 600_000;

    it('indexing until the server answered a request sent after the start\'s documents, then ready at once', async () => {
      const h = host();
      const strategy = readinessStrategy('in-order', h, NEVER_MS);
      strategy.initialized();
      strategy.progressChanged();
      expect(h.states).toEqual(['indexing']);
      expect(h.barriers).toHaveLength(0);
      strategy.documentsOpened();
      expect(h.barriers).toHaveLength(1);
      await settled();
      expect(h.states).toEqual(['indexing']);
      h.barriers[0]?.answer();
      await settled();
      expect(h.states).toEqual(['indexing', 'ready']);
      strategy.dispose();
    });

    it('progress the server reports still counts: answered during work, ready when the work ends (no settle delay)', async () => {
      const h = host();
      const strategy = readinessStrategy('in-order', h, NEVER_MS);
      strategy.initialized();
      strategy.documentsOpened();
      h.progress = 1;
      strategy.progressChanged();
      h.barriers[0]?.answer();
      await settled();
      expect(h.states).toEqual(['indexing']);
      h.progress = 0;
      strategy.progressChanged();
      expect(h.states).toEqual(['indexing', 'ready']);
      // Work it reports later makes it indexing again, until that work ends.
      h.progress = 1;
      strategy.progressChanged();
      expect(h.states.at(-1)).toBe('indexing');
      h.progress = 0;
      strategy.progressChanged();
      expect(h.states.at(-1)).toBe('ready');
      strategy.dispose();
    });

    it('an answer from a process that was replaced, or a process that died, makes nothing ready', async () => {
      const h = host();
      const strategy = readinessStrategy('in-order', h, NEVER_MS);
      strategy.initialized();
      strategy.documentsOpened();
      h.barriers[0]?.die();
      await settled();
      expect(h.states).toEqual(['indexing']);
      // A restart: the old process's barrier is answered late, the new one's not yet.
      strategy.reset();
      strategy.initialized();
      strategy.documentsOpened();
      const old = h.barriers[0] as Barrier;
      strategy.documentsOpened();
      strategy.reset();
      strategy.initialized();
      strategy.documentsOpened();
      old.answer();
      h.barriers[1]?.answer();
      await settled();
      expect(h.states.at(-1)).toBe('indexing');
      h.barriers.at(-1)?.answer();
      await settled();
      expect(h.states.at(-1)).toBe('ready');
      strategy.dispose();
    });

    it('files changing on disk after it was ready: re-reading until the changes were sent and it settled', async () => {
      const h = host();
      const strategy = readinessStrategy('in-order', h, SETTLE_MS);
      strategy.initialized();
      strategy.documentsOpened();
      h.barriers[0]?.answer();
      await settled();
      expect(h.states.at(-1)).toBe('ready');
      strategy.filesChanging();
      expect(h.states.at(-1)).toBe('indexing');
      expect(h.reason).toBe(REREADING_REASON);
      strategy.progressChanged();
      await new Promise((r) => setTimeout(r, SETTLE_MS * 20));
      expect(h.states.at(-1)).toBe('indexing');
      const ready = h.next('ready');
      strategy.filesSettled(false);
      await ready;
      strategy.dispose();
    });

    it('files changing before the answer keep it indexing until they were sent and it settled', async () => {
      const h = host();
      const strategy = readinessStrategy('in-order', h, SETTLE_MS);
      strategy.initialized();
      strategy.documentsOpened();
      strategy.filesChanging();
      h.barriers[0]?.answer();
      await new Promise((r) => setTimeout(r, SETTLE_MS * 20));
      expect(h.states.at(-1)).toBe('indexing');
      const ready = h.next('ready');
      strategy.filesSettled(false);
      await ready;
      strategy.dispose();
    });
  });
});

describe('a hold on readiness (a warm-up running)', () => {
  it.each<Readiness>(['immediate', 'progress', 'rust-analyzer-status'])('%s: held from initialized on, indexing with the reason, ready once released', async (readiness) => {
    const h = host();
    const strategy = readinessStrategy(readiness, h, SETTLE_MS);
    strategy.hold('reading 3 Python files');
    strategy.initialized();
    strategy.serverStatus(true, undefined);
    await new Promise((r) => setTimeout(r, SETTLE_MS * 20));
    expect(h.states.at(-1)).toBe('indexing');
    expect(h.reason).toBe('reading 3 Python files');
    // Files re-read meanwhile: their reason while they change, the hold's again after.
    strategy.filesChanging();
    expect(h.reason).toBe(REREADING_REASON);
    strategy.filesSettled(false);
    expect(h.reason).toBe('reading 3 Python files');
    await new Promise((r) => setTimeout(r, SETTLE_MS * 20));
    expect(h.states.at(-1)).toBe('indexing');
    const ready = h.next('ready');
    strategy.release();
    await ready;
    expect(h.reason).toBeUndefined();
    strategy.dispose();
  });
});

/** A warm-up host that records what the run did; `answer` settles the request it sent. */
function warmUpHost(): WarmUpHost & { events: string[]; answer: (ok: boolean) => void } {
  let settle: ((ok: boolean) => void) | undefined;
  const h = {
    events: [] as string[],
    hold: (reason: string) => h.events.push(`hold ${reason}`),
    release: () => h.events.push('release'),
    send: (method: string, params: unknown) => {
      h.events.push(`send ${method} ${JSON.stringify(params)}`);
      return new Promise<unknown>((resolve, reject) => {
        settle = (ok) => (ok ? resolve([]) : reject(new Error('timed out')));
      });
    },
    warn: (key: string, text: string) => h.events.push(`warn ${text}`),
    answer: (ok: boolean) => settle?.(ok),
  };
  return h;
}

const WARM_UP: WarmUp = {
  listed: /^Found (\d+) source files?/,
  method: 'workspace/symbol',
  params: { query: 'x y' },
  reason: (files) => (files === undefined ? 'listing' : `reading ${files}`),
};

describe('WarmUpRun', () => {
  it('waits for the listing (even one logged before initialized), sends once, releases on the answer', async () => {
    const h = warmUpHost();
    const run = new WarmUpRun(WARM_UP, h, 60_000, 60_000);
    run.log('Loading pyproject.toml');
    run.log('Found 12 source files');
    run.initialized();
    run.log('Found 12 source files');
    expect(h.events).toEqual(['hold listing', 'hold reading 12', 'send workspace/symbol {"query":"x y"}']);
    h.answer(true);
    await new Promise((r) => setImmediate(r));
    expect(h.events.at(-1)).toBe('release');
    run.dispose();
  });

  it('asks anyway when the listing never comes, and a request past its deadline releases with a warning', async () => {
    const h = warmUpHost();
    const run = new WarmUpRun(WARM_UP, h, 1, 0);
    run.initialized();
    await new Promise((r) => setTimeout(r, 20));
    expect(h.events).toEqual(['hold listing', 'hold listing', 'send workspace/symbol {"query":"x y"}']);
    h.answer(false);
    await new Promise((r) => setImmediate(r));
    expect(h.events.slice(-2)).toEqual(['warn listing: not done after 0 s; the first answers may be slow', 'release']);
  });

  it('does nothing more once its process is gone', async () => {
    const h = warmUpHost();
    const run = new WarmUpRun(WARM_UP, h, 60_000, 60_000);
    run.initialized();
    run.log('Found 3 source files');
    run.dispose();
    h.answer(true);
    await new Promise((r) => setImmediate(r));
    expect(h.events).not.toContain('release');
  });
});
