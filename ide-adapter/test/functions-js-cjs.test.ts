/**
 * A CommonJS package whose `index.js` re-exports a module whole (`module.exports =
 * require('./lib/app')`, as expressjs/express does) against real tsgo, which does not follow that
 * re-export: references and callers of the factory `lib/app.js` exports whole also list its uses
 * through the index (`var express = require('..')`, `express()`), found by the JavaScript hook
 * (`languages/typescript/commonjs.ts`). Positions come from the fixture text.
 */
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMONJS_EXPORTS } from '../languages/typescript/commonjs.js';
import type { Location, Reference } from '../model.js';
import { reexportUses } from '../reexports.js';
import { openFixtureSession, serversAvailable, type FixtureSession } from './support/session.js';

const available = await serversAvailable('typescript');

describe('CommonJS whole-module exports (the rules, line by line)', () => {
  it('knows the export, the re-export, where it resolves, and a call', () => {
    expect(COMMONJS_EXPORTS.exportsWhole('exports = module.exports = createApplication;', 'createApplication')).toBe(true);
    expect(COMMONJS_EXPORTS.exportsWhole('module.exports = createApplication', 'createApplication')).toBe(true);
    expect(COMMONJS_EXPORTS.exportsWhole('module.exports = createApplication.bind(null);', 'createApplication')).toBe(false);
    expect(COMMONJS_EXPORTS.exportsWhole('exports.createApplication = createApplication;', 'createApplication')).toBe(false);
    expect(COMMONJS_EXPORTS.reexportOf("module.exports = require('./lib/express');")).toEqual({ module: './lib/express', column: 1 });
    expect(COMMONJS_EXPORTS.reexportOf("  exports = module.exports = require(\"../app\")")).toEqual({ module: '../app', column: 13 });
    expect(COMMONJS_EXPORTS.reexportOf("module.exports = require('express');")).toBeUndefined();
    expect(COMMONJS_EXPORTS.reexportOf("module.exports = require('./a').b;")).toBeUndefined();
    expect(COMMONJS_EXPORTS.resolves('index.js', './lib/express', 'lib/express.js')).toBe(true);
    expect(COMMONJS_EXPORTS.resolves('lib/index.js', '../app/', 'app/index.js')).toBe(true);
    expect(COMMONJS_EXPORTS.resolves('index.js', './lib/express', 'lib/express/other.js')).toBe(false);
    const lines = (targets: string[]): RegExp => new RegExp(COMMONJS_EXPORTS.reexportLines(targets));
    expect(lines(['lib/express.js']).test("module.exports = require('./lib/express');")).toBe(true);
    expect(lines(['lib/express.js']).test("module.exports = require('./lib/express.js');")).toBe(true);
    expect(lines(['lib/express.js']).test("module.exports = require('./lib/router');")).toBe(false);
    expect(lines(['lib/index.js']).test("exports = module.exports = require('./lib/');")).toBe(true);
    expect(lines(['index.js']).test("module.exports = require('../..');")).toBe(true);
    expect(COMMONJS_EXPORTS.calledAt('var app = express();', 11)).toBe(true);
    expect(COMMONJS_EXPORTS.calledAt('var r = express.Router();', 9)).toBe(false);
    expect(COMMONJS_EXPORTS.calledAt('var é = express ();', 9)).toBe(true);
  });

  it('reads a line padded with a megabyte of blanks in linear time (the trailing-blank patterns were quadratic)', () => {
    const pad = ' '.repeat(1_000_000);
    const started = performance.now();
    expect(COMMONJS_EXPORTS.exportsWhole(`module.exports = createApplication${pad}x`, 'createApplication')).toBe(false);
    expect(COMMONJS_EXPORTS.exportsWhole(`module.exports = createApplication${pad};${pad}`, 'createApplication')).toBe(true);
    expect(COMMONJS_EXPORTS.reexportOf(`module.exports = require('./lib/express')${pad}x`)).toBeUndefined();
    expect(COMMONJS_EXPORTS.reexportOf(`module.exports = require('./lib/express')${pad};\t`)).toEqual({ module: './lib/express', column: 1 });
    // Linear, these take milliseconds; the quadratic patterns took most of an hour.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('reads 2,000 calls on a minified megabyte line in place (copying the line per use took two minutes)', () => {
    const call = 'express(); ';
    const line = call.repeat(100_000);
    const started = performance.now();
    for (let i = 0; i < 2000; i++) expect(COMMONJS_EXPORTS.calledAt(line, 1 + call.length * ((i * 47) % 100_000))).toBe(true);
    expect(COMMONJS_EXPORTS.calledAt(line, 1 + call.length * 99_999 + 8)).toBe(false);
    expect(performance.now() - started).toBeLessThan(10_000);
    // Columns count code points: after an astral character the name is one column further left.
    expect(COMMONJS_EXPORTS.calledAt('var 𝒳 = express ();', 9)).toBe(true);
    expect(COMMONJS_EXPORTS.calledAt('var 𝒳 = express ();', 8)).toBe(false);
    expect(COMMONJS_EXPORTS.calledAt('𝒳𝒳 express()', 4)).toBe(true);
  });
});

describe('uses through re-exports (bounded, with in-memory sources)', () => {
  /** Uses through `n` modules re-exporting `lib/app.js` whole and `top.js` re-exporting `r0.js`; which modules were asked. */
  async function through(n: number): Promise<{ asked: string[]; uses: Awaited<ReturnType<typeof reexportUses>> }> {
    const files = new Map<string, string>([...Array.from({ length: n }, (_, i) => [`r${i}.js`, "module.exports = require('./lib/app');"] as [string, string]), ['top.js', "module.exports = require('./r0');"], ['other.js', "module.exports = require('./lib/other');"]]);
    const asked: string[] = [];
    const uses = await reexportUses(COMMONJS_EXPORTS, 'lib/app.js', {
      lines: async (p) => (files.get(p) ?? '').split('\n'),
      search: async (pattern, max) =>
        [...files].filter(([, text]) => new RegExp(pattern).test(text)).slice(0, max).map(([path, content]) => ({ path, start: { line: 1, column: 1 }, content })),
      references: async (path, at): Promise<Location[]> => {
        asked.push(path);
        return [{ path: `user-of-${path}`, start: { line: 1, column: 5 }, end: { line: 1, column: 12 }, content: 'var express = require(...)' }, { path, start: at, end: at, content: files.get(path) ?? '' }];
      },
    });
    return { asked, uses };
  }

  it('follows a chain of re-exports, and leaves out the re-export lines themselves', async () => {
    const { asked, uses } = await through(3);
    expect(asked.sort()).toEqual(['r0.js', 'r1.js', 'r2.js', 'top.js']);
    expect(uses.uses.map((u) => u.path).sort()).toEqual(asked.map((p) => `user-of-${p}`).sort());
    expect(uses.cut).toBeUndefined();
  });

  it('asks a bounded number of re-exporting modules and says when the bound cut', async () => {
    const { asked, uses } = await through(12);
    expect(asked.length).toBe(8);
    expect(uses.cut).toMatch(/first 8 modules re-exporting lib\/app\.js/);
  });
});

/** Every `.js` file of a folder, workspace-relative, sorted. */
async function jsFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map((e) => relative(root, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

describe.skipIf(!available)('a package index re-exporting a module whole on tsgo (fixtures/js-cjs)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('js-cjs');
  }, 120_000);
  afterAll(async () => {
    await f?.dispose();
  });

  /** `file:line:column` of every match of `pattern` in the fixture's JS files (1-based columns of the match). */
  async function placesOf(pattern: RegExp): Promise<string[]> {
    const out: string[] = [];
    for (const file of await jsFiles(f.root)) {
      (await f.text(file)).split('\n').forEach((text, i) => {
        for (const m of text.matchAll(pattern)) out.push(`${file}:${i + 1}:${(m.index ?? 0) + 1}`);
      });
    }
    return out.sort();
  }

  it('callers of the factory include the calls through the index, each under its caller', async () => {
    const callers = (await f.value('callers(findDefinition("createApplication"))')) as { name: string; kind: string; callSites: { path: string; start: { line: number; column: number } }[] }[];
    const sites = callers.flatMap((c) => c.callSites.map((s) => `${s.path}:${s.start.line}:${s.start.column}`)).sort();
    // Every call: `createApplication(` outside its declaration, and `express(` through the index.
    const expected = [...(await placesOf(/(?<!function )createApplication(?=\()/g)), ...(await placesOf(/express(?=\()/g))].sort();
    expect(expected.length).toBe(4);
    expect(sites).toEqual(expected);
    const start = callers.find((c) => c.callSites.some((s) => s.path === 'examples/hello/index.js'));
    expect(start?.name).toBe('start');
  });

  it('findReferences of the factory includes its uses through the index', async () => {
    const refs = (await f.value('findReferences(findDefinition("createApplication"))')) as Reference[];
    const places = refs.map((r) => `${r.referencedAt.path}:${r.referencedAt.start.line}:${r.referencedAt.start.column}`);
    for (const call of await placesOf(/express(?=\()/g)) expect(places).toContain(call);
    // Not the `'use strict'` lines a naive follow of the index's `module` gives.
    expect(refs.every((r) => !r.referencedAt.content.includes('use strict'))).toBe(true);
  });
});
