/** The trust store on a real file system: where it lives, real paths, subfolders, a damaged file. */
import { mkdir, mkdtemp, readdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DialectError } from '../../dialect/index.js';
import { isTrusted, listTrusted, trustFolder, trustStorePath, TrustCode, untrustFolder } from '../trust.js';

describe('trust store', () => {
  let base: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'dialect-trust-store-')));
    env = { XDG_CONFIG_HOME: join(base, 'config'), HOME: join(base, 'home') };
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it('lives under XDG_CONFIG_HOME, else ~/.config (a relative XDG_CONFIG_HOME is ignored, as the spec says)', () => {
    expect(trustStorePath(env)).toBe(join(base, 'config', 'dialect', 'trusted.json'));
    expect(trustStorePath({ HOME: '/home/me' })).toBe('/home/me/.config/dialect/trusted.json');
    expect(trustStorePath({ HOME: '/home/me', XDG_CONFIG_HOME: 'relative/config' })).toBe('/home/me/.config/dialect/trusted.json');
  });

  it('trusts by real path: a symlink to a trusted folder is trusted, and so is every folder below it, but not a sibling', async () => {
    const project = join(base, 'project');
    const sibling = join(base, 'project-two');
    await mkdir(join(project, 'deep', 'er'), { recursive: true });
    await mkdir(sibling);
    const link = join(base, 'link');
    await symlink(project, link);
    expect(await isTrusted(project, env)).toBe(false);
    expect(await trustFolder(link, env)).toBe(project);
    expect(await listTrusted(env)).toEqual([project]);
    expect(await isTrusted(project, env)).toBe(true);
    expect(await isTrusted(join(link, 'deep', 'er'), env)).toBe(true);
    expect(await isTrusted(sibling, env)).toBe(false); // a shared prefix is not a parent
    expect(await untrustFolder(link, env)).toEqual([project]);
    expect(await isTrusted(project, env)).toBe(false);
    expect(await readdir(join(base, 'config', 'dialect'))).toEqual(['trusted.json']);
  });

  it('a damaged store is a clear error, never "everything trusted"', async () => {
    const damaged = { XDG_CONFIG_HOME: join(base, 'damaged') };
    await mkdir(join(base, 'damaged', 'dialect'), { recursive: true });
    await writeFile(trustStorePath(damaged), '{"trusted": "/"}');
    const error = await listTrusted(damaged).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DialectError);
    expect((error as DialectError).code).toBe(TrustCode.StoreUnreadable);
    expect(await isTrusted(base, damaged).catch(() => 'threw')).toBe('threw');
  });
});
