/** Tab completion and multi-line input, without a terminal (the tmux tests cover the keys). */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdeRegistry, Workspace } from '../../ide-adapter/index.js';
import { complete, COMPLETION_LIST_BUDGET_MS, workspaceLister, type CompletionSource, type DirEntry } from '../completion.js';
import { classifyInput, joinForHistory } from '../input.js';

const registry = createIdeRegistry();
const tree: Record<string, DirEntry[]> = {
  '': [
    { name: 'src', directory: true },
    { name: 'Cargo.toml', directory: false },
    { name: '.gitignore', directory: false },
  ],
  'src/': [
    { name: 'main.rs', directory: false },
    { name: 'model.rs', directory: false },
    { name: 'storage', directory: true },
  ],
};
const source: CompletionSource = {
  registry,
  listDir: (dir) => tree[dir],
  commands: { '.help': [], '.servers': [], '.timing': ['on', 'off'], '.exit': [] },
};
const c = (before: string) => complete(before, source);

describe('function names', () => {
  it('completes a unique prefix to the name and an open parenthesis', async () => {
    expect(await c('findRef')).toEqual({ items: ['findReferences('], replace: 'findRef' });
    expect(await c('[documentS')).toEqual({ items: ['documentSymbols('], replace: 'documentS' });
  });

  it('lists the signatures when several match, so the common prefix is completed and the list shows types', async () => {
    const { items, replace } = await c('findDef');
    expect(replace).toBe('findDef');
    expect(items).toEqual([registry.signature(registry.lookup('findDefinition')!), registry.signature(registry.lookup('findDefinitions')!)]);
    expect(items[0]).toMatch(/^findDefinition\(of: .*\) → symbol$/);
  });

  it('offers aliases under their own name', async () => {
    expect(await c('gre')).toEqual({ items: ['grep('], replace: 'gre' });
  });

  it('completes the function of an inner call and of a named value', async () => {
    expect(await c('findReferences(findDefinition')).toEqual({ items: expect.arrayContaining([expect.stringMatching(/^findDefinitions\(/)]) as unknown, replace: 'findDefinition' });
    expect((await c('pick(findDefinitions("User"), file: only')).items).toEqual(['only(']);
  });

  it('completes nothing inside a comment or after a number', async () => {
    expect((await c('// findRef')).items).toEqual([]);
    expect((await c('[1e')).items).toEqual([]);
  });
});

describe('named parameters', () => {
  it('offers the parameters not yet given, with their types', async () => {
    expect((await c('findDefinitions("User", ')).items).toEqual(['of: string | symbol | (string | symbol)[]', 'file: string', 'kind: string', 'line: number']);
    expect((await c('findDefinitions("User", kind: "struct", ')).items).toEqual(['of: string | symbol | (string | symbol)[]', 'file: string', 'line: number']);
  });

  it('completes a unique parameter to `name: `', async () => {
    expect(await c('findDefinitions("User", fi')).toEqual({ items: ['file: '], replace: 'fi' });
  });

  it('offers function names at an argument start when no parameter matches the word', async () => {
    expect((await c('findDefinitions("User", li')).items).toEqual(['line: ']);
    expect((await c('findDefinitions("User", onl')).items).toEqual(['only(']);
    expect((await c('findReferences(')).items).toEqual([]); // nothing to guess: `to` is usually positional
  });

  it('offers no parameter names after `name:`, where a value goes', async () => {
    expect((await c('findDefinitions("User", file: ')).items).toEqual([]);
  });
});

describe('paths inside path arguments', () => {
  it('completes folders with a slash and files with the closing quote', async () => {
    expect(await c('documentSymbols("sr')).toEqual({ items: ['src/'], replace: 'sr' });
    expect(await c('documentSymbols("src/mo')).toEqual({ items: ['src/model.rs"'], replace: 'src/mo' });
    expect(await c("lines('src/ma")).toEqual({ items: ["src/main.rs'"], replace: 'src/ma' });
  });

  it('lists several matches, without hidden files unless asked for', async () => {
    expect((await c('search("src/')).items).toEqual(['src/main.rs', 'src/model.rs', 'src/storage/']);
    expect((await c('search("')).items).toEqual(['Cargo.toml', 'src/']);
    expect((await c('search(".g')).items).toEqual(['.gitignore"']);
  });

  it('replaces the path as typed, escapes included, and reads it decoded', async () => {
    expect(await c('documentSymbols("src\\/mo')).toEqual({ items: ['src/model.rs"'], replace: 'src\\/mo' });
  });

  it('knows which argument is a path: positional by index, named by name', async () => {
    expect((await c('search("src", "ma')).items).toEqual([]); // the regex
    expect((await c('findFiles("*.rs", "sr')).items).toEqual(['src/']); // path is the second parameter
    expect((await c('findDefinitions("mo')).items).toEqual([]); // a symbol name, not a path
    expect((await c('findDefinitions("User", file: "src/ma')).items).toEqual(['src/main.rs"']);
  });
});

describe('dot commands', () => {
  it('completes commands and their arguments at the start of a line', async () => {
    expect(await c('.se')).toEqual({ items: ['.servers '], replace: '.se' });
    expect((await c('.timing o')).items).toEqual(['on', 'off']);
    expect((await c('.e')).items).toEqual(['.exit ']);
  });
});

describe('the workspace lister', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'dialect-lister-'));
    await mkdir(join(root, 'src'));
    await mkdir(join(root, 'target'));
    await mkdir(join(root, '.git'));
    await writeFile(join(root, '.gitignore'), 'target/\n*.log\n');
    await writeFile(join(root, 'src', 'a.rs'), '');
    await writeFile(join(root, 'debug.log'), '');
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('lists folders without .git and what .gitignore excludes, and nothing outside the workspace', async () => {
    const list = workspaceLister(new Workspace(root));
    expect((await list(''))?.map((e) => `${e.name}${e.directory ? '/' : ''}`).sort()).toEqual(['.gitignore', 'src/']);
    expect(await list('src/')).toEqual([{ name: 'a.rs', directory: false }]);
    expect(await list('../')).toBeUndefined();
    expect(await list('nope/')).toBeUndefined();
  });
});

describe('the workspace lister on a hostile .gitignore', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'dialect-lister-hostile-'));
    // Thousands of wildcard rules: each 250-character name takes about 55 ms to match here, so the
    // folder takes about 20 s, ten times the budget (40 names took 2.2 s: on a faster machine that
    // finished within the budget, and the test listed them).
    const rules: string[] = [];
    for (let i = 0; i < 3000; i++) rules.push(`${'*a'.repeat(15)}*${i}?*z/`, `**/${'?*'.repeat(10)}[!x]${i}*/`);
    await writeFile(join(root, '.gitignore'), `${rules.join('\n')}\n`);
    for (let i = 0; i < 400; i++) await mkdir(join(root, `${'a'.repeat(245)}${String(i).padStart(3, '0')}`));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('offers nothing after its budget, and never blocks the REPL meanwhile', async () => {
    let last = performance.now();
    let longestGap = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 20);
    const started = performance.now();
    const listed = await workspaceLister(new Workspace(root))('');
    const elapsed = performance.now() - started;
    clearInterval(timer);
    expect(listed).toBeUndefined();
    // Matching here takes about 20 s; the worker is stopped at the budget (plus its start).
    expect(elapsed).toBeLessThan(COMPLETION_LIST_BUDGET_MS + 3000);
    expect(longestGap).toBeLessThan(1500);
  }, 60_000);
});

describe('multi-line input', () => {
  const names = new Set(['_']);
  it('continues an unclosed call, array or object and a backtick string at the end', async () => {
    for (const text of ['findReferences(', 'findReferences(findDefinitions("User")', '[1,\n2', '{"a": 1', 'search("src", `fn', 'f(1, // more to come']) {
      expect(classifyInput(text, names).kind, text).toBe('incomplete');
    }
  });

  it('treats other errors, and a quoted string cut by the line end, as finished (to show the error)', async () => {
    for (const text of ['foo(1))', 'findDefinitions("User" "x")', 'findDefinitions("User', 'findDefinitions(User)']) {
      const state = classifyInput(text, names);
      expect(state.kind, text).toBe('complete');
      if (state.kind === 'complete') expect(state.parsed.ok).toBe(false);
    }
  });

  it('recognises blank input and finished programs', async () => {
    expect(classifyInput('   ', names).kind).toBe('empty');
    expect(classifyInput('// just a comment', names).kind).toBe('empty');
    const state = classifyInput('findReferences(\n  _)', names);
    expect(state.kind === 'complete' && state.parsed.ok).toBe(true);
  });

  it('classifies a run of comments in linear time (a regular expression took exponential time: 26 `/**/` and a name held the REPL seconds, 40 for hours)', async () => {
    const comments = (n: number) => '/**/'.repeat(n);
    const started = performance.now();
    expect(classifyInput(`${comments(26)}x`, names).kind).toBe('complete');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(classifyInput(`${comments(20_000)}${' // a line comment\n'.repeat(20_000)}`, names).kind).toBe('empty');
    expect(classifyInput(`${comments(20_000)}x`, names).kind).toBe('complete');
    expect(classifyInput(`f(1 ${comments(20_000)}`, names).kind).toBe('incomplete');
    expect(classifyInput(`f(1 /* unclosed ${comments(20_000)}`, names).kind).toBe('incomplete');
    expect(classifyInput(`/* unclosed`, names).kind).toBe('complete');
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('joins a multi-line program into one history entry when that keeps its meaning', async () => {
    expect(joinForHistory(['findReferences(', '  findDefinition("validate_token",', '    file: "src/util.rs")', ')'])).toBe(
      'findReferences(findDefinition("validate_token", file: "src/util.rs"))',
    );
    expect(joinForHistory(['f(1, // one', '2)'])).toBeUndefined();
    expect(joinForHistory(['search(".", `a', 'b`)'])).toBeUndefined();
  });
});
