/** Go's pure language knowledge: gopls's names split into name and receiver, go.mod requirements, the untrusted PATH. */
import { describe, expect, it } from 'vitest';
import { missingModulesWarning, parseGoMod } from '../languages/go/modules.js';
import { MAX_NOTE_LINE } from '../notes-ledger.js';
import { goEmbeddedField, goKind, goSymbolName } from '../languages/go/names.js';
import { untrustedPath } from '../languages/go/trust.js';

describe('Go names', () => {
  it('splits the receiver gopls folds into a method name', () => {
    expect(goSymbolName('(*Mux).Get', 'method')).toEqual({ name: 'Get', owner: 'Mux' });
    expect(goSymbolName('(Fixed).Get', 'method')).toEqual({ name: 'Get', owner: 'Fixed' });
    expect(goSymbolName('(*List[T]).Push', 'method')).toEqual({ name: 'Push', owner: 'List' });
    expect(goSymbolName('Mux.Get', 'method')).toEqual({ name: 'Get', owner: 'Mux' });
    expect(goSymbolName('MemStore.values', 'field')).toEqual({ name: 'values', owner: 'MemStore' });
    // A function's qualifier is its package, not an owner.
    expect(goSymbolName('store.Copy', 'function')).toEqual({ name: 'Copy' });
    expect(goSymbolName('Copy', 'function')).toEqual({ name: 'Copy' });
  });

  it('tells an embedded field (its type alone on its line) from a named one, in time linear in the line', () => {
    expect(goEmbeddedField('field', '\tPolygon', 'Polygon')).toBe(true);
    expect(goEmbeddedField('field', '\t*base.Root // the root', 'Root')).toBe(true);
    expect(goEmbeddedField('field', '\tNamer `json:"namer"`', 'Namer')).toBe(true);
    expect(goEmbeddedField('field', '\t*List[T]', 'List')).toBe(true);
    expect(goEmbeddedField('field', '\tPolygon Polygon', 'Polygon')).toBe(false);
    expect(goEmbeddedField('field', '\tSides int', 'Sides')).toBe(false);
    expect(goEmbeddedField('method', '\tName() string', 'Name')).toBe(false);
    // A long line of spaces that is no embedded field: no backtracking blow-up.
    const started = performance.now();
    expect(goEmbeddedField('field', `\t*${' '.repeat(200_000)}Root x`, 'Root')).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('names kinds in Go words from the declaration', () => {
    expect(goKind('function', 'func (m *Mux) Get(path string) string {', 'Get')).toBe('method');
    expect(goKind('function', 'func Copy(from, to Store) bool {', 'Copy')).toBe('function');
    expect(goKind('function', '\tGet(key string) (string, bool)', 'Get')).toBe('method');
    // A caller that is a function literal (gopls names it `func()`) is no method.
    expect(goKind('function', '\tt.Run("case", func(t *testing.T) {', 'func()')).toBe('function literal');
    expect(goKind('number', 'type Celsius float64', 'Celsius')).toBe('type');
    expect(goKind('class', 'type Handler = http.Handler', 'Handler')).toBe('type alias');
    expect(goKind('struct', 'type Mux struct {', 'Mux')).toBe('struct');
    expect(goKind('function', 'type PositionalArgs func(cmd *Command, args []string) error', 'PositionalArgs')).toBe('type');
  });
});

describe('go.mod requirements', () => {
  it('reads single and block requires and the replaced modules', () => {
    const { requirements, replaced } = parseGoMod(
      'module x\n\nrequire a.com/one v1.0.0\n\nrequire (\n\tb.com/Two v2.1.0 // indirect\n\t"c.com/three" v0.3.0\n)\n\nreplace a.com/one => ../one\nreplace (\n\tc.com/three v0.3.0 => d.com/three v0.4.0\n)\n',
    );
    expect(requirements.map((r) => [r.path, r.version, r.line])).toEqual([
      ['a.com/one', 'v1.0.0', 2],
      ['b.com/Two', 'v2.1.0', 5],
      ['c.com/three', 'v0.3.0', 6],
    ]);
    expect([...replaced].sort()).toEqual(['a.com/one', 'c.com/three']);
  });
});

describe('the untrusted PATH', () => {
  it('keeps only absolute folders outside the workspace', () => {
    const path = untrustedPath('/ws', { PATH: '/ws/bin:.:bin:/usr/local/bin:/ws:/usr/bin' });
    const dirs = path.split(':');
    expect(dirs.filter((d) => d.startsWith('/ws') || !d.startsWith('/'))).toEqual([]);
    expect(dirs).toEqual(expect.arrayContaining(['/usr/local/bin', '/usr/bin']));
  });
});

describe('Go method owners from the declaration', () => {
  it('a bare method name (a call hierarchy item) takes its receiver from its line', () => {
    expect(goSymbolName('Execute', 'function', 'func (c *Command) Execute() error {')).toEqual({ name: 'Execute', owner: 'Command' });
    expect(goSymbolName('Area', 'function', 'func (Rect) Area() float64 {')).toEqual({ name: 'Area', owner: 'Rect' });
    expect(goSymbolName('Push', 'function', 'func (l *List[T]) Push(v T) {')).toEqual({ name: 'Push', owner: 'List' });
    expect(goSymbolName('Copy', 'function', 'func Copy(from, to Store) bool {')).toEqual({ name: 'Copy' });
  });
});

describe('the missing-modules warning', () => {
  it('names as many modules as fit one note line, and keeps the fix', () => {
    const req = (path: string) => ({ path, version: 'v1.0.0', line: 0 });
    expect(missingModulesWarning([req('github.com/google/uuid')])).toBe('Go: imports of github.com/google/uuid are unresolved (not in the module cache). Fix: go mod download (online)');
    const many = ['github.com/cpuguy83/go-md2man/v2', 'github.com/inconshreveable/mousetrap', 'github.com/spf13/pflag', 'go.yaml.in/yaml/v3'].map(req);
    const text = missingModulesWarning(many);
    expect(text.length).toBeLessThanOrEqual(MAX_NOTE_LINE);
    expect(text).toMatch(/^Go: imports of github\.com\/cpuguy83\/go-md2man\/v2(, .*)? and \d more are unresolved .* Fix: go mod download \(online\)$/);
  });
});
