/**
 * Unit tests over the in-memory `FakeBackend` of how answers say how complete they are: the notes
 * for servers still indexing or degraded, one-time warnings, notes on every answer, and the
 * `workspace-not-loaded` error that keeps an empty answer from reading as "not found".
 */
import { describe, expect, it } from 'vitest';
import type { Completeness } from '../backend.js';
import type { ServerStatus } from '../status.js';
import { openFakeSession } from './support/fake-backend.js';

const SOURCES = { 'src/lib.rs': 'pub fn <|known|>() {}\n' };

/** rust-analyzer's status in a given state. */
function rustAnalyzer(status: Partial<ServerStatus>): ServerStatus {
  return { id: 'rust-analyzer', displayName: 'rust-analyzer', languages: ['rust'], state: 'ready', ...status };
}

describe('completeness notes', () => {
  const cases: { what: string; readiness: Partial<Completeness>; notes: (string | RegExp)[] }[] = [
    { what: 'complete: no note', readiness: {}, notes: [] },
    // Still indexing is the answer's state (its marker), not a session fact: no note.
    {
      what: 'still indexing',
      readiness: { complete: false, servers: [rustAnalyzer({ state: 'indexing', progress: { title: 'Indexing', message: 'crates', percentage: 45 } })] },
      notes: [],
    },
    {
      what: 'degraded',
      readiness: { complete: false, servers: [rustAnalyzer({ health: { level: 'warning', message: 'proc macros failed' } })] },
      notes: ['rust-analyzer is degraded: proc macros failed — status() has details'],
    },
    { what: 'a warning', readiness: { warnings: ['the standard library could not be loaded'] }, notes: ['the standard library could not be loaded'] },
    { what: 'a note of every answer', readiness: { notes: ['this workspace is not trusted'] }, notes: ['this workspace is not trusted'] },
  ];
  it.each(cases)('$what', async ({ readiness, notes }) => {
    const f = await openFakeSession(SOURCES, { readiness });
    try {
      const o = await f.outcome('findDefinitions("known")');
      expect(o.kind).toBe('value');
      expect(o.notes).toHaveLength(notes.length);
      notes.forEach((note, i) => (typeof note === 'string' ? expect(o.notes[i]).toBe(note) : expect(o.notes[i]).toMatch(note)));
    } finally {
      await f.dispose();
    }
  });

  it('every fact is told once per session, and again only when it changes', async () => {
    const f = await openFakeSession(SOURCES, { readiness: { warnings: ['once'], notes: ['also once'] } });
    try {
      expect((await f.outcome('findDefinitions("known")')).notes).toEqual(['once', 'also once']);
      expect((await f.outcome('findDefinitions("known")')).notes).toEqual([]);
    } finally {
      await f.dispose();
    }
  });
});

describe('a workspace a server could not load', () => {
  const readiness: Partial<Completeness> = { complete: false, servers: [rustAnalyzer({ health: { level: 'error', message: 'failed to load workspace.' } })], warnings: ['no working cargo was found'] };

  it('makes a name that is not found an error that says why, not "not found"', async () => {
    const f = await openFakeSession(SOURCES, { readiness });
    try {
      const o = await f.outcome('findDefinitions("missing")');
      expect(o.kind === 'error' ? [o.error.code, o.error.message] : o.kind).toEqual([
        'workspace-not-loaded',
        '"missing" cannot be looked up: rust-analyzer: failed to load workspace — no working cargo was found',
      ]);
    } finally {
      await f.dispose();
    }
  });

  it('gives each reason in its own clause (afero: "… Fix: install go 1.24 or newer Go: imports of …" ran two warnings together)', async () => {
    const f = await openFakeSession(SOURCES, { readiness: { ...readiness, warnings: ['Go: go.mod asks for go 1.24.0. Fix: install go 1.24 or newer', 'Go: imports of x/text are unresolved. Fix: go mod download (online).'] } });
    try {
      const o = await f.outcome('findDefinitions("missing")');
      expect(o.kind === 'error' ? o.error.message : o.kind).toBe(
        '"missing" cannot be looked up: rust-analyzer: failed to load workspace — Go: go.mod asks for go 1.24.0. Fix: install go 1.24 or newer; Go: imports of x/text are unresolved. Fix: go mod download (online)',
      );
    } finally {
      await f.dispose();
    }
  });

  it('still answers a name that is found', async () => {
    const f = await openFakeSession(SOURCES, { readiness });
    try {
      const o = await f.outcome('findDefinitions("known")');
      expect(o.kind).toBe('value');
    } finally {
      await f.dispose();
    }
  });
});
