/**
 * The paths rust-analyzer and tsgo never take, on the scripted fake server (`fakes/fake-server.js`,
 * a real process speaking LSP over stdio): a server that only *publishes* diagnostics (as pyright
 * does), and one that has a type hierarchy but no type definitions.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineServer } from '../lsp/servers.js';
import type { Diagnostic, SymbolDefinition } from '../model.js';
import { IdeSession } from '../session.js';
import { fakeServerScript, positionOf } from './support/servers.js';

const FILE = 'shapes.fake';
const TEXT = ['class Shape', 'class Circle extends Shape', 'class Square extends Shape', 'class Unit extends Circle', 'ERROR: a marker the server reports', ''].join('\n');

describe('a server with a type hierarchy that only publishes diagnostics (scripted fake)', () => {
  let root: string;
  let session: IdeSession;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'dialect-capabilities-'));
    await writeFile(join(root, FILE), TEXT);
    const fake = defineServer({
      id: 'fake',
      command: fakeServerScript,
      args: ['--types', '--publish-diagnostics'],
      languages: [{ languageId: 'fakelang', extensions: ['.fake'] }],
      filePatterns: ['*.fake'],
    });
    session = await IdeSession.open({ workspaceRoot: root, definitions: [fake], trusted: true, readyTimeoutMs: 10_000 });
  });
  afterAll(async () => {
    await session?.shutdown();
    await rm(root, { recursive: true, force: true });
  });

  async function value(program: string): Promise<unknown> {
    const o = await session.evaluate(program, { deadlineMs: 20_000 });
    if (o.kind !== 'value') throw new Error(`${program} gave ${o.kind}: ${JSON.stringify(o)}`);
    return o.value;
  }
  const at = (needle: string): string => {
    const p = positionOf(TEXT, needle);
    return `symbolAt("${FILE}", ${p.line}, ${p.column})`;
  };
  const names = (defs: unknown): string[] => (defs as SymbolDefinition[]).map((d) => `${d.kind} ${d.name} ${d.definedAt.start.line}:${d.definedAt.start.column}`);
  const place = (needle: string): string => {
    const p = positionOf(TEXT, needle);
    return `${p.line}:${p.column}`;
  };

  it('subtypes and supertypes through typeHierarchy requests', async () => {
    expect(names(await value(`subtypes(${at('Shape')})`))).toEqual([`class Circle ${place('Circle extends')}`, `class Square ${place('Square extends')}`]);
    expect(names(await value(`supertypes(${at('Unit')})`))).toEqual([`class Circle ${place('Circle extends')}`]);
    expect(await value(`supertypes(${at('Shape')})`)).toEqual([]);
  });

  it('typeDefinition on a server without it is a typed error naming the server and an alternative', async () => {
    const o = await session.evaluate(`typeDefinition(${at('Circle')})`, { deadlineMs: 20_000 });
    if (o.kind !== 'error') throw new Error(`expected an error, got ${o.kind}`);
    expect(o.error.code).toBe('unsupported-by-server');
    expect(o.error.message).toBe(`fake (the language server of ${FILE}) does not support type definition`);
    expect(o.error.hint).toContain('getSymbolInfo');
  });

  it('diagnostics of a file come from what the server published after opening it', async () => {
    const o = await session.evaluate(`diagnostics("${FILE}")`, { deadlineMs: 20_000 });
    if (o.kind !== 'value') throw new Error(`expected a value, got ${o.kind}`);
    const list = o.value as Diagnostic[];
    expect(list.map((d) => `${d.start.line}:${d.start.column} ${d.severity} ${d.code ?? ''} ${d.source ?? ''} ${d.message}`)).toEqual([
      `${place('ERROR')} error F1 fake an ERROR marker`,
    ]);
    expect(o.notes.filter((n) => n.includes('published no diagnostics'))).toEqual([]);
  });

  it('after the file changes on disk, the diagnostics are those of the new text, never the old ones', async () => {
    const changed = `// moved down\n${TEXT}`;
    await writeFile(join(root, FILE), changed);
    const list = (await value(`diagnostics("${FILE}")`)) as Diagnostic[];
    const p = positionOf(changed, 'ERROR');
    expect(list.map((d) => `${d.start.line}:${d.start.column}`)).toEqual([`${p.line}:${p.column}`]);
  });
});
