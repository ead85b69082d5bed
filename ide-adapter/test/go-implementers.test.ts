/**
 * Go implementations matched in the text by method sets (`languages/go/implementers.ts`), pure
 * logic over in-memory files: fsnotify's whole `backend` interface (a variadic parameter, an
 * unexported method only its own package can implement), and a generic interface whose type
 * parameters stand for one type each, the same wherever they are written.
 */
import { describe, expect, it } from 'vitest';
import { goTextImplementations } from '../languages/go/implementers.js';
import type { Location, Position } from '../model.js';

const FILES: Record<string, string> = {
  'watch/fsnotify.go': [
    'package watch',
    '',
    'type backend interface {',
    '\tAdd(string) error',
    '\tAddWith(string, ...addOpt) error',
    '\tRemove(string) error',
    '\tWatchList() []string',
    '\tClose() error',
    '\txSupports(Op) bool // unexported: this package only',
    '}',
    '',
    'type Cache[K comparable, V any] interface {',
    '\tGet(K) (V, bool)',
    '\tPut(key K, value V)',
    '}',
  ].join('\n'),
  'watch/backend_kqueue.go': [
    '//go:build darwin',
    'package watch',
    '',
    'type kqueue struct{}',
    '',
    'func (w *kqueue) Add(name string) error { return nil }',
    'func (w *kqueue) AddWith(name string, opts ...addOpt) error { return nil }',
    'func (w *kqueue) Remove(name string) error { return nil }',
    'func (w *kqueue) WatchList() []string { return nil }',
    'func (w *kqueue) Close() error { return nil }',
    'func (w *kqueue) xSupports(op Op) bool { return true }',
  ].join('\n'),
  'watch/backend_other.go': [
    '//go:build plan9',
    'package watch',
    '',
    '// A slice is not a variadic parameter.',
    'type sliced struct{}',
    '',
    'func (s sliced) Add(name string) error { return nil }',
    'func (s sliced) AddWith(name string, opts []addOpt) error { return nil }',
    'func (s sliced) Remove(name string) error { return nil }',
    'func (s sliced) WatchList() []string { return nil }',
    'func (s sliced) Close() error { return nil }',
    'func (s sliced) xSupports(op Op) bool { return true }',
  ].join('\n'),
  'other/other_windows.go': [
    'package other',
    '',
    '// Every method, but xSupports is unexported in another package.',
    'type far struct{}',
    '',
    'func (f *far) Add(name string) error { return nil }',
    'func (f *far) AddWith(name string, opts ...addOpt) error { return nil }',
    'func (f *far) Remove(name string) error { return nil }',
    'func (f *far) WatchList() []string { return nil }',
    'func (f *far) Close() error { return nil }',
    'func (f *far) xSupports(op Op) bool { return true }',
  ].join('\n'),
  'names/names.go': [
    'package names',
    '',
    'type (',
    '\tIntNames struct{}',
    '\tBadNames struct{}',
    ')',
    '',
    'func (n IntNames) Get(k int) (string, bool) { return "", false }',
    'func (n *IntNames) Put(key int, value string) {}',
    '',
    '// K is int in Get and string in Put: no one Cache[K, V].',
    'func (n BadNames) Get(k int) (string, bool) { return "", false }',
    'func (n BadNames) Put(key string, value string) {}',
  ].join('\n'),
};

const UNBUILT = new Map([
  ['watch/backend_kqueue.go', 'darwin'],
  ['watch/backend_other.go', 'plan9'],
  ['other/other_windows.go', 'windows'],
]);

/** The sources over the files above: lines, a search as the file worker runs it (line by line), the unbuilt list. */
const sources = {
  lines: async (path: string): Promise<readonly string[]> => (FILES[path] ?? '').split('\n'),
  search: async (pattern: string, maxResults: number) => {
    const regex = new RegExp(pattern, 'u');
    const matches: Location[] = [];
    for (const [path, text] of Object.entries(FILES)) {
      text.split('\n').forEach((content, i) => {
        const m = regex.exec(content);
        if (m !== null) matches.push({ path, start: { line: i + 1, column: m.index + 1 }, end: { line: i + 1, column: m.index + 1 + m[0].length }, content });
      });
    }
    return { matches: matches.slice(0, maxResults), cut: matches.length > maxResults };
  },
  unbuilt: async () => UNBUILT,
};

/** The position of `needle` in a file (1-based, code points). */
function at(path: string, needle: string): Position {
  const lines = (FILES[path] ?? '').split('\n');
  const line = lines.findIndex((l) => l.includes(needle));
  return { line: line + 1, column: (lines[line] ?? '').indexOf(needle) + 1 };
}

const where = (found: readonly Location[]): string[] => found.map((l) => `${l.path}:${l.start.line}:${l.start.column}`);

describe('Go implementations by method sets in the text', () => {
  it("fsnotify's backend: the unbuilt type with every method and signature, not a slice for a variadic nor another package's type", async () => {
    const { locations, note } = await goTextImplementations({ path: 'watch/fsnotify.go', at: at('watch/fsnotify.go', 'backend'), found: [] }, sources);
    const kqueue = at('watch/backend_kqueue.go', 'kqueue struct');
    expect(where(locations)).toEqual([`watch/backend_kqueue.go:${kqueue.line}:${kqueue.column}`]);
    expect(note).toMatch(/^reads no files this machine's build leaves out: implementations there are matched by method names and signatures in the text/);
    // Asked at a method: each implementing type's method of that name.
    const close = await goTextImplementations({ path: 'watch/fsnotify.go', at: at('watch/fsnotify.go', 'Close'), found: [] }, sources);
    const method = at('watch/backend_kqueue.go', 'Close(');
    expect(where(close.locations)).toEqual([`watch/backend_kqueue.go:${method.line}:${method.column}`]);
  });

  it('a generic interface: its type parameters bind one type each, across its methods', async () => {
    const { locations } = await goTextImplementations({ path: 'watch/fsnotify.go', at: at('watch/fsnotify.go', 'Cache'), found: [] }, sources);
    const ints = at('names/names.go', 'IntNames');
    expect(where(locations)).toEqual([`names/names.go:${ints.line}:${ints.column}`]);
  });

  it("what the server found is not repeated, and a plain interface's built types are the server's", async () => {
    const kqueue = at('watch/backend_kqueue.go', 'kqueue struct');
    const found: Location[] = [{ path: 'watch/backend_kqueue.go', start: kqueue, end: { line: kqueue.line, column: kqueue.column + 6 }, content: 'type kqueue struct{}' }];
    const { locations } = await goTextImplementations({ path: 'watch/fsnotify.go', at: at('watch/fsnotify.go', 'backend'), found }, sources);
    expect(locations).toEqual([]);
  });
});
