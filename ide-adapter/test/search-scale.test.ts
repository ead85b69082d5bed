/**
 * The fast search at a CI-affordable scale (a generated monorepo, `bench/generate.ts`): the same
 * matches and files as ripgrep, and every guarantee of the slow path kept — a file reached through
 * a folder swapped for a symlink out after the walk is not read (the descriptor check), a
 * backtracking regex is stopped at its budget, a search is cancellable.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMON_WORD, generateTsMonorepo, RARE_WORD } from '../../bench/generate.js';
import { pinFolder, readConfined, readPinnedEntry, unpinFolder } from '../confine.js';
import { Interpreter } from '../../dialect/index.js';
import type { IdeBackend } from '../backend.js';
import { createIdeRegistry, type IdeHost } from '../functions/index.js';
import type { SearchMatch } from '../model.js';
import { NotesLedger } from '../notes-ledger.js';
import type { Page } from '../paging.js';
import { requiredLiteral } from '../patterns.js';
import { presentOutcome } from '../present.js';
import { searchWorkspace, walkFiles } from '../search.js';
import { newShareClaims } from '../share-claims.js';
import { walkShareSync, type ShareWalkRequest } from '../walk.js';
import { MAX_FILE_BYTES, Workspace } from '../workspace.js';

const PASSWD = '/etc/passwd';
const PASSWD_MARKER = 'root:x';

let base: string;
let root: string;
let workspace: Workspace;
let host: IdeHost;
let interpreter: Interpreter<IdeHost>;
/** What `search` shows at most (its documented default). */
const DEFAULT_CAP = 500;

/** ripgrep, which CI installs (scripts/setup.sh); without it the comparison fails under CI. */
function rg(args: readonly string[]): string | undefined {
  const child = spawnSync('rg', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  if (child.error !== undefined) {
    if (process.env['CI'] === 'true') throw new Error('ripgrep (rg) is missing: run npm run setup');
    return undefined;
  }
  return child.stdout;
}

beforeAll(() => {
  expect(readFileSync(PASSWD, 'utf8')).toContain(PASSWD_MARKER);
  base = mkdtempSync(join(tmpdir(), 'dialect-search-scale-'));
  root = join(base, 'ws');
  generateTsMonorepo(root, { packages: 8, filesPerPackage: 40, rootTsconfig: true });
  spawnSync('git', ['init', '-q', root]);
  // Ignored output ripgrep and Dialect both leave out.
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'dist', 'bundle.ts'), `// ${RARE_WORD} ${COMMON_WORD}\n`);
  workspace = new Workspace(root);
  // The file functions never touch the backend; a backend that fails loudly proves it.
  const backend = new Proxy({}, { get: (_t, p) => (p === 'then' ? undefined : () => { throw new Error(`backend.${String(p)} called`); }) }) as IdeBackend;
  host = { backend, workspace, readyTimeoutMs: 1000, ledger: new NotesLedger() };
  interpreter = new Interpreter(createIdeRegistry());
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('search at scale', () => {
  it('finds what ripgrep finds, line for line', async () => {
    for (const pattern of [RARE_WORD, COMMON_WORD, 'use_\\d+_1\\d\\b']) {
      const ours = await searchWorkspace(workspace, '.', pattern, { maxResults: 100_000 });
      const theirs = rg(['-n', '--no-heading', '--sort', 'path', pattern]);
      if (theirs === undefined) return;
      const lines = (s: Iterable<string>): string[] => [...new Set(s)].sort();
      expect(lines(ours.matches.map((m) => `${m.path}:${m.start.line}`))).toEqual(lines(theirs.trim().split('\n').map((l) => l.split(':').slice(0, 2).join(':'))));
    }
  });

  it('matches every line the plain per-line matcher matches, with or without a literal to skip by', async () => {
    // The reference: every listed file split into lines, the regex run on each (what search did before it skipped anything).
    const { files } = await walkFiles(workspace, '.');
    const reference = (pattern: string): string[] =>
      files.flatMap((path) =>
        readFileSync(join(root, path), 'utf8')
          .split(/\r\n|\r|\n/)
          .flatMap((line, i) => [...line.matchAll(new RegExp(pattern, 'gu'))].map((m) => `${path}:${i + 1}:${m.index + 1}:${m[0]}`)),
      );
    const patterns = ['use_\\d+_1\\d\\b', '(?<![\\w$])Widget(?![\\w$])', 'make_(1|2)_\\d{2}\\b', 'value\\s*[=;]', 'p0|widget', '\\x57idget', 'return value;', 'size\\(\\)', 'Wid?get'];
    for (const pattern of patterns) {
      const ours = await searchWorkspace(workspace, '.', pattern, { maxResults: 100_000 });
      expect(ours.total, pattern).toBeGreaterThan(0);
      expect(ours.matches.map((m) => `${m.path}:${m.start.line}:${m.start.column}:${m.match}`), pattern).toEqual(reference(pattern));
    }
  });

  it('finds the literal every match contains, and none where it cannot tell', () => {
    expect(requiredLiteral('use_\\d+_1\\d\\b')).toBe('use_');
    expect(requiredLiteral('(?<![\\w$])Foo(?![\\w$])')).toBe('Foo');
    expect(requiredLiteral('fn\\s+login\\(')).toBe('login');
    expect(requiredLiteral('a{12}bc')).toBe('bc'); // not "12": a quantifier's digits
    expect(requiredLiteral('\\x41BC')).toBe('BC'); // not "41BC": an escape's digits
    expect(requiredLiteral('\\k<name>ab')).toBe('ab');
    expect(requiredLiteral('abc?d')).toBe('ab');
    expect(requiredLiteral('(ab|cd)ef')).toBe('ef');
    expect(requiredLiteral('ab|cd')).toBeUndefined();
    expect(requiredLiteral('[a-z]+x')).toBeUndefined();
  });

  it('lists the files ripgrep lists', async () => {
    const ours = await walkFiles(workspace, '.', { glob: '*.ts' });
    const theirs = rg(['--files', '-g', '*.ts']);
    if (theirs === undefined) return;
    expect([...ours.files].sort()).toEqual(theirs.trim().split('\n').sort());
  });

  it('a .gitignore changed between walks rules the next walk (its compiled rules are kept by text)', async () => {
    const rules = join(root, 'packages', 'p5', '.gitignore');
    const listed = async (): Promise<string[]> => (await walkFiles(workspace, 'packages/p5', { glob: 'f1*.ts' })).files;
    expect(await listed()).toContain('packages/p5/src/f1.ts');
    writeFileSync(rules, 'src/f1.ts\n');
    try {
      expect(await listed()).not.toContain('packages/p5/src/f1.ts');
      writeFileSync(rules, 'src/f10.ts\n');
      const again = await listed();
      expect(again).toContain('packages/p5/src/f1.ts');
      expect(again).not.toContain('packages/p5/src/f10.ts');
    } finally {
      rmSync(rules);
    }
  });

  it('lists in walk order (the entries of each folder sorted, depth first) though the workers share the files', async () => {
    // The fixture's only ignore rules: node_modules/, dist/, *.log (the generated root .gitignore).
    const depthFirst = (dir: string): string[] =>
      readdirSync(join(root, dir), { withFileTypes: true })
        .map((e) => ({ e, rel: dir === '' ? e.name : `${dir}/${e.name}` }))
        .sort((a, b) => (a.e.name < b.e.name ? -1 : a.e.name > b.e.name ? 1 : 0))
        .flatMap(({ e, rel }) => (e.isDirectory() ? (['.git', 'node_modules', 'dist'].includes(e.name) ? [] : depthFirst(rel)) : e.name.endsWith('.log') ? [] : [rel]));
    const ours = await walkFiles(workspace, '.');
    expect(ours.files.length).toBeGreaterThan(300);
    expect(ours.files).toEqual(depthFirst(''));
  });

  it('shares that claim files as they reach them list each file once, in walk order, however one runs ahead of the other', async () => {
    const { files } = await walkFiles(workspace, '.');
    for (const overtakeAt of [0, 1, 17, Math.floor(files.length / 2)]) {
      const claims = newShareClaims();
      const request = (index: number): ShareWalkRequest => ({ root, start: '', limit: 1_000_000, share: { index, count: 2, claims } });
      const seen: { rel: string; order: number; share: number }[] = [];
      let handed = 0;
      walkShareSync(request(0), (file) => {
        seen.push({ rel: file.rel, order: file.order, share: 0 });
        // The second share runs its whole walk here: it takes every file share 0 has not reached.
        if (handed++ === overtakeAt) walkShareSync(request(1), (other) => seen.push({ rel: other.rel, order: other.order, share: 1 }));
      });
      expect(new Set(seen.map((f) => f.share)), `overtaken at ${overtakeAt}`).toEqual(new Set([0, 1]));
      expect([...seen].sort((a, b) => a.order - b.order).map((f) => f.rel), `overtaken at ${overtakeAt}`).toEqual(files);
    }
  });

  it('shares that claim files stop at the limit of the whole walk, together', () => {
    const claims = newShareClaims();
    const limit = 50;
    const listed: string[] = [];
    const results = [0, 1].map((index) => walkShareSync({ root, start: '', limit, share: { index, count: 2, claims } }, (file) => listed.push(file.rel)));
    expect(listed).toHaveLength(limit);
    expect(results.some((r) => r.truncated)).toBe(true);
  });

  it('an ignore file of comments only ignores nothing; one line of rules among comments still counts', async () => {
    const exclude = join(root, '.git', 'info', 'exclude');
    const before = readFileSync(exclude, 'utf8');
    try {
      writeFileSync(exclude, '# comments\n\n   \n#tsconfig.json\r\n');
      expect((await walkFiles(workspace, '.', { glob: 'tsconfig.json' })).files).toContain('tsconfig.json');
      writeFileSync(exclude, '# comments\n\n   \ntsconfig.json\n# more\n');
      expect((await walkFiles(workspace, '.', { glob: 'tsconfig.json' })).files).not.toContain('tsconfig.json');
    } finally {
      writeFileSync(exclude, before);
    }
  });

  it('caps a long search in walk order, says how many there were, and names the next page', async () => {
    const all = await searchWorkspace(workspace, '.', COMMON_WORD, { maxResults: 100_000 });
    expect(all.total).toBeGreaterThan(DEFAULT_CAP);
    const outcome = await interpreter.evaluate(`search(".", "${COMMON_WORD}")`, { host, deadlineMs: 30_000 });
    if (outcome.kind !== 'value') throw new Error(`search: ${outcome.kind}`);
    const place = (m: SearchMatch): string => `${m.path}:${m.start.line}:${m.start.column}`;
    // The shares' matches merged: the first ones of the whole walk, in its order.
    expect((outcome.value as SearchMatch[]).map(place)).toEqual(all.matches.slice(0, DEFAULT_CAP).map(place));
    expect(outcome.notes).toContain(`showing the first ${DEFAULT_CAP} of ${all.total} matches; narrow the path or the pattern`);
    const text = presentOutcome(outcome);
    expect(text).toContain(`next: page(search(".", "${COMMON_WORD}"), 101)`);
    const page = await interpreter.evaluate(`page(search(".", "${COMMON_WORD}"), 101)`, { host, deadlineMs: 30_000 });
    if (page.kind !== 'value') throw new Error(`page: ${page.kind}`);
    expect((page.value as Page).items.map((m) => place(m as SearchMatch))).toEqual(all.matches.slice(100, 200).map(place));
  });

  it('opens a walked folder only if it is a real folder inside: a folder swapped for a link out is not entered', () => {
    const outside = join(base, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'f0.ts'), `${PASSWD_MARKER} secret\n`);
    const p1 = pinFolder(root, undefined, join(root, 'packages', 'p1'));
    if (p1 === undefined) throw new Error('folders cannot be pinned here (no /proc/self/fd)');
    const src = join(root, 'packages', 'p1', 'src');
    try {
      const pinned = pinFolder(root, p1, 'src');
      expect(pinned).toBeDefined();
      if (pinned !== undefined) {
        expect(readPinnedEntry(pinned, 'f0.ts', MAX_FILE_BYTES)).toMatchObject({ ok: true, real: join(src, 'f0.ts') });
        unpinFolder(pinned);
      }
      // After the walk listed it, the folder becomes a symlink out (a race an attacker could win).
      renameSync(src, join(base, 'moved'));
      symlinkSync(outside, src);
      try {
        expect(pinFolder(root, p1, 'src')).toBeUndefined();
        expect(pinFolder(root, undefined, src)).toBeUndefined();
        expect(readConfined(root, join(src, 'f0.ts'), MAX_FILE_BYTES)).toMatchObject({ ok: false, reason: 'outside' });
      } finally {
        rmSync(src);
        renameSync(join(base, 'moved'), src);
      }
    } finally {
      unpinFolder(p1);
    }
  });

  it('never follows a final symlink on the fast path: a file swapped for a link out is not read', () => {
    const folder = pinFolder(root, undefined, join(root, 'packages', 'p2', 'src'));
    if (folder === undefined) throw new Error('folders cannot be pinned here (no /proc/self/fd)');
    const file = join(root, 'packages', 'p2', 'src', 'f1.ts');
    const text = readFileSync(file, 'utf8');
    try {
      const before = readPinnedEntry(folder, 'f1.ts', MAX_FILE_BYTES);
      expect(before.ok && before.bytes.toString('utf8')).toBe(text);
      // After the walk listed it as a regular file, it becomes a symlink out.
      rmSync(file);
      symlinkSync(PASSWD, file);
      try {
        expect(readPinnedEntry(folder, 'f1.ts', MAX_FILE_BYTES)).toMatchObject({ ok: false });
      } finally {
        rmSync(file);
        writeFileSync(file, text);
      }
    } finally {
      unpinFolder(folder);
    }
  });

  it('search does not read a symlink out and says it left it out', async () => {
    const link = join(root, 'packages', 'p3', 'src', 'leak.ts');
    symlinkSync(PASSWD, link);
    try {
      const result = await searchWorkspace(workspace, '.', PASSWD_MARKER);
      expect(result.matches).toEqual([]);
      expect(result.walk.linksOutside).toBe(1);
    } finally {
      rmSync(link);
    }
  });

  it('stops a backtracking regex at its budget on the fast path', async () => {
    writeFileSync(join(root, 'packages', 'p4', 'src', 'hostile.ts'), `// ${'a'.repeat(40)}!\n`);
    const started = performance.now();
    await expect(searchWorkspace(workspace, '.', '(a+)+$', { timeoutMs: 500 })).rejects.toMatchObject({ code: 'regex-timeout' });
    expect(performance.now() - started).toBeLessThan(10_000);
    rmSync(join(root, 'packages', 'p4', 'src', 'hostile.ts'));
  });

  it('a search stopped at its budget leaves no descriptor open (Node closes what a terminated worker opened: the folders its walk held)', async () => {
    const hostile = join(root, 'packages', 'p4', 'src', 'hostile.ts');
    // What this process holds open inside the workspace (its other descriptors belong to the test runner and the workers).
    const openDescriptors = (): string[] =>
      readdirSync('/proc/self/fd').flatMap((fd) => {
        try {
          const target = readlinkSync(`/proc/self/fd/${fd}`);
          return target.startsWith(root) ? [target] : [];
        } catch {
          return [];
        }
      });
    writeFileSync(hostile, `// ${'a'.repeat(40)}!\n`);
    try {
      for (let i = 0; i < 3; i++) await expect(searchWorkspace(workspace, '.', '(a+)+$', { timeoutMs: 300 })).rejects.toMatchObject({ code: 'regex-timeout' });
    } finally {
      rmSync(hostile);
    }
    // The next search waits for the stopped workers' slots: by then what they held is closed.
    expect((await searchWorkspace(workspace, '.', RARE_WORD)).total).toBe(1);
    expect(openDescriptors()).toEqual([]);
  });

  it('is cancellable', async () => {
    writeFileSync(join(root, 'packages', 'p4', 'src', 'hostile.ts'), `// ${'a'.repeat(40)}!\n`);
    const controller = new AbortController();
    const search = searchWorkspace(workspace, '.', '(a+)+$', { signal: controller.signal, timeoutMs: 60_000 });
    setTimeout(() => controller.abort(), 200);
    const started = performance.now();
    await expect(search).rejects.toMatchObject({ code: 'cancelled' });
    expect(performance.now() - started).toBeLessThan(10_000);
    rmSync(join(root, 'packages', 'p4', 'src', 'hostile.ts'));
  });
});
