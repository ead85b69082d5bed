/**
 * TypeScript and JavaScript with no package.json and no configuration above them
 * (fixtures/ts-noconfig: a Deno-style folder of scripts, a browser extension's popup script, and
 * one configured project beside them) against real tsgo. Sources alone detect the server, and the
 * files no project can take in are opened at the start, so a reference from a script is found
 * from the first question. Positions come from the fixture text.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinServers } from '../languages/index.js';
import { LOOSE_SCRIPT_COLLECTION, looseScripts } from '../languages/typescript/loose-scripts.js';
import { findProjects } from '../lsp/projects.js';
import { detectServers } from '../lsp/servers.js';
import type { Location, Reference } from '../model.js';
import { copyFixture } from './support/servers.js';
import { openFixtureSession, serversAvailable, type FixtureSession } from './support/session.js';

const available = await serversAvailable('typescript');

/** Every TypeScript or JavaScript file of a folder, workspace-relative and sorted. */
async function sources(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && /\.(?:ts|js)$/.test(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

describe('sources with no configuration', () => {
  it('detect tsgo by themselves, as Python and Go sources do', async () => {
    const base = await mkdtemp(join(tmpdir(), 'dialect-ts-detect-'));
    try {
      for (const file of ['popup.js', 'scripts/greet.ts', 'src/view.tsx', 'tools/build.mjs']) {
        const root = join(base, file.replace(/\W/g, '-'));
        await mkdir(join(root, 'scripts'), { recursive: true });
        await mkdir(join(root, 'src'), { recursive: true });
        await mkdir(join(root, 'tools'), { recursive: true });
        await writeFile(join(root, file), '');
        expect((await detectServers(root, builtinServers())).map((d) => d.definition.id), file).toEqual(['typescript']);
      }
      // A tool's dotfile alone is not JavaScript to answer about.
      const tooling = join(base, 'tooling');
      await mkdir(tooling, { recursive: true });
      await writeFile(join(tooling, '.eslintrc.js'), 'module.exports = {};\n');
      expect(await detectServers(tooling, builtinServers())).toEqual([]);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });

  it('are listed by the start scan outside every project', async () => {
    const copy = await copyFixture('ts-noconfig');
    try {
      // A declaration file beside a script declares what that script defines: it is not opened.
      await writeFile(join(copy.root, 'popup.d.ts'), 'declare function showGreeting(name: string): void;\n');
      const outsideWeb = (await sources(copy.root)).filter((f) => !f.startsWith('web/') && !f.endsWith('.d.ts'));
      const scan = await findProjects(copy.root, ['tsconfig.json', 'jsconfig.json'], { collectFiles: LOOSE_SCRIPT_COLLECTION });
      expect(scan.projectDirs).toEqual([join(copy.root, 'web')]);
      const listed = await looseScripts(copy.root, scan.projectDirs, scan.files !== undefined ? { listed: scan.files } : {});
      const walked = await looseScripts(copy.root, scan.projectDirs);
      const names = (files: readonly string[]): string[] => files.map((f) => relative(copy.root, f).split('\\').join('/')).sort();
      expect(names(listed.files)).toEqual(outsideWeb);
      // A walk of its own (when the scan could not list them) lists the JavaScript only: TypeScript comes from the scan.
      expect(names(walked.files)).toEqual(outsideWeb.filter((f) => f.endsWith('.js')));
      expect(listed.warning).toBeUndefined();
    } finally {
      await copy.dispose();
    }
  });
});

describe.skipIf(!available)('a folder of TypeScript scripts on tsgo (fixtures/ts-noconfig)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('ts-noconfig');
  }, 120_000);
  afterAll(async () => {
    await f?.dispose();
  });

  const place = (l: Location): string => `${l.path}:${l.start.line}:${l.start.column}`;

  it('findReferences finds the uses in every script from the first question, complete', async () => {
    const outcome = await f.outcome('findReferences(findDefinitions("formatName"))');
    expect(outcome.kind).toBe('value');
    if (outcome.kind !== 'value') return;
    const expected: string[] = [];
    for (const file of await sources(f.root)) {
      (await f.text(file)).split('\n').forEach((text, i) => {
        for (const m of text.matchAll(/formatName/g)) if (!/function\s+$/.test(text.slice(0, m.index))) expected.push(`${file}:${i + 1}:${m.index + 1}`);
      });
    }
    expect(expected.filter((p) => p.startsWith('scripts/')).length).toBe(5);
    expect((outcome.value as Reference[]).map((r) => place(r.referencedAt)).sort()).toEqual(expected.sort());
    expect(outcome.notes).toEqual([]);
  });

  it('a loose browser script is one project with the rest: its function is found', async () => {
    const defs = (await f.value('findDefinitions("showGreeting")')) as { definedAt: Location }[];
    expect(defs.map((d) => place(d.definedAt))).toEqual([`popup.js:${(await f.nameIn('popup.js', 'function showGreeting', 'showGreeting')).line}:10`]);
  });
});
