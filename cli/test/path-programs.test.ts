/**
 * A PATH with folders that are not absolute (`.`, an empty entry, `node_modules/.bin`) run from
 * inside a workspace: `dialect eval` runs no program the workspace ships under the name of one
 * Dialect runs — git for `gitdiff`, in a real repository — and language servers get only PATH's
 * absolute folders (`ide-adapter/search-path.ts`).
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readdir, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverEnvironment } from '../../ide-adapter/lsp/launch.js';
import type { ServerDefinition } from '../../ide-adapter/lsp/servers.js';
import { childEnv, requireFreshBuild, runDialect, tempDir } from './support/cli.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
let workspace: string;
let markers: string;

beforeAll(async () => {
  requireFreshBuild();
  dir = await tempDir('dialect-path-programs-');
  workspace = join(dir.path, 'ws');
  markers = join(dir.path, 'markers');
  await mkdir(join(workspace, 'node_modules', '.bin'), { recursive: true });
  await mkdir(markers);
  const git = (...args: string[]) => execFileSync('git', ['-c', 'core.hooksPath=/dev/null', ...args], { cwd: workspace, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: dir.path } });
  git('init', '-q');
  await writeFile(join(workspace, 'notes.txt'), 'alpha\n');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'one');
  await writeFile(join(workspace, 'notes.txt'), 'alpha\nbeta\n');
  // The workspace's git, in the folders a relative PATH entry would name: it leaves a marker, then
  // does what git would (so an answer cannot tell).
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  for (const folder of ['.', 'node_modules/.bin']) {
    const path = join(workspace, folder, 'git');
    await writeFile(path, `#!/bin/sh\ntouch '${join(markers, folder.replace(/\W/g, '_'))}'\nexec '${realGit}' "$@"\n`);
    await chmod(path, 0o755);
  }
});

afterAll(() => dir?.dispose());

describe('a relative PATH folder run from inside the workspace', () => {
  it.each(['.', '', 'node_modules/.bin'])('dialect eval gitdiff() runs the real git (PATH entry %j)', async (entry) => {
    const env = await childEnv(join(dir.path, 'state'));
    env['PATH'] = `${entry}${delimiter}${process.env['PATH'] ?? ''}`;
    const r = await runDialect(['eval', 'gitdiff()', '--workspace', workspace], { env, cwd: workspace });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('notes.txt');
    expect(await readdir(markers)).toEqual([]);
  });

  it("a language server's PATH holds only absolute folders", () => {
    const definition = { id: 'any', env: { PATH: `.${delimiter}${delimiter}node_modules/.bin${delimiter}/usr/bin${delimiter}bin` } } as unknown as ServerDefinition;
    expect(serverEnvironment(definition)['PATH']).toBe('/usr/bin');
    expect(serverEnvironment({ id: 'any' } as unknown as ServerDefinition, { PATH: `/opt/x${delimiter}.` })['PATH']).toBe('/opt/x');
  });
});
