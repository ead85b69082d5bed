/**
 * Globs that come from outside Dialect and are matched on the main thread (`lsp/glob.ts`): the
 * globs a language server registers for file watching (`workspace/didChangeWatchedFiles`), against
 * a fake server that registers what rust-analyzer does for a crate in a hostile folder — matched
 * in linear time, the base folder taken as a folder, never as a pattern — and the detection
 * patterns of a `dialect.json` server. The matcher's meaning is picomatch's, which these globs had
 * before (checked on a table).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import picomatch from 'picomatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LanguageServer } from '../lsp/client.js';
import { compileGlob, MAX_GLOB_CHARS, type GlobBudget } from '../lsp/glob.js';
import { detectServers, type ServerDefinition } from '../lsp/servers.js';
import { pathToUri } from '../lsp/uris.js';
import { fakeServerScript, isAlive } from './support/servers.js';

let dir: string;
const started: LanguageServer[] = [];

/** A generous bound on one stall of the event loop (a loaded 2-core machine pauses for GC, never for seconds). */
const MAX_LOOP_DELAY_MS = 1500;

function fakeWatching(watchers: unknown[]): ServerDefinition {
  return {
    id: 'fake-watch',
    displayName: 'fake-watch',
    languages: [{ languageId: 'fakelang', extensions: ['.fake'] }],
    rootMarkers: [],
    candidates: () => [fakeServerScript],
    args: ['--mode=ok', `--watch=${JSON.stringify(watchers)}`],
    readiness: 'immediate',
    installHint: 'it is a test fake',
  };
}

/** Bounded polling of a condition with no event: the fake server's record, the watcher's first walk (20 ms steps). */
async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function watched(server: LanguageServer): Promise<string[]> {
  return (await server.request<{ watched: string[] }>('fake/stats', {})).watched;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dialect-watch-globs-'));
});

afterAll(async () => {
  await Promise.all(started.map((s) => s.shutdown()));
  for (const s of started) if (s.pid !== undefined) expect(isAlive(s.pid)).toBe(false);
  await rm(dir, { recursive: true, force: true });
});

describe('server watch globs', () => {
  it("takes a RelativePattern's base folder literally and matches in linear time", async () => {
    // rust-analyzer registers `{ baseUri: <crate folder>, pattern: '**/*.rs' }` for every crate
    // (measured, 1.95): a path crate in a folder named `*a*a*a*a*a*a*a*ab` puts that name in the base.
    const crate = join(dir, '*a*a*a*a*a*a*a*ab');
    await mkdir(join(crate, 'src'), { recursive: true });
    // A folder the base would match if it were read as a glob: a backtracking matcher tries every
    // way to split its name among the eight stars before it fails (C(45, 8) ≈ 2·10⁸ steps).
    const decoy = join(dir, 'a'.repeat(45));
    await mkdir(decoy);
    // And one the base matches as a glob: the server did not ask for its files.
    const lookalike = join(dir, 'aaaaaaaaab');
    await mkdir(lookalike);
    const server = await LanguageServer.start(fakeWatching([{ globPattern: { baseUri: pathToUri(crate), pattern: '**/*.rs' } }]), dir, {});
    started.push(server);
    await eventually(() => server.diskStamp() !== undefined);

    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    await writeFile(join(decoy, 'decoy.rs'), 'fn decoy() {}\n');
    await writeFile(join(lookalike, 'lookalike.rs'), 'fn lookalike() {}\n');
    await writeFile(join(crate, 'src', 'lib.rs'), 'pub fn f() {}\n');
    await eventually(async () => (await watched(server)).includes(pathToUri(join(crate, 'src', 'lib.rs'))));
    delay.disable();

    expect(delay.max / 1e6).toBeLessThan(MAX_LOOP_DELAY_MS);
    const sent = await watched(server);
    expect(sent).not.toContain(pathToUri(join(decoy, 'decoy.rs')));
    expect(sent).not.toContain(pathToUri(join(lookalike, 'lookalike.rs')));
  });

  it("detects a dialect.json server's file patterns in linear time", async () => {
    const root = join(dir, 'detect');
    await mkdir(root);
    // A name a backtracking matcher splits every way among the stars (C(45, 8) ≈ 2·10⁸ steps).
    await writeFile(join(root, 'a'.repeat(45)), '');
    await writeFile(join(root, 'main.aab'), '');
    const custom: ServerDefinition = { ...fakeWatching([]), id: 'custom', filePatterns: ['*a*a*a*a*a*a*a*ab', '*.aab'] };
    const started = performance.now();
    const detected = await detectServers(root, [custom]);
    expect(performance.now() - started).toBeLessThan(MAX_LOOP_DELAY_MS);
    expect(detected.map((d) => d.evidence)).toEqual([['main.aab']]);
  });
});

describe('compileGlob', () => {
  const globs = ['/w/**/*.rs', '/w/**/Cargo.{lock,toml}', '**/*.{ts,tsx,js}', '/w/src/*.ts', '/w/**', '**', '*', '*.py', '*/*.py', '/w/a?c/*', '/w/[abc]/x', '/w/[a-c]*.md', '/w/{a,b/{c,d}}/e', '/w/**/x/**', '/w/x/**/y', 'a/**', '/w/\\*/x', '/w/{a,}x', '/w/[/x', '/w/{a/x', '*.{c,cc,cpp,cxx,h,hh,hpp,hxx}', '*/*.{c,cc,cpp,cxx,h,hh,hpp,hxx}', '/w/é*/🙂?.rs', '/w/**/.git/**', '/w/a**b'];
  const paths = ['/w/a.rs', '/w/src/a.rs', '/w/src/deep/x/a.rs', '/w/Cargo.toml', '/w/x/Cargo.lock', '/w/a.ts', '/w/src/a.tsx', 'a.ts', 'src/a.js', '/w/src/a.ts', '/w/src/d/a.ts', '/w', '/w/', '/w/x', '/w/.hidden/a.rs', '/w/.a.rs', 'a.py', '.a.py', 'x/a.py', 'x/.a.py', '/w/abc/q', '/w/a/x', '/w/d/x', '/w/b.md', '/w/a/e', '/w/b/c/e', '/w/b/e', '/w/q/x/r', '/w/x/y', '/w/x/q/y', 'a', 'a/b/c', '/w/*/x', '/w/q/x', '/w/ax', '/w/[/x', '/w/{a/x', 'm.cpp', 'd/m.hpp', '/w/éz/🙂a.rs', '/w/.git/HEAD', '/w/q/.git/HEAD', '/w/ab', '/w/aqqb', '/w/a/b'];

  it.each([true, false])('means what picomatch means (dot: %s)', (dot) => {
    const differences: string[] = [];
    for (const glob of globs) {
      const ours = compileGlob(glob, { dot });
      const theirs = picomatch(glob, { dot });
      for (const path of paths) if (ours(path) !== theirs(path)) differences.push(`${glob} ${path}: ${ours(path)}`);
    }
    expect(differences).toEqual([]);
  });

  it('negates a class with `!` (picomatch does not, after a slash)', () => {
    const matches = compileGlob('/w/[!abc]/x');
    expect(['/w/a/x', '/w/d/x', '/w/[/x', '/w/ab/x'].map((path) => matches(path))).toEqual([false, true, true, false]);
  });

  it('takes time linear in the path times the glob on hostile input', () => {
    const glob = `${'*a'.repeat(500)}b`;
    const started = performance.now();
    expect(compileGlob(glob)('a'.repeat(2000))).toBe(false);
    expect(compileGlob(glob)(`${'a'.repeat(1999)}b`)).toBe(true);
    expect(compileGlob(`${'{'.repeat(2000)}${'['.repeat(2000)}`)('{')).toBe(false);
    // 2,000 characters against 1,500 instructions: milliseconds when linear; a backtracking matcher would never end.
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('matches everything past its size limit or its budget (a watch answers too much, never too little)', () => {
    expect(compileGlob(`${'x'.repeat(MAX_GLOB_CHARS + 1)}`)('/any/path')).toBe(true);
    const matches = compileGlob(`${'*a'.repeat(100)}b`);
    const budget: GlobBudget = { steps: 1000 };
    expect(matches('a'.repeat(100))).toBe(false);
    expect(matches('a'.repeat(100), budget)).toBe(true);
    expect(budget.steps).toBeLessThan(0);
  });
});
