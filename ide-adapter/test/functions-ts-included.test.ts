/**
 * A TypeScript package whose `tsconfig.json` includes only its sources (`"include": ["source"]`)
 * while its tests import them from `test/` (sindresorhus/ky's shape), and whose classes keep
 * ECMAScript private members (`#send`), against real tsgo. The tests are in no project: tsgo
 * knows them only once opened, so they are opened at the start like loose JavaScript, and a
 * reference answer does not depend on which files a question happened to open first. Positions
 * come from the fixture text.
 */
import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { looseScripts } from '../languages/typescript/loose-scripts.js';
import type { Reference, SymbolDefinition } from '../model.js';
import { copyFixture } from './support/servers.js';
import { openFixtureSession, serversAvailable, type FixtureSession } from './support/session.js';

const available = await serversAvailable('typescript');

describe('which TypeScript a configured project takes in', () => {
  it("the files a tsconfig's include leaves out are loose; those it includes are not", async () => {
    const copy = await copyFixture('ts-included');
    try {
      const loose = async (): Promise<string[]> => (await looseScripts(copy.root, [copy.root])).files.map((f) => relative(copy.root, f).split('\\').join('/')).sort();
      expect(await loose()).toEqual(['test/client.ts']);
      // A solution (Vite's shape): no files of its own, what its references include.
      await writeFile(join(copy.root, 'tsconfig.app.json'), '{ "include": ["source"] }');
      await writeFile(join(copy.root, 'tsconfig.json'), '{ "files": [], "references": [{ "path": "./tsconfig.app.json" }] }');
      expect(await loose()).toEqual(['test/client.ts']);
      await writeFile(join(copy.root, 'tsconfig.json'), '{ "files": [] }');
      expect(await loose()).toEqual(['source/core/Client.ts', 'source/errors/HttpError.ts', 'source/index.ts', 'test/client.ts']);
      // No include: everything below the project's folder.
      await writeFile(join(copy.root, 'tsconfig.json'), '{ "compilerOptions": { "strict": true } }');
      expect(await loose()).toEqual([]);
    } finally {
      await copy.dispose();
    }
  });
});

describe.skipIf(!available)('a TypeScript package whose tsconfig leaves out its tests, on tsgo (fixtures/ts-included)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('ts-included');
  }, 120_000);
  afterAll(async () => {
    await f?.dispose();
  });

  it('references of a class include its uses in the tests, which no project includes, before any question opened them', async () => {
    const refs = (await f.value('findReferences(findDefinition("HttpError"))')) as Reference[];
    const inTests = refs.filter((r) => r.referencedAt.path === 'test/client.ts').map((r) => r.referencedAt.start);
    expect(inTests).toContainEqual(await f.at('test/client.ts', 'HttpError) {'));
  });

  it('an ECMAScript private member is named as written, with its class or alone', async () => {
    const send = await f.nameIn('source/core/Client.ts', 'async #send', '#send');
    for (const program of ['findDefinitions("Client.#send")', 'findDefinitions("#send")']) {
      const defs = (await f.value(program)) as SymbolDefinition[];
      expect(defs.map((d) => [d.name, d.definedAt.path, d.definedAt.start.line, d.definedAt.start.column]), program).toEqual([['#send', 'source/core/Client.ts', send.line, send.column]]);
    }
    // JSDoc's `Class#member` still names a public member.
    const create = (await f.value('findDefinitions("Client#create")')) as SymbolDefinition[];
    expect(create.map((d) => d.definedAt.start)).toEqual([await f.nameIn('source/core/Client.ts', 'static create', 'create')]);
    const refs = (await f.value('findReferences("Client.#fetchStatus")')) as Reference[];
    expect(refs.map((r) => r.referencedAt.start)).toContainEqual(await f.at('source/core/Client.ts', '#fetchStatus()', 0));
  });
});
