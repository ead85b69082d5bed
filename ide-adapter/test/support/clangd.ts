/** Sessions on C/C++ fixture copies for tests: clangd's private folder lives in the copy's temp folder, never in ~/.cache. */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { clangdServer } from '../../languages/cpp/index.js';
import { IdeSession } from '../../session.js';
import { fixture, requireServer } from './servers.js';
import { fixtureSession, type FixtureSession } from './session.js';

/** How long clangd may take to index a fixture on a loaded machine. */
const READY_TIMEOUT_MS = 120_000;

/** Whether clangd is installed (under CI a missing one throws instead). */
export async function clangdAvailable(): Promise<boolean> {
  return (await requireServer(clangdServer)) !== undefined;
}

/** A fixture copy with its own cache folder (`XDG_CACHE_HOME`), outside the copy. */
export interface ClangdCopy {
  readonly base: string;
  readonly root: string;
  readonly cache: string;
  dispose(): Promise<void>;
}

/** Copies `fixtures/<name>` to `<tmp>/<name>`, with `<tmp>/cache` beside it. */
export async function copyClangdFixture(name: string): Promise<ClangdCopy> {
  const base = await mkdtemp(join(tmpdir(), `dialect-${name}-`));
  const root = join(base, name);
  await cp(fixture(name), root, { recursive: true });
  return { base, root, cache: join(base, 'cache'), dispose: () => rm(base, { recursive: true, force: true }) };
}

/**
 * Writes `compile_commands.json` for `sources` (workspace paths) with the absolute `directory`
 * the format requires: a fixture cannot ship one, since it is copied before use.
 */
export async function writeCompileCommands(root: string, sources: readonly string[], flags: readonly string[]): Promise<void> {
  const entries = sources.map((file) => ({ directory: root, file, arguments: ['c++', ...flags, '-c', file] }));
  await writeFile(join(root, 'compile_commands.json'), JSON.stringify(entries, null, 1));
}

/** A session on a C/C++ fixture copy; `prepare` may change the copy first. */
export async function openClangdSession(name: string, prepare?: (root: string) => Promise<void>, options: { trusted?: boolean } = {}): Promise<FixtureSession & { readonly copy: ClangdCopy }> {
  const copy = await copyClangdFixture(name);
  await prepare?.(copy.root);
  const session = await IdeSession.open({ workspaceRoot: copy.root, env: { XDG_CACHE_HOME: copy.cache }, readyTimeoutMs: READY_TIMEOUT_MS, trusted: options.trusted ?? false });
  await session.waitUntilReady({ timeoutMs: READY_TIMEOUT_MS });
  return { ...fixtureSession(session, copy.root, () => copy.dispose()), copy };
}

/** Every path below `dir` (relative, sorted), for before/after comparisons. */
export async function treeOf(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.map((e) => relative(dir, join(dir, e))).sort();
}
