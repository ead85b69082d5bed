/**
 * Go's row of the conformance table: fixtures/go-app (packages store, shapes, server, ext and
 * cmd/goapp; interfaces satisfied implicitly, pointer and value receivers, `Area` on three
 * receiver types and an interface) with a file holding a deliberate type error.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LanguageConformance } from '../support/conformance-table.js';

/** The file added to the fixture copy, and its type error (a string assigned to an int). */
export const GO_BROKEN_FILE = 'broken/broken.go';
const GO_BROKEN_TEXT = 'package broken\n\n// Answer is not a string.\nvar Answer int = "forty-two"\n';

/** Go, as gopls answers it. */
export const goConformance: LanguageConformance = {
  language: 'Go',
  fixture: 'go-app',
  prepare: async (root) => {
    await mkdir(join(root, 'broken'), { recursive: true });
    await writeFile(join(root, GO_BROKEN_FILE), GO_BROKEN_TEXT);
  },
  cases: {
    definitionByName: { name: 'NewMemStore', expect: { name: 'NewMemStore', kind: 'function', at: { file: 'store/store.go', needle: 'NewMemStore() *MemStore' } } },
    // gopls names the method `Mux.ServeHTTP`, its outline `(*Mux).ServeHTTP`: Go writes `server.Mux.ServeHTTP`.
    definitionByQualifiedName: { name: 'server.Mux.ServeHTTP', expect: { name: 'ServeHTTP', kind: 'method', at: { file: 'server/server.go', needle: 'ServeHTTP(w http' } } },
    // One method name on an interface and three receiver types (value, pointer, value).
    ambiguity: {
      program: 'findDefinition("Area")',
      candidates: [
        { file: 'shapes/shapes.go', needle: 'Area() float64\n' },
        { file: 'shapes/shapes.go', needle: 'Area() float64 {', nth: 0 },
        { file: 'shapes/shapes.go', needle: 'Area() float64 {', nth: 1 },
        { file: 'shapes/shapes.go', needle: 'Area() float64 {', nth: 2 },
      ],
    },
    referencesAtName: {
      of: '"Store.Get"',
      includes: [
        { file: 'server/server.go', needle: 'Get(path)' },
        { file: 'store/store.go', needle: 'Get(key)' },
      ],
    },
    hover: { of: '"MemStore.Get"', signature: 'func (*MemStore).Get(key string) (string, bool)', documentation: 'Get returns the value stored under key.' },
    outline: { file: 'store/store.go', names: ['Store', 'MemStore', 'NewMemStore', 'Get', 'Put', 'Fixed', 'Copy'] },
    // Neither type says it implements Store: Go's implicit satisfaction, by pointer (MemStore) and by value (Fixed).
    implementations: { of: '"Store"', names: ['Fixed', 'MemStore'] },
    callers: {
      of: '"Store.Get"',
      include: [
        { name: 'Copy', kind: 'function', at: { file: 'store/store.go', needle: 'Copy(from' } },
        { name: 'Get', kind: 'method', at: { file: 'server/server.go', needle: 'Get(path string)' } },
      ],
    },
    callees: { of: '"Copy"', include: ['Get', 'Put'] },
    typeDefinition: { of: '"Mux.routes"', expect: { name: 'Store', kind: 'interface', at: { file: 'store/store.go', needle: 'Store interface' } } },
    symbolAt: { at: { file: 'cmd/goapp/main.go', needle: 'Put("/", "hello")' }, name: 'Put', kind: 'method' },
    diagnostics: { at: { file: GO_BROKEN_FILE, needle: '"forty-two"' }, severity: 'error', message: 'cannot use' },
    lines: { of: '"Copy"', contains: 'to.Put(key, v)' },
  },
};
