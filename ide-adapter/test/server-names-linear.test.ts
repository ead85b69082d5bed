/**
 * Names and declaration lines are read in linear time. A symbol's name comes from its server, and
 * the line declaring it from a workspace file; both can be a megabyte. Each of these shapes took
 * minutes on the main thread (an MCP server or a REPL frozen) when a pattern with neighbouring
 * quantifiers retried the rest of the text from every start: measured at 20–180 KB and growing
 * with the square of the length. Linear, each takes milliseconds; the bound is generous.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { containerNames } from '../functions/qualified.js';
import { REQUIRE_STATEMENT } from '../functions/symbols.js';
import { cppKind, splitCppOutlineName } from '../languages/cpp/names.js';
import { declaresGeneric } from '../languages/go/generics.js';
import { goSymbolName } from '../languages/go/names.js';
import { PYTHON_IMPORTS } from '../languages/python/imports.js';
import { cfgsAbove, MOD_LINE } from '../languages/rust/unbuilt.js';

const MB = 1_000_000;
/** Far above linear work on a megabyte (milliseconds), far below the quadratic work (minutes). */
const BOUND_MS = 5_000;

function timed<T>(run: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = run();
  return { value, ms: performance.now() - started };
}

describe('names and declaration lines in linear time', () => {
  it.each([
    // `impl Trait for Type`, split at ` for `: a long run of blanks (5 min at 1 MB before).
    ['an impl name with a megabyte of blanks', () => containerNames(`impl Sink${' '.repeat(MB)}x`), ['Sink x'.replace(' ', ' '.repeat(MB))]],
    // Nested type arguments removed level by level (about 9 min at 1 MB before).
    ['type arguments nested half a million deep', () => containerNames(`Foo${'<'.repeat(MB / 2)}${'>'.repeat(MB / 2)}`), ['Foo']],
    // A C++ owner's `<…>` cut with /<.*>$/ from every `<` (100 s at 1 MB before).
    ['a C++ owner of a third of a million <>', () => splitCppOutlineName(`${'a<>'.repeat(MB / 3)}b::f`).name, 'f'],
    // `struct [[` never closed, rescanned from every keyword (55 s at 1 MB before).
    ['a C++ line of unclosed attributes', () => cppKind('struct', `${'struct [['.repeat(MB / 9)} Foo`, 'Foo'), 'struct'],
    // `Foo [` never closed, rescanned from every name (64 s at 1 MB before).
    ['a C++ typedef line of unclosed bounds', () => cppKind('struct', `typedef ${'Foo ['.repeat(MB / 5)}`, 'Foo'), 'struct'],
    // `} a,` then a megabyte of blanks: neighbouring \s* shared the run (9 min at 1 MB before).
    ['a C++ closing line with a megabyte of blanks', () => cppKind('struct', `} a,${' '.repeat(MB)}x`, 'Foo'), 'struct'],
    // `func (` and a megabyte of name without `)` (5 min at 1 MB before).
    ['a Go func line without its )', () => goSymbolName('Get', 'function', `func (${'a'.repeat(MB)}`), { name: 'Get' }],
    // A Go name of a megabyte of `[` with no `]` (440 s before).
    ['a Go name of unclosed brackets', () => goSymbolName(`${'['.repeat(MB)}x`, 'function').name, `${'['.repeat(MB)}x`],
    // Workspace lines read on the main thread (minutes each at 1 MB before; the attributes exponential).
    ['a Go method line of blanks (generic receiver)', () => declaresGeneric([`func (a${' '.repeat(MB)}`], 1), false],
    ['a Python from-line of dots', () => PYTHON_IMPORTS.moduleOf(`from ${'.'.repeat(MB)}`, 'x'), undefined],
    ['a Python from-line of one long name', () => PYTHON_IMPORTS.probe?.modules(`from a${'a'.repeat(MB)}`), []],
    ['a Rust line of sixty attributes before no mod', () => MOD_LINE.exec(`${'#[a]'.repeat(60)} x`), null],
    ['a Rust line of a megabyte of attributes', () => MOD_LINE.exec(`${'#[a]'.repeat(MB / 4)} x`), null],
    ['a Rust cfg line never closed', () => cfgsAbove([`${'#[cfg('.repeat(MB / 6)}] mod x;`], 0), []],
    // A require statement, then a megabyte of blanks and a stray character (about an hour before).
    ['a JavaScript require line of trailing blanks', () => REQUIRE_STATEMENT.exec(`const a = require("x")${' '.repeat(MB)}x`), null],
  ] as const)('%s', (_name, run, expected) => {
    const { value, ms } = timed(run as () => unknown);
    expect(value).toEqual(expected);
    expect(ms).toBeLessThan(BOUND_MS);
  }, 60_000);

  it('the one-pass readings give what the patterns gave', () => {
    expect(containerNames('impl<T> Sink for KitchenSink<T>')).toEqual(['KitchenSink', 'Sink']);
    // The arrow's `>` closes a group, as it did.
    expect(containerNames('impl  Display   for\tVec<Box<dyn Fn(A) -> B>>')).toEqual(['Vec>', 'Display']);
    expect(containerNames('Searcher<M>')).toEqual(['Searcher']);
    expect(containerNames('A<B<C>')).toEqual(['A<B']);
    expect(splitCppOutlineName('Box<std::string>::get')).toEqual({ name: 'get', owners: ['Box'] });
    expect(splitCppOutlineName('ns::Outer::f')).toEqual({ name: 'f', owners: ['ns', 'Outer'] });
    expect(goSymbolName('(*List[T]).Push', 'method')).toEqual({ name: 'Push', owner: 'List' });
    expect(goSymbolName('Name', 'function', 'func (c *Command) Name() string {')).toEqual({ name: 'Name', owner: 'Command' });
    expect(goSymbolName('Name', 'function', 'func (Command[T]) Name() string {')).toEqual({ name: 'Name', owner: 'Command' });
    expect(goSymbolName('a[b', 'function')).toEqual({ name: 'a[b' });
    expect(cppKind('struct', 'struct  [[nodiscard]]   Foo {', 'Foo')).toBe('struct');
    expect(cppKind('class', 'union\tFoo {', 'Foo')).toBe('union');
    expect(cppKind('struct', 'typedef int Foo [ 4 ];', 'Foo')).toBe('type alias');
    expect(cppKind('struct', '}   A ,  *Foo ;', 'Foo')).toBe('type alias');
    expect(declaresGeneric(['func (s *Stack[T]) Push(v T) {'], 1)).toBe(true);
    expect(declaresGeneric(['func (s * Stack[T]) Push(v T) {'], 1)).toBe(true);
    expect(declaresGeneric(['func (Stack[T]) Push(v T) {'], 1)).toBe(true);
    expect(declaresGeneric(['func (s *Stack) Push(v int) {'], 1)).toBe(false);
    expect(PYTHON_IMPORTS.moduleOf('from ..pkg.mod import (a, b as x)', 'x')).toBe('..pkg.mod');
    expect(PYTHON_IMPORTS.moduleOf('from . import y', 'y')).toBe('.');
    expect(PYTHON_IMPORTS.probe?.modules('from numpy.linalg import norm')).toEqual(['numpy']);
    expect(PYTHON_IMPORTS.probe?.modules('from numpy import a')).toEqual(['numpy']);
    expect(REQUIRE_STATEMENT.exec('const a = require("x") ;  // c')?.[2]).toBe('a');
    expect(REQUIRE_STATEMENT.exec("const {a, b} = require('x').y . z;")?.[2]).toBe('{a, b}');
    expect(REQUIRE_STATEMENT.exec('const a = require("x")("y");')).toBeNull();
    expect(MOD_LINE.exec('#[cfg(unix)] #[allow(x)] pub(crate) mod sys;')?.[1]).toBe('sys');
    expect(cfgsAbove(['#[cfg(feature = "kv")]', '#[cfg(all(unix, not(test)))] pub mod kv;'], 1)).toEqual(['all(unix, not(test))', 'feature = "kv"']);
  });

  it('on any short text: the same as the patterns they replace', () => {
    // The replaced patterns, kept here as the reference.
    const oldBase = (type: string): string => {
      let t = type.trim();
      while (/<[^<>]*>/.test(t)) t = t.replace(/<[^<>]*>/g, '');
      t = t.replace(/^[&!]+/, '').replace(/'\w+\s+/g, '').replace(/^(?:mut|dyn|const)\s+/, '').trim();
      return t.split('::').pop()?.trim() ?? t;
    };
    const oldContainerNames = (container: string): string[] => {
      const impl = /^impl\b(?:\s*<.*?>)?\s+(.*)$/s.exec(container.trim());
      if (impl === null) return [oldBase(container)];
      const body = impl[1] ?? '';
      const split = /^(.*?)\s+for\s+(.*)$/s.exec(body);
      return (split === null ? [body] : [split[2] ?? '', split[1] ?? '']).map(oldBase).filter((n) => n !== '');
    };
    const oldGoPlain = (raw: string): string => raw.replace(/\[[^\]]*\]/g, '');
    const oldGoDeclared = (line: string): string[] | undefined => {
      const m = /^\s*func\s*\(\s*(?:[A-Za-z_]\w*\s+)?\*?\s*([A-Za-z_]\w*)[^)]*\)\s*([A-Za-z_]\w*)/.exec(line);
      return m === null ? undefined : [m[1] as string, m[2] as string];
    };
    const text = (parts: string[]) => fc.array(fc.constantFrom(...parts), { maxLength: 14 }).map((a) => a.join(''));
    fc.assert(
      fc.property(text(['impl', 'for', ' ', '\t', '<', '>', 'A', 'b', '::', '&', 'dyn ', "'a ", '-']), (name) => {
        expect(containerNames(name)).toEqual(oldContainerNames(name));
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(text(['[', ']', '*', '.', 'T', 'Get']), (raw) => {
        expect(goSymbolName(raw, 'variable').name).toBe(oldGoPlain(raw).split('.').pop());
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(text(['func', ' ', '(', ')', '*', 'c', 'Cmd', '[T]', 'Get', '\t']), (line) => {
        const old = oldGoDeclared(line);
        const method = old?.[1] ?? 'Get';
        expect(goSymbolName(method, 'function', line)).toEqual(old === undefined ? { name: method } : { name: method, owner: old[0] });
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      // Every `<` closed at once: each `::` is at depth 0, where the name is split.
      fc.property(text(['a', '<>', '<B>', '<<a>b>', '>', '::', ' ']), (name) => {
        const parts = name.split('::');
        expect(splitCppOutlineName(name).owners).toEqual(parts.slice(0, -1).map((p) => p.replace(/<.*>$/s, '').trim()).filter((p) => p !== ''));
      }),
      { numRuns: 2000 },
    );
  });
});
