/**
 * A plain CommonJS package without jsconfig or tsconfig (fixtures/js-plain) against real tsgo:
 * the whole package is one inferred project from the first question (every loose JS file is
 * opened, bounded), a member assigned a named function is one definition, and members assigned to
 * an object or a prototype are named by that object. Positions come from the fixture text.
 */
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { looseScripts } from '../languages/typescript/loose-scripts.js';
import type { Location, Reference, SymbolDefinition } from '../model.js';
import { copyFixture } from './support/servers.js';
import { openFixtureSession, serversAvailable, type FixtureSession } from './support/session.js';

const available = await serversAvailable('typescript');

/** Every `.js` file of a folder, workspace-relative, sorted. */
async function jsFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map((e) => relative(root, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

describe('loose JavaScript files (no project covers them)', () => {
  it('lists every JS file, and says when the bound cuts the list', async () => {
    const copy = await copyFixture('js-plain');
    try {
      const all = await looseScripts(copy.root, []);
      expect(all.files.map((f) => relative(copy.root, f).split('\\').join('/')).sort()).toEqual(await jsFiles(copy.root));
      expect(all.warning).toBeUndefined();
      const cut = await looseScripts(copy.root, [], { limit: 2 });
      expect(cut.files.length).toBe(2);
      expect(cut.warning).toMatch(/first 2 JavaScript\/TypeScript files.*MAX_LOOSE_SCRIPTS/);
      // A project at the root covers everything; one in a folder covers that folder.
      expect((await looseScripts(copy.root, [copy.root])).files).toEqual([]);
      const outsideLib = await looseScripts(copy.root, [join(copy.root, 'lib')]);
      expect(outsideLib.files.some((f) => relative(copy.root, f).startsWith('lib'))).toBe(false);
    } finally {
      await copy.dispose();
    }
  });
});

describe.skipIf(!available)('a plain JavaScript package on tsgo (fixtures/js-plain)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('js-plain');
  }, 120_000);
  afterAll(async () => {
    await f?.dispose();
  });

  const place = (l: Location): string => `${l.path}:${l.start.line}:${l.start.column}`;

  it('the index knows every file of the package from the start, in every entry folder', async () => {
    const symbols = await f.session.backend.workspaceSymbols('createApp', {});
    const files = new Set(symbols.map((s) => s.location.path));
    for (const file of await jsFiles(f.root)) if ((await f.text(file)).includes('createApp')) expect(files, file).toContain(file);
  });

  it('findReferences of the exported factory finds its uses in every file', async () => {
    const refs = (await f.value('findReferences(findDefinition("createApp"))')) as Reference[];
    // The uses in the text: calls, the `module.exports = createApp` exports, and the imports
    // (`var createApp = require(…)`: an import is a reference, on every backend).
    const expected: string[] = [];
    for (const file of await jsFiles(f.root)) {
      const lines = (await f.text(file)).split('\n');
      lines.forEach((text, i) => {
        for (const m of text.matchAll(/createApp(?=\(|;| = require\()/g)) if (!/function\s+$/.test(text.slice(0, m.index))) expected.push(`${file}:${i + 1}:${m.index + 1}`);
      });
    }
    expect(expected.length).toBe(13);
    expect(refs.map((r) => place(r.referencedAt)).sort()).toEqual(expected.sort());
  });

  it('a member assigned a named function is one definition, a method', async () => {
    const send = (await f.value('findDefinitions("send")')) as SymbolDefinition[];
    expect(send.map((d) => `${d.kind} ${place(d.definedAt)}`)).toEqual([`method lib/response.js:${(await f.nameIn('lib/response.js', 'res.send = function send', 'send')).line}:5`]);
    const picked = await f.outcome('pick(findDefinitions("send"), "response.js")');
    expect(picked.kind).toBe('value');
    const render = (await f.value('findDefinitions("render")')) as SymbolDefinition[];
    // One per assignment: app.render, res.render, View.prototype.render (anonymous).
    expect(render.map((d) => d.container).sort()).toEqual(['View.prototype', 'app', 'res']);
  });

  it('members are named by the object or prototype they are assigned to', async () => {
    const lookup = await f.nameIn('lib/view.js', 'View.prototype.lookup = function', 'lookup');
    for (const name of ['View.prototype.lookup', 'View.lookup']) {
      const defs = (await f.value(`findDefinitions(${JSON.stringify(name)})`)) as SymbolDefinition[];
      expect(defs.map((d) => place(d.definedAt)), name).toEqual([`lib/view.js:${lookup.line}:${lookup.column}`]);
    }
    const send = await f.nameIn('lib/response.js', 'res.send = function', 'send');
    const resSend = (await f.value('findDefinitions("res.send")')) as SymbolDefinition[];
    expect(resSend.map((d) => place(d.definedAt))).toEqual([`lib/response.js:${send.line}:${send.column}`]);
    // A location's content is its whole first line.
    expect(resSend[0]?.definedAt.content).toBe((await f.text('lib/response.js')).split('\n')[send.line - 1]);
    const lines = (await f.value('lines("View.prototype.lookup")')) as Location;
    // The member with its function value, up to the function's closing brace.
    const source = (await f.text('lib/view.js')).split('\n');
    expect([lines.start.line, lines.end.line]).toEqual([lookup.line, source.findIndex((l, i) => i >= lookup.line && l.startsWith('};')) + 1]);
    expect(((await f.value('findDefinitions("app.lookup")')) as unknown[]).length).toBe(0);
    // tsgo resolves no uses of such members: the answer says so instead of reading as "unused".
    const refs = await f.outcome('findReferences("View.prototype.lookup")');
    if (refs.kind !== 'value') throw new Error(`expected a value, got ${refs.kind}`);
    if ((refs.value as unknown[]).length === 0) expect(refs.notes.join('\n')).toContain('resolves no uses of View.prototype.lookup');
    const callers = await f.outcome('callers("res.send")');
    if (callers.kind !== 'value') throw new Error(`expected a value, got ${callers.kind}`);
    if ((callers.value as unknown[]).length === 0) expect(callers.notes.join('\n')).toContain('resolves no uses of res.send');
  });
});

