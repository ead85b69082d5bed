/**
 * A go.mod that asks for a newer go than the one installed: go 1.19 loads it without a word, and
 * every use of a newer standard-library API (`r.SetPathValue`, go 1.22) shows as a compiler error
 * in diagnostics and resolves nowhere — true of the installed go, misleading about the code. One
 * note says so, with both versions and the fix. The real go on PATH; go.mod asks one minor more.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goplsServer } from '../languages/go/index.js';
import { installedGoVersion } from '../languages/go/toolchain.js';
import { goOutside } from '../languages/go/trust.js';
import { requireServer } from './support/servers.js';
import { openFixtureSession, type FixtureSession } from './support/session.js';
import { renderOutcome } from '../../dialect/index.js';
import type { SymbolDefinition } from '../model.js';

const available = (await requireServer(goplsServer)) !== undefined && goOutside('/nonexistent', process.env) !== undefined;

describe.runIf(available)('a go.mod newer than the installed go (the real go on PATH)', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'dialect-gonewer-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('is said once, naming both versions and the fix; a go.mod the installed go satisfies says nothing', async () => {
    const installed = installedGoVersion(root, process.env);
    // The GOROOT of the go on PATH says its release (`go1.19.8`) in its VERSION file.
    const release = (await readFile(join(goOutside(root, process.env) ?? '', '..', '..', 'VERSION'), 'utf8')).split('\n')[0]?.trim() ?? '';
    expect(installed).toBe(release.slice('go'.length));
    const minor = Number(/^go1\.(\d+)/.exec(release)?.[1]);
    await writeFile(join(root, 'go.mod'), `module example.com/newer\n\ngo 1.${minor + 1}\n`);
    const prepared = await goplsServer.prepare?.(root, process.env);
    const notes = (prepared?.warnings ?? []).filter((w) => w.key === 'go-version-too-new');
    expect(notes).toHaveLength(1);
    expect(notes[0]?.text).toContain(`go.mod asks for go 1.${minor + 1}`);
    expect(notes[0]?.text).toContain(`the installed go is ${installed ?? '?'}`);
    expect(notes[0]?.text).toMatch(/Fix: install go 1\.\d+ or newer/);
    await writeFile(join(root, 'go.mod'), `module example.com/newer\n\ngo 1.${minor}\n`);
    expect(((await goplsServer.prepare?.(root, process.env))?.warnings ?? []).filter((w) => w.key === 'go-version-too-new')).toEqual([]);
  });
});

/**
 * Files whose `//go:build` asks for a newer release than the installed go are left out by it, so
 * gopls knows none of their names (samber/lo: its whole `it` package, `//go:build go1.23`, under
 * go 1.19). One note counts them and says which go brings them in; files a constraint leaves out
 * for another reason (another OS, an experiment) are how the code builds here, and not counted.
 */
describe.runIf(available)('Go files only a newer go builds (real go and gopls)', () => {
  const minor = Number(/^1\.(\d+)/.exec(installedGoVersion('/nonexistent', process.env) ?? '')?.[1]);
  const newer = `go1.${minor + 1}`;
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('go-app', async (root) => {
      await mkdir(join(root, 'later'));
      await writeFile(join(root, 'later', 'seq.go'), `//go:build ${newer}\n\npackage later\n\n// EachLater is only built by a newer go.\nfunc EachLater() {}\n`);
      await writeFile(join(root, 'later', 'simd.go'), `//go:build ${newer} && goexperiment.simd\n\npackage later\n\nfunc Vector() {}\n`);
      await writeFile(join(root, 'later', 'old.go'), `//go:build !${newer}\n\npackage later\n\n// EachNow is built by this go.\nfunc EachNow() {}\n`);
      await writeFile(join(root, 'later', 'other_os.go'), `//go:build plan9 || (windows && ${newer})\n\npackage later\n\nfunc Elsewhere() {}\n`);
      // One backend per platform (fsnotify): a constraint, a file name, and the file built here.
      await mkdir(join(root, 'watch'));
      await writeFile(join(root, 'watch', 'watch.go'), 'package watch\n\ntype backend interface{ Close() error }\n\n// Open starts the backend of this platform.\nfunc Open() (backend, error) { return newBackend() }\n');
      await writeFile(join(root, 'watch', 'backend_inotify.go'), '//go:build linux\n\npackage watch\n\ntype inotify struct{}\n\nfunc newBackend() (backend, error) { return &inotify{}, nil }\n\nfunc (w *inotify) Close() error { return nil }\n\nfunc (w *inotify) readEvents() {}\n');
      await writeFile(join(root, 'watch', 'backend_kqueue.go'), '//go:build freebsd || darwin\n\npackage watch\n\ntype kqueue struct{}\n\nfunc newBackend() (backend, error) { return &kqueue{}, nil }\n\nfunc (w *kqueue) Close() error { return nil }\n\nfunc (w *kqueue) readEvents() {}\n');
      await writeFile(join(root, 'watch', 'backend_windows.go'), 'package watch\n\ntype readDirChanges struct{}\n\nfunc newBackend() (backend, error) { return &readDirChanges{}, nil }\n\nfunc (w *readDirChanges) Close() error { return nil }\n');
      // A type whose method has the name but not the signature implements nothing.
      await writeFile(join(root, 'watch', 'debug_windows.go'), 'package watch\n\ntype decoy struct{}\n\nfunc (d decoy) Close() {}\n');
    });
  }, 180_000);
  afterAll(async () => {
    await f?.dispose();
  });

  it('are counted in one note naming a file and the go that builds them; the rest are not', async () => {
    const outcome = await f.outcome('findDefinitions("EachNow")');
    const notes = outcome.notes.filter((n) => n.includes('go:build'));
    expect(notes).toEqual([`Go: 1 file (later/seq.go) needs go > ${installedGoVersion(f.root, process.env) ?? "?"}, which leaves out its names (search(".", "^//go:build.*go1") lists them). Fix: install go 1.${minor + 1} or newer`]);
    // The note's program lists the file.
    expect(JSON.stringify(await f.value('search(".", "^//go:build.*go1")'))).toContain('later/seq.go');
    // What the note explains: gopls has no EachLater; the lookup says where it is declared.
    const later = await f.outcome('findDefinitions("EachLater")');
    expect(later.kind === 'value' ? later.value : later).toEqual([]);
    expect(later.notes.filter((n) => n.includes('later/seq.go'))).toEqual([`EachLater is also declared in a file this machine's build leaves out, which no server reads: later/seq.go:6 (${newer})`]);
  });

  it('a name declared in files for another system says where (fsnotify: one newBackend per platform)', async () => {
    const unbuiltNote = (o: Awaited<ReturnType<FixtureSession['outcome']>>): string[] => o.notes.filter((n) => n.includes("this machine's build leaves out"));
    const here = await f.outcome('findDefinitions("newBackend")');
    expect(here.kind === 'value' ? (here.value as { definedAt: { path: string } }[]).map((d) => d.definedAt.path) : here).toEqual(['watch/backend_inotify.go']);
    expect(unbuiltNote(here)).toEqual([
      "newBackend is also declared in 2 files this machine's build leaves out, which no server reads: watch/backend_kqueue.go:7 (freebsd || darwin), watch/backend_windows.go:5 (windows)",
    ]);
    // A method's receiver is its qualifier: kqueue's readEvents is named, inotify's is found.
    const kqueue = await f.outcome('findDefinitions("kqueue.readEvents")');
    expect(unbuiltNote(kqueue)).toEqual(["readEvents is also declared in a file this machine's build leaves out, which no server reads: watch/backend_kqueue.go:11 (freebsd || darwin)"]);
    expect(unbuiltNote(await f.outcome('findDefinitions("inotify.readEvents")'))).toEqual([]);
    // A name only files built here declare gets no note.
    expect(unbuiltNote(await f.outcome('findDefinitions("Open")'))).toEqual([]);
  });

  it('implementations of an interface list the types of files for another system too, and say how they were found (fsnotify: backend)', async () => {
    const o = await f.outcome('implementations("backend")');
    if (o.kind !== 'value') throw new Error(renderOutcome(o));
    const found = (o.value as SymbolDefinition[]).map((s) => [s.name, s.definedAt.path, s.definedAt.start.line]);
    expect(found).toEqual([
      ['inotify', 'watch/backend_inotify.go', (await f.at('watch/backend_inotify.go', 'inotify struct')).line],
      ['kqueue', 'watch/backend_kqueue.go', (await f.at('watch/backend_kqueue.go', 'kqueue struct')).line],
      ['readDirChanges', 'watch/backend_windows.go', (await f.at('watch/backend_windows.go', 'readDirChanges struct')).line],
    ]);
    expect(o.notes.filter((n) => n.includes('build leaves out'))).toEqual([expect.stringMatching(/^gopls: reads no files this machine's build leaves out: implementations there are matched by method names and signatures in the text/)]);
    // The interface's method leads to each platform's method.
    const close = (await f.value('implementations("backend.Close")')) as SymbolDefinition[];
    expect(close.map((s) => [s.name, s.definedAt.path])).toEqual([
      ['Close', 'watch/backend_inotify.go'],
      ['Close', 'watch/backend_kqueue.go'],
      ['Close', 'watch/backend_windows.go'],
    ]);
  });
});

describe('which release a //go:build line waits for (pure logic)', () => {
  it.each([
    [' go1.23', 23],
    [' go1.23 && (linux || darwin)', 23],
    [' !go1.23', undefined],
    [' go1.18', undefined],
    [' go1.26 && goexperiment.simd && amd64', undefined],
    [' plan9 || (windows && go1.23)', undefined],
    [' go1.21 || go1.23', 21],
    [' go1.23 &&', undefined],
    [' (go1.23', undefined],
  ] as const)('%j under go 1.19 → %s', async (expression, needed) => {
    const { releaseNeeded } = await import('../languages/go/release-tags.js');
    expect(releaseNeeded(expression, 19)).toBe(needed);
  });
});

describe('which Go files the go command leaves out on a Linux amd64 machine (pure logic)', () => {
  it.runIf(process.platform === 'linux' && process.arch === 'x64').each([
    ['debug_windows.go', 'windows'],
    ['zsys_linux_arm64.go', 'linux_arm64'],
    ['backend_windows_test.go', 'windows'],
    ['debug_linux.go', undefined],
    ['unix_amd64.go', undefined],
    ['helpers_test.go', undefined],
    ['windows.go', undefined],
  ] as const)('%s → %s', async (path, why) => {
    const { nameConstraint } = await import('../languages/go/unbuilt.js');
    expect(nameConstraint(path)).toBe(why);
  });

  it.runIf(process.platform === 'linux').each([
    ['windows', true],
    ['linux && !appengine', false],
    ['appengine || (!darwin && !linux)', true],
    ['ignore', true],
    ['unix', false],
    ['go1.18', false],
    ['go1.99', true],
    ['linux &&', false],
  ] as const)('//go:build %s under go 1.19 → left out: %s', async (expression, out) => {
    const { constraintExcludes } = await import('../languages/go/unbuilt.js');
    expect(constraintExcludes(expression, 19)).toBe(out);
  });
});
