/**
 * Which background server a call gets and how long it lives, with real processes (the built
 * `dialect`, the real TypeScript server on copies of `fixtures/ts-monorepo`, a private runtime
 * folder): two callers whose environments differ only in what changes nothing share one server
 * (while a variable that resolves to another server binary does not); a deleted workspace's
 * server stops on its own, and a replaced one's too, the next call starting one on the new folder.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, watch, writeFileSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutcomeJson } from '../../dialect/index.js';
import { isAlive } from '../../ide-adapter/test/support/servers.js';
import { serversAvailable } from '../../ide-adapter/test/support/session.js';
import { serverIdentity } from '../server/identity.js';
import { runtimeDirPath } from '../server/runtime-dir.js';
import { childEnv, copyFixture, processesIn, requireFreshBuild, runDialect, tempDir } from './support/cli.js';

const available = await serversAvailable('typescript');
const TIMEOUT = 120_000;
const PROGRAM = 'findDefinitions("Subject")';
const SUBJECT_FILE = 'packages/core/src/subject.ts';
/** The promise: a deleted workspace's server is gone within a minute. */
const GONE_WITHIN_MS = 60_000;
/** The test's check interval (the default is 10 s). */
const CHECK_MS = '200';
const POLL_MS = 25;

/** One server of `dialect server status --json`. */
interface StatusEntry {
  readonly pid: number;
  readonly workspace: string;
  readonly servers: readonly { readonly id: string; readonly pid?: number }[];
}

/** Resolves when `file` is removed (watching its folder; bounded). */
function removed(file: string, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(join(file, '..'), () => check());
    const timer = setTimeout(() => finish(() => reject(new Error(`${file} was not removed within ${ms} ms`))), ms);
    const check = (): void => {
      if (!existsSync(file)) finish(resolve);
    };
    const finish = (then: () => void): void => {
      clearTimeout(timer);
      watcher.close();
      then();
    };
    check();
  });
}

/** Waits (bounded) until `pid` is gone: it is not our child, so nothing announces its exit. */
async function gone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  return true;
}

describe.runIf(available)('the background server: one per answer-changing environment, gone with its folder', () => {
  let state: Awaited<ReturnType<typeof tempDir>>;
  const seen = new Set<number>();

  const evaluate = async (root: string, env: Record<string, string>): Promise<OutcomeJson> => {
    const r = await runDialect(['eval', PROGRAM, '--json', '--workspace', root], { env });
    if (r.code !== 0) throw new Error(`eval exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
    const outcome = JSON.parse(r.stdout) as OutcomeJson;
    expect(outcome.kind).toBe('value');
    expect((outcome as { value: { definedAt: { path: string } }[] }).value.map((d) => d.definedAt.path)).toContain(SUBJECT_FILE);
    return outcome;
  };
  const status = async (env: Record<string, string>): Promise<StatusEntry[]> => {
    const r = await runDialect(['server', 'status', '--json'], { env });
    if (r.code !== 0) throw new Error(`server status exited ${r.code}\n${r.stderr}`);
    const entries = JSON.parse(r.stdout) as StatusEntry[];
    for (const entry of entries) {
      seen.add(entry.pid);
      for (const s of entry.servers) if (s.pid !== undefined) seen.add(s.pid);
    }
    return entries;
  };

  beforeAll(async () => {
    requireFreshBuild();
    state = await tempDir('dialect-lifetime-');
  });
  afterAll(async () => {
    try {
      const left = [...seen].filter((pid) => isAlive(pid));
      for (const pid of left) process.kill(pid, 'SIGKILL');
      expect(left).toEqual([]);
    } finally {
      await state?.dispose();
    }
  });

  it('two callers whose PATH differs but finds the same programs share one server; another server binary is another server', async () => {
    const copy = await copyFixture('ts-monorepo');
    const env = await childEnv(join(state.path, 'shared'), { DIALECT_NO_SERVER: '0' });
    try {
      // The MCP client's reduced PATH against a shell's longer one: an extra folder with nothing of ours, a folder twice.
      const extra = join(state.path, 'extra-bin');
      mkdirSync(extra, { recursive: true });
      const dirs = (env.PATH ?? '').split(delimiter);
      const longer = { ...env, PATH: [extra, ...dirs, ...dirs.slice(0, 1)].join(delimiter) };
      const root = realpathSync(copy.root);
      expect(longer.PATH).not.toBe(env.PATH);
      expect(serverIdentity(runtimeDirPath(env), { workspaceRoot: root, trusted: false, env: longer }).id).toBe(serverIdentity(runtimeDirPath(env), { workspaceRoot: root, trusted: false, env }).id);
      await Promise.all([evaluate(copy.root, env), evaluate(copy.root, longer)]);
      const servers = await status(env);
      expect(servers).toHaveLength(1);

      // A rust-analyzer (or TypeScript server) found elsewhere changes the answers: another identity.
      const fakeRa = join(extra, 'rust-analyzer');
      writeFileSync(fakeRa, '#!/bin/sh\necho rust-analyzer 0.0.0\n');
      chmodSync(fakeRa, 0o755);
      expect(serverIdentity(runtimeDirPath(env), { workspaceRoot: root, trusted: false, env: longer }).id).not.toBe(serverIdentity(runtimeDirPath(env), { workspaceRoot: root, trusted: false, env }).id);
      expect(serverIdentity(runtimeDirPath(env), { workspaceRoot: root, trusted: false, env: { ...env, DIALECT_TS_SERVER: fakeRa } }).id).not.toBe(
        serverIdentity(runtimeDirPath(env), { workspaceRoot: root, trusted: false, env }).id,
      );
      // The rustup toolchain behind a proxy counts as given.
      expect(serverIdentity(runtimeDirPath(env), { workspaceRoot: root, trusted: false, env: { ...env, RUSTUP_TOOLCHAIN: 'nightly' } }).id).not.toBe(
        serverIdentity(runtimeDirPath(env), { workspaceRoot: root, trusted: false, env }).id,
      );
    } finally {
      await runDialect(['server', 'stop', '--all'], { env });
      await copy.dispose();
    }
  }, TIMEOUT);

  it('a deleted workspace stops its server and language servers within a minute', async () => {
    const copy = await copyFixture('ts-monorepo');
    const env = await childEnv(join(state.path, 'deleted'), { DIALECT_NO_SERVER: '0', DIALECT_SERVER_WORKSPACE_CHECK_MS: CHECK_MS });
    try {
      await evaluate(copy.root, env);
      const [server] = (await status(env)) as [StatusEntry];
      const languageServers = processesIn(copy.root);
      expect(languageServers.length).toBeGreaterThan(0);
      const files = serverIdentity(runtimeDirPath(env), { workspaceRoot: realpathSync(copy.root), trusted: false, env });
      const started = Date.now();
      rmSync(copy.root, { recursive: true, force: true });
      await removed(files.recordPath, GONE_WITHIN_MS);
      expect(await gone(server.pid, GONE_WITHIN_MS - (Date.now() - started))).toBe(true);
      expect(languageServers.filter((p) => isAlive(p))).toEqual([]);
      expect(Date.now() - started).toBeLessThan(GONE_WITHIN_MS);
      expect(readFileSync(files.logPath, 'utf8')).toContain('stopping (workspace-gone)');
      expect(existsSync(files.socketPath)).toBe(false);
    } finally {
      await runDialect(['server', 'stop', '--all'], { env });
      await copy.dispose();
    }
  }, TIMEOUT);

  it('a workspace replaced by another folder at its path: the old server stops, the next call gets a new one on the new folder', async () => {
    const copy = await copyFixture('ts-monorepo');
    const env = await childEnv(join(state.path, 'replaced'), { DIALECT_NO_SERVER: '0', DIALECT_SERVER_WORKSPACE_CHECK_MS: CHECK_MS });
    const aside = `${copy.root}-old`;
    const staged = `${copy.root}-new`;
    try {
      await evaluate(copy.root, env);
      const [old] = (await status(env)) as [StatusEntry];
      const files = serverIdentity(runtimeDirPath(env), { workspaceRoot: realpathSync(copy.root), trusted: false, env });
      // The new folder is copied beside it first, then swapped in with two renames, so the path is
      // missing only between two system calls: a check landing in the copy would see it gone.
      await cp(copy.root, staged, { recursive: true });
      renameSync(copy.root, aside);
      renameSync(staged, copy.root);
      await removed(files.recordPath, GONE_WITHIN_MS);
      expect(await gone(old.pid, GONE_WITHIN_MS)).toBe(true);
      expect(readFileSync(files.logPath, 'utf8')).toContain('stopping (workspace-replaced)');
      await evaluate(copy.root, env);
      const [fresh] = (await status(env)) as [StatusEntry];
      expect(fresh.pid).not.toBe(old.pid);
      expect(fresh.workspace).toBe(realpathSync(copy.root));
    } finally {
      await runDialect(['server', 'stop', '--all'], { env });
      rmSync(aside, { recursive: true, force: true });
      rmSync(staged, { recursive: true, force: true });
      await copy.dispose();
    }
  }, TIMEOUT);
});
