/**
 * Answers a hostile language server nests without end (a fake process, `fakes/fake-server.js`
 * `--deep-outline`): JSON parses them at any depth, but everything after — converting, caching,
 * sending them to another process — would walk them recursively. Whatever depth a server sends,
 * an answer is bounded before anything walks it, and what was left out is said.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ITEM_DEPTH, MAX_OUTLINE_DEPTH } from '../lsp/answer-depth.js';
import { defineServer } from '../lsp/servers.js';
import type { SymbolDefinition } from '../model.js';
import { IdeSession } from '../session.js';
import { fakeServerScript, positionOf } from './support/servers.js';

const FILE = 'deep.fake';

describe('a server whose outline nests 200,000 levels deep', () => {
  let root: string;
  let session: IdeSession;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'dialect-deep-'));
    await writeFile(join(root, FILE), 'x\n');
    const fake = defineServer({
      id: 'fake',
      command: fakeServerScript,
      args: ['--outline', '--deep-outline=200000'],
      languages: [{ languageId: 'fakelang', extensions: ['.fake'] }],
      filePatterns: ['*.fake'],
    });
    session = await IdeSession.open({ workspaceRoot: root, definitions: [fake], trusted: true, readyTimeoutMs: 10_000 });
  });
  afterAll(async () => {
    await session?.shutdown();
    await rm(root, { recursive: true, force: true });
  });

  it('answers the outline cut at MAX_OUTLINE_DEPTH levels, with a note saying so, and the session keeps working', async () => {
    const o = await session.evaluate(`documentSymbols("${FILE}")`, { deadlineMs: 60_000 });
    if (o.kind !== 'value') throw new Error(`expected a value, got ${o.kind}: ${JSON.stringify(o).slice(0, 500)}`);
    // documentSymbols lists the outline flat, in order: one symbol per level kept.
    const outline = o.value as SymbolDefinition[];
    expect(outline.map((s) => s.name)).toEqual(Array.from({ length: MAX_OUTLINE_DEPTH }, (_, level) => `level${level}`));
    // The same answer again (from the cache); the server's warning is told once in the session, by
    // the wait for the index after the answer that met it.
    const again = await session.evaluate(`documentSymbols("${FILE}")`, { deadlineMs: 60_000 });
    expect(again.kind).toBe('value');
    const cutNote = `fake sent an outline nested deeper than ${MAX_OUTLINE_DEPTH} levels: the deeper symbols are left out`;
    expect([...o.notes, ...again.notes].filter((n) => n.includes('nested deeper'))).toEqual([cutNote]);
    const found = await session.evaluate(`findDefinitions("level3")`, { deadlineMs: 60_000 });
    expect(found.kind).not.toBe('error');
  }, 120_000);
});

describe('a server whose hierarchy items carry data nested 100,000 levels deep', () => {
  const TYPES = 'shapes.fake';
  const TEXT = ['class Shape', 'class Circle extends Shape', ''].join('\n');
  let root: string;
  let session: IdeSession;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'dialect-deep-data-'));
    await writeFile(join(root, TYPES), TEXT);
    const fake = defineServer({
      id: 'fake',
      command: fakeServerScript,
      args: ['--types', '--deep-data=100000'],
      languages: [{ languageId: 'fakelang', extensions: ['.fake'] }],
      filePatterns: ['*.fake'],
    });
    session = await IdeSession.open({ workspaceRoot: root, definitions: [fake], trusted: true, readyTimeoutMs: 10_000 });
  });
  afterAll(async () => {
    await session?.shutdown();
    await rm(root, { recursive: true, force: true });
  });

  it('leaves those items out with a note, instead of failing on them (or on sending them back)', async () => {
    const at = positionOf(TEXT, 'Circle');
    const program = `supertypes(symbolAt("${TYPES}", ${at.line}, ${at.column}))`;
    const o = await session.evaluate(program, { deadlineMs: 60_000 });
    if (o.kind !== 'value') throw new Error(`expected a value, got ${o.kind}: ${JSON.stringify(o).slice(0, 500)}`);
    expect(o.value).toEqual([]);
    const again = await session.evaluate(program, { deadlineMs: 60_000 });
    expect(again.kind).toBe('value');
    const note = `fake sent hierarchy items nested deeper than ${MAX_ITEM_DEPTH} levels: they are left out`;
    expect([...o.notes, ...again.notes].filter((n) => n.includes('nested deeper'))).toEqual([note]);
  }, 120_000);
});
