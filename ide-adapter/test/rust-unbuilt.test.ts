/**
 * A Rust crate whose modules are behind a `#[cfg]` that is off (fixtures/rust-features: a `kv`
 * module behind a feature not on by default, rust-lang/log's shape, and a module for Windows),
 * against real rust-analyzer. It analyses none of their items: a name declared only there is not
 * found, and the lookup says where it is declared and under which cfg instead of reading as absent.
 * A macro is also named as it is invoked (`log!`). Positions come from the fixture text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rustAnalyzerServer } from '../languages/rust/index.js';
import { defaultFeatures, evaluateCfg } from '../languages/rust/unbuilt.js';
import { RUST_INACTIVE_CODE } from '../languages/rust/inactive-code.js';
import { parseToml } from '../languages/rust/cargo-manifest.js';
import type { SymbolDefinition } from '../model.js';
import { copyFixture, fixture, requireServer } from './support/servers.js';
import { openFixtureSession, type FixtureSession } from './support/session.js';

const available = (await requireServer(rustAnalyzerServer)) !== undefined;

describe('which cfgs are off for a module', () => {
  it('features on by default (transitively), the host system, and what cannot be told', () => {
    const on = defaultFeatures(parseToml('[features]\ndefault = ["std", "dep:serde", "serde/derive"]\nstd = ["alloc"]\nalloc = []\nkv = []\n'));
    expect([...on].sort()).toEqual(['alloc', 'default', 'std']);
    expect(evaluateCfg('feature = "kv"', on)).toBe(false);
    expect(evaluateCfg('feature = "alloc"', on)).toBe(true);
    expect(evaluateCfg('all(feature = "std", not(feature = "kv"))', on)).toBe(true);
    expect(evaluateCfg('any(feature = "kv", my_custom_cfg)', on)).toBeUndefined();
    expect(evaluateCfg('all(feature = "kv", my_custom_cfg)', on)).toBe(false);
    expect(evaluateCfg(process.platform === 'win32' ? 'unix' : 'windows', on)).toBe(false);
    expect(evaluateCfg('feature = ', on)).toBeUndefined();
  });

  it("the files whose mentions a cfg that may be off covers: to the item's closing brace or `;`, never past it", async () => {
    const text = [
      '#[cfg(test)]', // on: never a reason
      'mod tests { fn a() { greet(); } }',
      '#[cfg(feature = "kv")]',
      'fn kv() {',
      '    let s = "}";', // a brace in a string closes nothing
      '    greet();',
      '}',
      'fn after() { greet(); }',
      '#[cfg(feature = "kv")] use crate::greet;',
      'fn last() { greet(); }',
    ].join('\n');
    const line = (needle: string, from = 0): number => text.split('\n').findIndex((l, i) => i >= from && l.includes(needle)) + 1;
    const ask = (lines: number[]) => RUST_INACTIVE_CODE.candidates(fixture('rust-features'), [{ path: 'src/lib.rs', text, lines }]);
    expect(await ask([line('greet();', line('fn kv'))])).toEqual(['src/lib.rs']);
    expect(await ask([line('use crate::greet')])).toEqual(['src/lib.rs']);
    expect(await ask([line('mod tests'), line('fn after'), line('fn last')])).toEqual([]);
    // The package's default features are on: a cfg of one of them covers nothing.
    expect(await RUST_INACTIVE_CODE.candidates(fixture('rust-features'), [{ path: 'src/lib.rs', text: '#[cfg(feature = "std")]\nfn s() { greet(); }', lines: [2] }])).toEqual([]);
  });

  it('the files a listing leaves out: the module file and its folder, each with its cfg, and a package in a Cargo workspace of its own', async () => {
    const copy = await copyFixture('rust-features');
    try {
      const listed = await rustAnalyzerServer.unbuilt?.list(copy.root, process.env);
      const entries = [...(listed ?? new Map<string, string>()).entries()].filter(([path]) => !path.endsWith('/mod.rs') || path === 'src/kv/mod.rs').sort();
      expect(entries).toEqual([
        ['fuzz/fuzz_targets/fuzz_greet.rs', 'not in the root Cargo workspace'],
        ...(process.platform === 'win32' ? [] : [['src/console.rs', 'cfg(windows)']]),
        ['src/kv.rs', 'cfg(feature = "kv")'],
        ['src/kv/mod.rs', 'cfg(feature = "kv")'],
        ['src/kv/source.rs', 'cfg(feature = "kv")'],
      ]);
    } finally {
      await copy.dispose();
    }
  });
});

describe.skipIf(!available)('names in modules a cfg leaves out, on rust-analyzer (fixtures/rust-features)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('rust-features');
  }, 180_000);
  afterAll(async () => {
    await f?.dispose();
  });

  const unbuiltNotes = (notes: readonly string[]): string[] => notes.filter((n) => n.includes('build leaves out'));

  it('a trait only a feature that is off declares is not found, and the answer says where it is and why', async () => {
    const line = (await f.at('src/kv/source.rs', 'pub trait Source')).line;
    for (const program of ['findDefinitions("Source")', 'findDefinitions("kv::Source")']) {
      const o = await f.outcome(program);
      expect(o.kind === 'value' ? o.value : o, program).toEqual([]);
      expect(unbuiltNotes(o.notes), program).toEqual([`Source is also declared in a file this machine's build leaves out, which no server reads: src/kv/source.rs:${line} (cfg(feature = "kv"))`]);
    }
  });

  it('a package with a Cargo workspace of its own below the root (cargo-fuzz\'s fuzz/, nom\'s) is never loaded: where its names are declared is said', async () => {
    const line = (await f.at('fuzz/fuzz_targets/fuzz_greet.rs', 'fn fuzz_greeting')).line;
    const o = await f.outcome('findDefinitions("fuzz_greeting")');
    expect(o.kind === 'value' ? o.value : o).toEqual([]);
    expect(unbuiltNotes(o.notes)).toEqual([`fuzz_greeting is also declared in a file this machine's build leaves out, which no server reads: fuzz/fuzz_targets/fuzz_greet.rs:${line} (not in the root Cargo workspace)`]);
  });

  it("a module's items under a feature on by default, or declared under opposite cfgs, are found, with no such note", async () => {
    for (const [name, path] of [['write_line', 'src/sink.rs'], ['plain_text', 'src/plain.rs']]) {
      const o = await f.outcome(`findDefinitions("${name}")`);
      expect(o.kind === 'value' ? (o.value as SymbolDefinition[]).map((d) => d.definedAt.path) : o).toEqual([path]);
      expect(unbuiltNotes(o.notes)).toEqual([]);
    }
  });

  it.skipIf(process.platform === 'win32')("another system's module is named with its cfg", async () => {
    const o = await f.outcome('findDefinitions("attach_console")');
    const line = (await f.at('src/console.rs', 'pub fn attach_console')).line;
    expect(unbuiltNotes(o.notes)).toEqual([`attach_console is also declared in a file this machine's build leaves out, which no server reads: src/console.rs:${line} (cfg(windows))`]);
  });

  it('a use under a cfg that is off (in a built file) that the answer lacks is named in one note, since rust-analyzer does not analyse that code', async () => {
    const use = await f.at('src/lib.rs', 'use super::greet;');
    const inactiveNotes = (notes: readonly string[]): string[] => notes.filter((n) => n.includes('#[cfg]'));
    const o = await f.outcome('findReferences(findDefinition("greet"))');
    const places = o.kind === 'value' ? (o.value as { referencedAt: { path: string; start: { line: number } } }[]).map((r) => `${r.referencedAt.path}:${r.referencedAt.start.line}`) : [];
    expect(places).not.toContain(`src/lib.rs:${use.line}`);
    expect(inactiveNotes(o.notes)).toEqual([`rust-analyzer does not analyse code under a #[cfg] that is off here: "greet" is also written at src/lib.rs:${use.line}; search(".", "\\\\bgreet\\\\b") finds every mention`]);
    // Every use analysed: nothing said.
    const listed = await f.outcome('findReferences(findDefinition("plain_text"))');
    expect(inactiveNotes(listed.notes)).toEqual([]);
  });

  it('a macro named as it is invoked (`log!`) is the macro, not the function of its name', async () => {
    const macro = await f.nameIn('src/lib.rs', 'macro_rules! log', 'log');
    for (const program of ['findDefinitions("log!")', 'findDefinitions("crate::log!")']) {
      const defs = (await f.value(program)) as SymbolDefinition[];
      expect(defs.map((d) => [d.kind, d.definedAt.start.line, d.definedAt.start.column]), program).toEqual([['macro', macro.line, macro.column]]);
    }
    expect(((await f.value('findDefinitions("log")')) as SymbolDefinition[]).map((d) => d.kind).sort()).toEqual(['function', 'macro']);
    // A name that is no macro says what it is instead.
    const o = await f.outcome('findDefinitions("greet!")');
    expect(o.kind === 'value' ? o.value : o).toEqual([]);
    expect(o.notes.join('\n')).toMatch(/greet.*function/);
  });
});
