/**
 * A sole server's start checks run ahead (`ServerPool.startSole`, `lsp/start-checks.ts`): its
 * preflight and anchor search begin while detection still looks deeper, and the guarantees hold —
 * a refusal found ahead keeps everything of the server from running (its version probe included),
 * and a language found deeper makes the workspace polyglot, so the server checked ahead does not
 * start. A server that reads nothing before its first document (`readsNothingBeforeOpen`) is
 * launched meanwhile, and opens no document until detection and its checks said to start it. The
 * servers are the fake (a real process); the deeper scan is the real file worker's.
 */
import { existsSync, readFileSync, watch } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServerPool } from '../lsp/pool.js';
import { defineServer, type ServerDefinition } from '../lsp/servers.js';
import { fakeServerScript, isAlive } from './support/servers.js';

/** The fake server, detected by a `*.fake` file near the root. */
function fakeNearRoot(overrides: Partial<ServerDefinition> = {}): ServerDefinition {
  const fake = defineServer({ id: 'fake', command: fakeServerScript, args: ['--mode=progress'], languages: [{ languageId: 'fakelang', extensions: ['.fake'] }], filePatterns: ['*.fake'] });
  return { ...fake, ...overrides };
}

/** A second language, detected only from a project marker deeper than the top two levels. */
const deepOnly: ServerDefinition = {
  ...defineServer({ id: 'deep', command: fakeServerScript, languages: [{ languageId: 'deeplang', extensions: ['.deep'] }] }),
  projectMarkers: ['deep.project'],
};

/** The lines of the fake's `--journal` file (`<pid> <method>`), none while it has none. */
function journalLines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((line) => line !== '') : [];
}

/** Resolves once the journal has a line ending with `method`: the fake writes it as the message arrives. */
function journalShows(file: string, method: string): Promise<void> {
  return new Promise((resolve) => {
    const seen = (): boolean => journalLines(file).some((line) => line.endsWith(` ${method}`));
    const watcher = watch(dirname(file), () => {
      if (!seen()) return;
      watcher.close();
      resolve();
    });
    if (seen()) {
      watcher.close();
      resolve();
    }
  });
}

describe('ServerPool.startSole: start checks ahead of detection', () => {
  let root: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'dialect-start-ahead-'));
    await writeFile(join(root, 'main.fake'), 'hello\n');
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("begins the sole near-root server's preflight while detection still looks deeper, then starts it", async () => {
    let detected = false;
    let detectedAtPreflight: boolean | undefined;
    const fake = fakeNearRoot({
      preflight: async () => {
        detectedAtPreflight = detected;
        return undefined;
      },
    });
    const pool = new ServerPool(root, { definitions: [fake, deepOnly] });
    const starting = pool.startSole();
    // The detection startSole began: settled, it sets the flag before anything awaiting it runs.
    void pool.detect().then(() => (detected = true));
    await starting;
    try {
      expect(detectedAtPreflight).toBe(false);
      const listing = Object.fromEntries(pool.servers().map((s) => [s.id, s]));
      expect(Object.keys(listing)).toEqual(['fake']);
      expect(listing.fake?.state).toMatch(/indexing|ready/);
      expect(isAlive(listing.fake?.pid as number)).toBe(true);
    } finally {
      await pool.shutdown();
    }
  });

  it('a server that reads the workspace at launch is not waited for: launched() resolves with detection, before its spawn', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<undefined>((resolve) => (release = () => resolve(undefined)));
    const journal = join(root, 'journal.log');
    const pool = new ServerPool(root, { definitions: [fakeNearRoot({ args: ['--mode=ok', `--journal=${journal}`], preflight: () => held }), deepOnly] });
    const starting = pool.startSole();
    try {
      await pool.launched();
      expect(journalLines(journal)).toEqual([]);
    } finally {
      release();
      await starting;
      await pool.shutdown();
    }
  });

  it('a refusal found ahead keeps the server from running at all, its version probe included', async () => {
    const ran = join(root, 'ran');
    const probe = join(root, 'probe.mjs');
    // A "server" that leaves a mark whenever anything runs it (`--version` included).
    await writeFile(probe, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(ran)}, 'ran');\nconsole.log('probe 1.0');\n`);
    const refused = fakeNearRoot({ candidates: () => [probe], staticVersion: undefined, preflight: async () => 'fake was not started: main.fake is hostile' });
    const pool = new ServerPool(root, { definitions: [refused, deepOnly] });
    await pool.startSole();
    try {
      const [fake] = pool.servers();
      expect([fake?.id, fake?.state, fake?.detail]).toEqual(['fake', 'unavailable', 'fake was not started: main.fake is hostile']);
      expect(existsSync(ran)).toBe(false);
    } finally {
      await pool.shutdown();
    }
  });

  it('a language found deeper makes the workspace polyglot: the server checked ahead does not start', async () => {
    let checked = false;
    const fake = fakeNearRoot({
      preflight: async () => {
        checked = true;
        return undefined;
      },
    });
    await mkdir(join(root, 'tools', 'native', 'lib'), { recursive: true });
    await writeFile(join(root, 'tools', 'native', 'lib', 'deep.project'), '');
    const pool = new ServerPool(root, { definitions: [fake, deepOnly] });
    await pool.startSole();
    try {
      expect(checked).toBe(true);
      expect(pool.servers().map((s) => [s.id, s.state, s.pid])).toEqual([
        ['fake', 'idle', undefined],
        ['deep', 'idle', undefined],
      ]);
      // Started later for a question, the server is checked again (nothing kept from the dropped checks).
      checked = false;
      const server = await pool.serverFor(join(root, 'main.fake'));
      expect(checked).toBe(true);
      expect(isAlive(server.pid as number)).toBe(true);
    } finally {
      await pool.shutdown();
    }
  });

  describe('a server that reads nothing before its first document launches ahead', () => {
    /** The fake as tsgo is declared: launched while its checks run; its anchor is `main.fake`; `--journal` tells what reached it. */
    const launchingAhead = (journal: string, preflight: () => Promise<string | undefined>): ServerDefinition =>
      fakeNearRoot({
        args: ['--mode=ok', `--journal=${journal}`],
        readsNothingBeforeOpen: true,
        preflight,
        projectAnchors: async (workspaceRoot) => ({ files: [join(workspaceRoot, 'main.fake')], warnings: [] }),
      });

    /** A pool starting the fake ahead with its preflight held until `pass` (a refusal, or `undefined` to start it). */
    const startHeld = (): { journal: string; pass: (refusal: string | undefined) => void; pool: ServerPool; starting: Promise<void> } => {
      const journal = join(root, 'journal.log');
      let pass: (refusal: string | undefined) => void = () => undefined;
      const preflight = new Promise<string | undefined>((resolve) => (pass = resolve));
      const pool = new ServerPool(root, { definitions: [launchingAhead(journal, () => preflight), deepOnly] });
      return { journal, pass, pool, starting: pool.startSole() };
    };

    it('launches while its preflight runs and opens its anchor only once the preflight passed', async () => {
      const { journal, pass, pool, starting } = startHeld();
      try {
        await journalShows(journal, 'initialized');
        expect(journalLines(journal).map((line) => line.split(' ')[1])).toEqual(['initialize', 'initialized']);
        pass(undefined);
        await starting;
        await journalShows(journal, 'textDocument/didOpen');
        expect(journalLines(journal).map((line) => line.split(' ')[1])).toEqual(['initialize', 'initialized', 'textDocument/didOpen']);
        expect(pool.servers().map((s) => [s.id, s.state])).toEqual([['fake', expect.stringMatching(/indexing|ready/)]]);
      } finally {
        pass(undefined);
        await pool.shutdown();
      }
    });

    it('says it launched once its process is initialized, while its preflight still holds its documents', async () => {
      const { journal, pass, pool } = startHeld();
      try {
        await pool.launched();
        // Launched: the process answered `initialize`; no document went out while the preflight holds.
        await journalShows(journal, 'initialized');
        expect(journalLines(journal).map((line) => line.split(' ')[1])).toEqual(['initialize', 'initialized']);
        pass(undefined);
        await journalShows(journal, 'textDocument/didOpen');
        expect(journalLines(journal).map((line) => line.split(' ')[1])).toEqual(['initialize', 'initialized', 'textDocument/didOpen']);
      } finally {
        pass(undefined);
        await pool.shutdown();
      }
    });

    it('a refusal stops the launched server before it opened anything', async () => {
      const { journal, pass, pool, starting } = startHeld();
      try {
        await journalShows(journal, 'initialized');
        pass('fake was not started: main.fake is hostile');
        await starting;
        const [fake] = pool.servers();
        expect([fake?.id, fake?.state, fake?.detail]).toEqual(['fake', 'unavailable', 'fake was not started: main.fake is hostile']);
        const lines = journalLines(journal);
        expect(lines.map((line) => line.split(' ')[1])).toEqual(['initialize', 'initialized']);
        expect(isAlive(Number(lines[0]?.split(' ')[0]))).toBe(false);
      } finally {
        await pool.shutdown();
      }
    });

    it('a language found deeper stops it unopened, and shutting the pool down waits until its process is gone', async () => {
      const journal = join(root, 'journal.log');
      await mkdir(join(root, 'tools', 'native', 'lib'), { recursive: true });
      await writeFile(join(root, 'tools', 'native', 'lib', 'deep.project'), '');
      const pool = new ServerPool(root, { definitions: [launchingAhead(journal, async () => undefined), deepOnly] });
      await pool.startSole();
      expect(pool.servers().map((s) => [s.id, s.state, s.pid])).toEqual([
        ['fake', 'idle', undefined],
        ['deep', 'idle', undefined],
      ]);
      await pool.shutdown();
      const lines = journalLines(journal);
      expect(lines.map((line) => line.split(' ')[1])).not.toContain('textDocument/didOpen');
      expect(lines[0]).toMatch(/ initialize$/);
      expect(isAlive(Number(lines[0]?.split(' ')[0]))).toBe(false);
    });
  });
});
