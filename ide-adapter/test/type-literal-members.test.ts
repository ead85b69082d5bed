/**
 * Members of a type alias's object type (`export type KyInstance = { extend: (…) => KyInstance }`,
 * seen on sindresorhus/ky) are not in tsgo's outline, which lists the alias alone: their owner is
 * the outline entry whose declaration holds them, so `KyInstance.extend` names the member.
 * Real tsgo on a copy of fixtures/ts-app with one file added; positions from its text.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFixtureSession, serversAvailable, type FixtureSession } from './support/session.js';

const available = await serversAvailable('typescript');

const INSTANCE = `export type Instance = {
\tget: (path: string) => Promise<string>;
\textend: (defaults: Record<string, string>) => Instance;
};

export type Other = {
\tname: string;
};
`;

describe.skipIf(!available)('members of a type alias to an object type (real tsgo, fixtures/ts-app)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('ts-app', (root) => writeFile(join(root, 'src', 'instance.ts'), INSTANCE));
  }, 120_000);
  afterAll(async () => {
    await f?.dispose();
  });

  it('Alias.member names the member, and another alias does not', async () => {
    const at = await f.nameIn('src/instance.ts', '\textend:', 'extend');
    const found = (await f.value('findDefinitions("Instance.extend")')) as { container?: string; definedAt: { path: string; start: { line: number; column: number } } }[];
    expect(found.map((d) => d.definedAt)).toEqual([expect.objectContaining({ path: 'src/instance.ts', start: { line: at.line, column: at.column } })]);
    // Shown with its owner, as a class member is.
    expect(found.map((d) => d.container)).toEqual(['Instance']);
    expect(await f.value('findDefinitions("Other.extend")')).toEqual([]);
  });
});
