/**
 * A CommonJS library whose `tsconfig.json` checks only its hand-written typings (`"files":
 * ["index.d.ts"]`, no `allowJs`: winstonjs/winston's shape), against real tsgo. That project takes
 * in none of the library's JavaScript, so the JavaScript is loose (opened, bounded, like a package
 * without any configuration): references between its modules are found. Positions come from the
 * fixture text.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { looseScripts } from '../languages/typescript/loose-scripts.js';
import type { Reference } from '../model.js';
import { copyFixture } from './support/servers.js';
import { openFixtureSession, serversAvailable, type FixtureSession } from './support/session.js';

const available = await serversAvailable('typescript');

describe('which JavaScript a configured project takes in', () => {
  it('a tsconfig with `files` and no allowJs covers none of it; one that allows JavaScript covers what it includes', async () => {
    const copy = await copyFixture('js-typings');
    try {
      const loose = async (): Promise<string[]> => (await looseScripts(copy.root, [copy.root])).files.map((f) => relative(copy.root, f).split('\\').join('/')).sort();
      expect(await loose()).toEqual(['lib/format.js', 'lib/index.js', 'lib/logger.js', 'test/logger.test.js']);
      await writeFile(join(copy.root, 'tsconfig.json'), '{ "compilerOptions": { "allowJs": true }, "include": ["lib"] }');
      expect(await loose()).toEqual(['test/logger.test.js']);
      await writeFile(join(copy.root, 'tsconfig.json'), '{ "compilerOptions": { "checkJs": true }, "include": ["**/*.js"], "exclude": ["test"] }');
      expect(await loose()).toEqual(['test/logger.test.js']);
      // Allowed by the configuration it extends, everything included by default.
      await mkdir(join(copy.root, 'config'));
      await writeFile(join(copy.root, 'config', 'base.json'), '{ "compilerOptions": { "allowJs": true } }');
      await writeFile(join(copy.root, 'tsconfig.json'), '{ "extends": "./config/base.json" }');
      expect(await loose()).toEqual([]);
      // More patterns than are matched: its JavaScript is opened (the safe side).
      await writeFile(join(copy.root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { allowJs: true }, include: Array.from({ length: 100 }, (_, i) => `dir${i}/**/*`) }));
      expect(await loose()).toHaveLength(4);
      await writeFile(join(copy.root, 'jsconfig.json'), '{ "include": ["lib/**/*"] }');
      await writeFile(join(copy.root, 'tsconfig.json'), '{ "files": ["index.d.ts"] }');
      // tsconfig.json wins over jsconfig.json in one folder, as in TypeScript.
      expect(await loose()).toHaveLength(4);
    } finally {
      await copy.dispose();
    }
  });
});

describe.skipIf(!available)('a JavaScript library with a typings-only tsconfig on tsgo (fixtures/js-typings)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('js-typings');
  }, 120_000);
  afterAll(async () => {
    await f?.dispose();
  });

  const starts = (refs: Reference[], path: string): { line: number; column: number }[] => refs.filter((r) => r.referencedAt.path === path).map((r) => r.referencedAt.start);

  it("references of a class include its uses in the library's other modules", async () => {
    const refs = (await f.value('findReferences(findDefinition("Logger", file: "lib/logger.js"))')) as Reference[];
    expect(starts(refs, 'lib/index.js')).toContainEqual(await f.at('lib/index.js', 'Logger(level);'));
  });

  it('references of a JavaScript method include the calls in the tests', async () => {
    const refs = (await f.value('findReferences(findDefinition("Logger.log", file: "lib/logger.js"))')) as Reference[];
    expect(starts(refs, 'test/logger.test.js')).toContainEqual(await f.at('test/logger.test.js', 'log('));
  });
});
