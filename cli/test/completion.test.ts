/** Tab completion and multi-line input, without a terminal (the tmux tests cover the keys). */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdeRegistry, Workspace } from '../../ide-adapter/index.js';
import { complete, workspaceLister, type CompletionSource, type DirEntry } from '../completion.js';
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
  it('completes a unique prefix to the name and an open parenthesis', () => {
    expect(c('findRef')).toEqual({ items: ['findReferences('], replace: 'findRef' });
    expect(c('[documentS')).toEqual({ items: ['documentSymbols('], replace: 'documentS' });
  });

  it('lists the signatures when several match, so the common prefix is completed and the list shows types', () => {
    const { items, replace } = c('findDef');
    expect(replace).toBe('findDef');
    expect(items).toEqual([registry.signature(registry.lookup('findDefinition')!), registry.signature(registry.lookup('findDefinitions')!)]);
    expect(items[0]).toMatch(/^findDefinition\(of: .*\) → symbol$/);
  });

  it('offers aliases under their own name', () => {
    expect(c('gre')).toEqual({ items: ['grep('], replace: 'gre' });
  });

  it('completes the function of an inner call and of a named value', () => {
    expect(c('findReferences(findDefinition')).toEqual({ items: expect.arrayContaining([expect.stringMatching(/^findDefinitions\(/)]) as unknown, replace: 'findDefinition' });
    expect(c('pick(findDefinitions("User"), file: only').items).toEqual(['only(']);
  });

  it('completes nothing inside a comment or after a number', () => {
    expect(c('// findRef').items).toEqual([]);
    expect(c('[1e').items).toEqual([]);
  });
});

describe('named parameters', () => {
  it('offers the parameters not yet given, with their types', () => {
    expect(c('findDefinitions("User", ').items).toEqual(['of: string | symbol | (string | symbol)[]', 'file: string', 'kind: string', 'line: number']);
    expect(c('findDefinitions("User", kind: "struct", ').items).toEqual(['of: string | symbol | (string | symbol)[]', 'file: string', 'line: number']);
  });

  it('completes a unique parameter to `name: `', () => {
    expect(c('findDefinitions("User", fi')).toEqual({ items: ['file: '], replace: 'fi' });
  });

  it('offers function names at an argument start when no parameter matches the word', () => {
    expect(c('findDefinitions("User", li').items).toEqual(['line: ']);
    expect(c('findDefinitions("User", onl').items).toEqual(['only(']);
    expect(c('findReferences(').items).toEqual([]); // nothing to guess: `to` is usually positional
  });

  it('offers no parameter names after `name:`, where a value goes', () => {
    expect(c('findDefinitions("User", file: ').items).toEqual([]);
  });
});

describe('paths inside path arguments', () => {
  it('completes folders with a slash and files with the closing quote', () => {
    expect(c('documentSymbols("sr')).toEqual({ items: ['src/'], replace: 'sr' });
    expect(c('documentSymbols("src/mo')).toEqual({ items: ['src/model.rs"'], replace: 'src/mo' });
    expect(c("lines('src/ma")).toEqual({ items: ["src/main.rs'"], replace: 'src/ma' });
  });

  it('lists several matches, without hidden files unless asked for', () => {
    expect(c('search("src/').items).toEqual(['src/main.rs', 'src/model.rs', 'src/storage/']);
    expect(c('search("').items).toEqual(['Cargo.toml', 'src/']);
    expect(c('search(".g').items).toEqual(['.gitignore"']);
  });

  it('replaces the path as typed, escapes included, and reads it decoded', () => {
    expect(c('documentSymbols("src\\/mo')).toEqual({ items: ['src/model.rs"'], replace: 'src\\/mo' });
  });

  it('knows which argument is a path: positional by index, named by name', () => {
    expect(c('search("src", "ma').items).toEqual([]); // the regex
    expect(c('findFiles("*.rs", "sr').items).toEqual(['src/']); // path is the second parameter
    expect(c('findDefinitions("mo').items).toEqual([]); // a symbol name, not a path
    expect(c('findDefinitions("User", file: "src/ma').items).toEqual(['src/main.rs"']);
  });
});

describe('dot commands', () => {
  it('completes commands and their arguments at the start of a line', () => {
    expect(c('.se')).toEqual({ items: ['.servers '], replace: '.se' });
    expect(c('.timing o').items).toEqual(['on', 'off']);
    expect(c('.e').items).toEqual(['.exit ']);
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

  it('lists folders without .git and what .gitignore excludes, and nothing outside the workspace', () => {
    const list = workspaceLister(new Workspace(root));
    expect(list('')?.map((e) => `${e.name}${e.directory ? '/' : ''}`).sort()).toEqual(['.gitignore', 'src/']);
    expect(list('src/')).toEqual([{ name: 'a.rs', directory: false }]);
    expect(list('../')).toBeUndefined();
    expect(list('nope/')).toBeUndefined();
  });
});

describe('multi-line input', () => {
  const names = new Set(['_']);
  it('continues an unclosed call, array or object and a backtick string at the end', () => {
    for (const text of ['findReferences(', 'findReferences(findDefinitions("User")', '[1,\n2', '{"a": 1', 'search("src", `fn', 'f(1, // more to come']) {
      expect(classifyInput(text, names).kind, text).toBe('incomplete');
    }
  });

  it('treats other errors, and a quoted string cut by the line end, as finished (to show the error)', () => {
    for (const text of ['foo(1))', 'findDefinitions("User" "x")', 'findDefinitions("User', 'findDefinitions(User)']) {
      const state = classifyInput(text, names);
      expect(state.kind, text).toBe('complete');
      if (state.kind === 'complete') expect(state.parsed.ok).toBe(false);
    }
  });

  it('recognises blank input and finished programs', () => {
    expect(classifyInput('   ', names).kind).toBe('empty');
    expect(classifyInput('// just a comment', names).kind).toBe('empty');
    const state = classifyInput('findReferences(\n  _)', names);
    expect(state.kind === 'complete' && state.parsed.ok).toBe(true);
  });

  it('joins a multi-line program into one history entry when that keeps its meaning', () => {
    expect(joinForHistory(['findReferences(', '  findDefinition("validate_token",', '    file: "src/util.rs")', ')'])).toBe(
      'findReferences(findDefinition("validate_token", file: "src/util.rs"))',
    );
    expect(joinForHistory(['f(1, // one', '2)'])).toBeUndefined();
    expect(joinForHistory(['search(".", `a', 'b`)'])).toBeUndefined();
  });
});
