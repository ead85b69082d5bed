/** Shared helpers for tests that run real or fake language servers. */
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findServerBinary, type ResolvedBinary } from '../../lsp/discovery.js';
import type { ServerDefinition } from '../../lsp/servers.js';

/** Repository root. */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** A fixture workspace under `fixtures/`. */
export function fixture(name: string): string {
  return join(repoRoot, 'fixtures', name);
}

/** The fake server script. */
export const fakeServerScript = fileURLToPath(new URL('../fakes/fake-server.js', import.meta.url));

/**
 * The working binary of a server, or `undefined` so the test can skip. Under CI
 * (`CI === 'true'`) a missing server is a failure, never a silent skip.
 */
export async function requireServer(definition: ServerDefinition, env?: Readonly<Record<string, string | undefined>>): Promise<ResolvedBinary | undefined> {
  try {
    return await findServerBinary(definition, env === undefined ? {} : { env: { ...process.env, ...env } });
  } catch (error) {
    if (process.env.CI === 'true') throw error;
    return undefined;
  }
}

/** A copy of a fixture in a temp dir, so servers writing `target/` or caches never touch the repo. */
export async function copyFixture(name: string): Promise<{ root: string; dispose: () => Promise<void> }> {
  const base = await mkdtemp(join(tmpdir(), `dialect-${name}-`));
  const root = join(base, name);
  await cp(fixture(name), root, { recursive: true, filter: (src) => !/[/\\](target|node_modules)$/.test(src) });
  return { root, dispose: () => rm(base, { recursive: true, force: true }) };
}

/** True while a process exists and is not a zombie (zombies of reparented grandchildren may linger in containers). */
export function isAlive(pid: number): boolean {
  const statPath = `/proc/${pid}/stat`;
  if (existsSync('/proc/self/stat')) {
    try {
      const stat = readFileSync(statPath, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      return state !== 'Z' && state !== 'X';
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** 1-based position of the `nth` (0-based) occurrence of `needle` in `text`; throws if absent. */
export function positionOf(text: string, needle: string, nth = 0): { line: number; column: number; offset: number } {
  let offset = -1;
  for (let i = 0; i <= nth; i++) {
    offset = text.indexOf(needle, offset + 1);
    if (offset < 0) throw new Error(`"${needle}" (#${nth}) not found`);
  }
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line, column: Array.from(text.slice(lineStart, offset)).length + 1, offset };
}
