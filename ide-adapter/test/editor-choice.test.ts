/**
 * Which editor window answers a workspace: the choice on discovery records (pure logic), and
 * `editorCandidates` reading real records from a real private runtime folder — the window on the
 * workspace itself or on the deepest folder containing it first, never a window on a sibling or a
 * subfolder of the workspace.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containingRecords } from '../editors/choice.js';
import { editorCandidates } from '../editors/connect.js';
import { DISCOVERY_VERSION, ensureDiscoveryDir, writeRecord, type DiscoveryRecord } from '../editors/discovery.js';
import { Workspace } from '../workspace.js';

function record(workspaceRoot: string, pid: number, startedAt = 0): DiscoveryRecord {
  return { version: DISCOVERY_VERSION, workspaceRoot, socket: `/run/${pid}.sock`, pid, startedAt, editor: `window ${pid}` };
}

describe('containingRecords', () => {
  const workspace = '/home/u/src/mono/packages/app';

  it('keeps the windows on the workspace or a folder containing it, deepest first', () => {
    const records = [record('/home/u/src', 1), record('/home/u/src/mono/packages/app', 2), record('/home/u/src/mono', 3), record('/', 4)];
    expect(containingRecords(records, workspace).map((r) => r.pid)).toEqual([2, 3, 1, 4]);
  });

  it('passes over siblings, subfolders of the workspace and folders that only share a prefix', () => {
    const records = [record('/home/u/src/mono/packages/lib', 1), record('/home/u/src/mono/packages/app/src', 2), record('/home/u/src/mono/packages/ap', 3), record('/home/u/src/mono/packages/app-old', 4)];
    expect(containingRecords(records, workspace)).toEqual([]);
  });

  it('keeps the given order (newest first) among windows on the same folder', () => {
    const records = [record('/home/u/src/mono', 7), record('/home/u/src/mono', 5), record('/home/u/src/mono/packages', 6)];
    expect(containingRecords(records, workspace).map((r) => r.pid)).toEqual([6, 7, 5]);
  });
});

describe('editorCandidates on real records', () => {
  let base: string;
  let root: string;
  beforeAll(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'dialect-choice-')));
    root = join(base, 'mono');
    await mkdir(join(root, 'packages', 'app'), { recursive: true });
    await mkdir(join(root, 'packages', 'lib'), { recursive: true });
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('offers the window on the deepest containing folder first, then the others, never a sibling', () => {
    const env = { XDG_RUNTIME_DIR: join(base, 'run') };
    const dir = ensureDiscoveryDir(env);
    // Alive processes (records of dead windows are skipped): this process, under three folders.
    const alive = process.pid;
    writeRecord(dir, { ...record(root, alive), socket: join(dir, 'mono.sock') });
    writeRecord(dir, { ...record(join(root, 'packages'), alive), socket: join(dir, 'packages.sock') });
    writeRecord(dir, { ...record(join(root, 'packages', 'lib'), alive), socket: join(dir, 'lib.sock') });
    const sockets = editorCandidates(new Workspace(join(root, 'packages', 'app')), env).map((c) => c.socket);
    expect(sockets).toEqual([join(dir, 'packages.sock'), join(dir, 'mono.sock')]);
  });

  it('removes the record of a window whose process is gone, with its socket file in the private folder only', async () => {
    const env = { XDG_RUNTIME_DIR: join(base, 'run-stale') };
    const dir = ensureDiscoveryDir(env);
    const dead = spawnSync('true').pid; // exited: its pid names no process
    const outside = join(base, 'outside.sock');
    await writeFile(join(dir, 'killed.sock'), '');
    await writeFile(outside, '');
    writeRecord(dir, { ...record(root, dead), socket: join(dir, 'killed.sock') });
    writeRecord(dir, { ...record(join(root, 'packages'), dead), socket: outside });
    expect(editorCandidates(new Workspace(root), env)).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
    expect(existsSync(outside)).toBe(true);
  });
});
