/**
 * A CommonJS package whose shared module exports a function whole and whose environment modules
 * call it as they require it (`module.exports = require('./common')(exports)`: debug-js/debug's
 * shape), against real tsgo. No name binds the required function, so tsgo lists no use there;
 * references and callers of `setup` list those calls, at their `require`. Positions come from the
 * fixture text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMONJS_EXPORTS } from '../languages/typescript/commonjs.js';
import type { Reference } from '../model.js';
import { openFixtureSession, serversAvailable, type FixtureSession } from './support/session.js';

const available = await serversAvailable('typescript');

describe('a module required and called at once (the rules, line by line)', () => {
  it('finds each such call and its module, and only relative ones', () => {
    expect(COMMONJS_EXPORTS.requireCallsOf("module.exports = require('./common')(exports);")).toEqual([{ module: './common', column: 18 }]);
    expect(COMMONJS_EXPORTS.requireCallsOf('const a = require("../x.js") (1), b = require("./y")();')).toEqual([
      { module: '../x.js', column: 11 },
      { module: './y', column: 39 },
    ]);
    expect(COMMONJS_EXPORTS.requireCallsOf("const setup = require('./common');")).toEqual([]);
    expect(COMMONJS_EXPORTS.requireCallsOf("require('debug')('app');")).toEqual([]);
    const lines = new RegExp(COMMONJS_EXPORTS.requireCallLines(['src/common.js']));
    expect(lines.test("module.exports = require('./common.js')(exports);")).toBe(true);
    expect(lines.test("module.exports = require('./common');")).toBe(false);
    expect(lines.test("module.exports = require('./uncommon')(exports);")).toBe(true); // the rules' resolves() tells them apart
    expect(COMMONJS_EXPORTS.resolves('src/node.js', './uncommon', 'src/common.js')).toBe(false);
  });
});

describe.skipIf(!available)('a function exported whole and called as it is required, on tsgo (fixtures/js-setup)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('js-setup');
  }, 120_000);
  afterAll(async () => {
    await f?.dispose();
  });

  it('its references and callers include the calls made as each environment requires it', async () => {
    const calls = [await f.at('src/browser.js', "require('./common.js')"), await f.at('src/node.js', "require('./common')")];
    const refs = (await f.value('findReferences(findDefinition("setup"))')) as Reference[];
    expect(refs.map((r) => [r.referencedAt.path, r.referencedAt.start.line, r.referencedAt.start.column])).toEqual([
      ['src/browser.js', calls[0]?.line, calls[0]?.column],
      ['src/common.js', (await f.at('src/common.js', 'module.exports = setup')).line, (await f.at('src/common.js', 'setup;')).column],
      ['src/node.js', calls[1]?.line, calls[1]?.column],
    ]);
    const callers = (await f.value('callers("setup")')) as { callSites: { path: string; start: { line: number; column: number } }[] }[];
    expect(callers.flatMap((c) => c.callSites.map((s) => [s.path, s.start.line, s.start.column])).sort()).toEqual([
      ['src/browser.js', calls[0]?.line, calls[0]?.column],
      ['src/node.js', calls[1]?.line, calls[1]?.column],
    ]);
  });
});
