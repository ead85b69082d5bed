/**
 * Plain CommonJS of the shape of koajs/koa (seen there): `lib/is-stream.js` exports an anonymous
 * arrow function whole and every user binds it with `const isStream = require('./is-stream.js')`;
 * `lib/request.js` exports an object literal whose method `accepts` shares its name with a
 * `require` of an uninstalled package. `findDefinitions("isStream")` answered nothing, `callers`
 * nothing, and `request.accepts` listed the `require` binding beside the method. And qs's shape
 * (`lib/utils.js`): `var merge = function merge(…)` exported as `module.exports = { merge: merge }`.
 * Real tsgo on
 * fixtures/js-required (no jsconfig), one session for the file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Location, SymbolDefinition } from '../model.js';
import { openFixtureSession, serversAvailable, type FixtureSession } from './support/session.js';

const available = await serversAvailable('typescript');

describe.runIf(available)('CommonJS requires of an anonymous whole export (real tsgo, fixtures/js-required)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('js-required');
  });
  afterAll(async () => {
    await f?.dispose();
  });

  const where = (d: SymbolDefinition): string => `${d.kind} ${d.definedAt.path}:${d.definedAt.start.line}:${d.definedAt.start.column}`;

  it('a name only required is what the module exports, and its callers are the calls of the requiring files', async () => {
    const exported = await f.at('lib/is-stream.js', 'module.exports');
    const defs = (await f.value('findDefinitions("isStream")')) as SymbolDefinition[];
    expect(defs.map(where)).toEqual([`function lib/is-stream.js:${exported.line}:${exported.column}`]);
    const callers = (await f.value('callers("isStream")')) as (SymbolDefinition & { callSites: Location[] })[];
    const sites = async (path: string, needle: string, nth = 0): Promise<string> => {
      const p = await f.at(path, needle, nth);
      return `${path}:${p.line}:${p.column}`;
    };
    const shown = callers.map((c) => `${c.name} ${c.definedAt.path}: ${c.callSites.map((s) => `${s.path}:${s.start.line}:${s.start.column}`).join(' ')}`).sort();
    expect(shown).toEqual(
      [
        `body lib/response.js: ${await sites('lib/response.js', 'isStream(val)')}`,
        `length lib/response.js: ${await sites('lib/response.js', 'isStream(body)')}`,
        `respond lib/application.js: ${await sites('lib/application.js', 'isStream(body)')}`,
      ].sort(),
    );
  });

  // ljharb/qs: `findReferences("merge")` listed 1 use of 34 (the `merge: merge` of the exports).
  it('a function expression held by a variable of its name and exported as a property: its recursive calls and the importers’ uses of the property are its references', async () => {
    const refs = (await f.value('findReferences(findDefinition("merge"))')) as { referencedAt: Location }[];
    const places = refs.map((r) => `${r.referencedAt.path}:${r.referencedAt.start.line}:${r.referencedAt.start.column}`);
    const at = async (path: string, needle: string, offset: number): Promise<string> => {
      const p = await f.at(path, needle);
      return `${path}:${p.line}:${p.column + offset}`;
    };
    expect([...places].sort()).toEqual(
      [
        await at('lib/parse.js', 'utils.merge(', 'utils.'.length),
        await at('lib/utils.js', 'merge(acc, item)', 0),
        await at('lib/utils.js', 'merge({}, value)', 0),
        await at('lib/utils.js', 'merge: merge', 'merge: '.length),
        await at('test/utils.js', 'utils.merge(', 'utils.'.length),
      ].sort(),
    );
  });

  it('an anonymous function exported whole, required under a name and exported again as a property: a definition of that name beside another, and the importers’ uses of the property are its references', async () => {
    // What the importers name `parse`, beside the module's own helper of that name (qs's `stringify`).
    const exported = await f.at('lib/parse.js', 'module.exports');
    const helper = await f.at('lib/parse.js', 'parse = function', 0);
    expect(((await f.value('findDefinitions("parse")')) as SymbolDefinition[]).map(where)).toEqual([
      `variable lib/parse.js:${helper.line}:${helper.column}`,
      `function lib/parse.js:${exported.line}:${exported.column}`,
    ]);
    const refs = (await f.value('findReferences(findDefinitions("parse"))')) as { referencedAt: Location }[];
    const used = await f.at('test/parse.js', 'qs.parse(');
    expect(refs.map((r) => `${r.referencedAt.path}:${r.referencedAt.start.line}:${r.referencedAt.start.column}`)).toContain(`test/parse.js:${used.line}:${used.column + 'qs.'.length}`);
  });

  it('a `require` binding is an import, not a definition; a value made from what is required is one', async () => {
    const method = await f.at('lib/request.js', 'accepts (');
    for (const program of ['findDefinitions("request.accepts")', 'findDefinitions("accepts")']) {
      const defs = (await f.value(program)) as SymbolDefinition[];
      expect(defs.map(where), program).toEqual([`method lib/request.js:${method.line}:${method.column}`]);
    }
    const debug = await f.at('lib/application.js', 'debug =');
    expect(((await f.value('findDefinitions("debug")')) as SymbolDefinition[]).map(where)).toEqual([`variable lib/application.js:${debug.line}:${debug.column}`]);
  });
});
