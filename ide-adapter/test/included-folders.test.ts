/**
 * The folders a project's configuration takes in by name, as the start's scan reads them: plain
 * folders are read, anything else takes in the whole folder (a file is then left off the list of
 * files no project takes in, never put on it wrongly).
 */
import { mkdtemp, rm, writeFile, mkdir, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inIncludedFolder, includedFolders } from '../included-folders.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'dialect-included-'));
  await mkdir(join(root, 'pkg'), { recursive: true });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** `includedFolders` of a configuration with this text in the workspace folder `pkg`. */
async function foldersOf(text: string): Promise<ReturnType<typeof includedFolders>> {
  await writeFile(join(root, 'pkg', 'tsconfig.json'), text);
  return includedFolders(root, 'pkg', join(root, 'pkg', 'tsconfig.json'), 'include');
}

describe('includedFolders', () => {
  it('reads plain folders, relative to the configuration, comments and trailing commas allowed', async () => {
    expect(await foldersOf('{ // ky\n "include": ["source", "./types/", "lib/**/*", "src/**",] }')).toEqual(['pkg/source', 'pkg/types', 'pkg/lib', 'pkg/src']);
    expect(await foldersOf('{ "include": ["."] }')).toEqual(['pkg']);
    expect(await foldersOf('{ "include": ["../shared"] }')).toEqual(['shared']);
  });

  it('leaves a file entry and a folder outside the workspace to the reader, per file', async () => {
    expect(await foldersOf('{ "include": ["index.ts", "../../elsewhere", "src"] }')).toEqual(['pkg/src']);
    expect(await foldersOf('{ "files": ["index.ts"] }')).toEqual([]);
  });

  it('takes in everything where it cannot tell: wildcards, no include, an inherited one, a broken or linked configuration', async () => {
    for (const text of ['{ "include": ["src/*.ts"] }', '{ "include": ["**/*.ts"] }', '{}', '{ "extends": "./base.json", "files": [] }', '{ "include": "src" }', '{ "include": [1] }', 'not json', '[]']) {
      expect(await foldersOf(text), text).toBe('all');
    }
    await writeFile(join(root, 'outside.json'), '{ "include": ["src"] }');
    await rm(join(root, 'pkg', 'tsconfig.json'));
    await symlink(join(tmpdir(), 'nowhere.json'), join(root, 'pkg', 'tsconfig.json'));
    expect(includedFolders(root, 'pkg', join(root, 'pkg', 'tsconfig.json'), 'include')).toBe('all');
    await rm(join(root, 'pkg', 'tsconfig.json'));
  });

  it('places a folder in or below the folders named, not beside them', () => {
    expect(inIncludedFolder(['pkg/src'], 'pkg/src')).toBe(true);
    expect(inIncludedFolder(['pkg/src'], 'pkg/src/deep')).toBe(true);
    expect(inIncludedFolder(['pkg/src'], 'pkg/srcs')).toBe(false);
    expect(inIncludedFolder(['pkg/src'], 'pkg')).toBe(false);
    expect(inIncludedFolder([''], 'anything')).toBe(true);
    expect(inIncludedFolder([], 'pkg')).toBe(false);
  });
});
