/**
 * A small real Dialect registry over the fixture files, for resolution tests without language
 * servers: `findText(path, text)` is the place of the first occurrence of a text in a file,
 * `search(path, regex)` lists matching lines, `findDefinition(name)` finds `fn|struct|class|function|interface|enum … name` declarations
 * (ambiguous when several files declare it), `findAll(text)` lists every occurrence. Positions
 * are computed by searching the fixture text, so tests never hard-code line numbers.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DialectError, Interpreter, createRegistry, type Registry } from '../../../dialect/index.js';
import { Workspace } from '../../../ide-adapter/workspace.js';
import type { Location, SymbolDefinition } from '../../../ide-adapter/model.js';
import { environmentFor } from '../../environment.js';
import type { WalkthroughEnvironment } from '../../environment-types.js';

export const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url));
export const RUST_APP = join(FIXTURES, 'rust-app');
export const TS_APP = join(FIXTURES, 'ts-app');

/** Every source file of a fixture workspace, relative with `/`. */
export function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      if (name === 'target' || name === 'node_modules' || name.startsWith('.')) continue;
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(rs|ts)$/.test(name)) out.push(relative(root, full).split(sep).join('/'));
    }
  };
  walk(root);
  return out.sort();
}

/** The location of the `occurrence`-th (1-based) `text` in a file of `root`. */
export function locate(root: string, path: string, text: string, occurrence = 1): Location {
  const source = readFileSync(join(root, path), 'utf8');
  let index = -1;
  for (let i = 0; i < occurrence; i++) {
    index = source.indexOf(text, index + 1);
    if (index < 0) throw new Error(`${text} occurs fewer than ${occurrence} times in ${path}`);
  }
  const before = source.slice(0, index);
  const line = before.split('\n').length;
  const column = [...before.slice(before.lastIndexOf('\n') + 1)].length + 1;
  const content = source.split('\n')[line - 1] ?? '';
  return { path, start: { line, column }, end: { line, column: column + [...text].length }, content };
}

/** Every occurrence of `text` in the workspace. */
export function locateAll(root: string, text: string): Location[] {
  return sourceFiles(root).flatMap((path) => {
    const source = readFileSync(join(root, path), 'utf8');
    const count = source.split(text).length - 1;
    return Array.from({ length: count }, (_, i) => locate(root, path, text, i + 1));
  });
}

const DECLARATION = /\b(fn|struct|enum|trait|class|function|interface|const|type)\s+$/;

function definitions(root: string, name: string): SymbolDefinition[] {
  return locateAll(root, name)
    .filter((l) => {
      const before = [...l.content].slice(0, l.start.column - 1).join('');
      const after = [...l.content].slice(l.end.column - 1)[0] ?? '';
      return DECLARATION.test(before) && !/[A-Za-z0-9_]/.test(after);
    })
    .map((l) => ({ name, kind: DECLARATION.exec([...l.content].slice(0, l.start.column - 1).join(''))?.[1] ?? 'symbol', definedAt: l }));
}

/** Options of the fixture registry. */
export interface FixtureRegistryOptions {
  /**
   * A note the host adds whenever a function needs the index (`findDefinition` does), as the IDE
   * host does when a server answers incompletely — e.g. rust-analyzer's standard-library note.
   */
  readonly indexNote?: string;
}

/** A registry with `findText`, `findAll` and `findDefinition` over one fixture workspace. */
export function fixtureRegistry(root: string, options: FixtureRegistryOptions = {}): Registry<undefined> {
  const registry = createRegistry();
  const { indexNote } = options;
  if (indexNote !== undefined) registry.onRequires((requires, _args, ctx) => (requires === 'index' ? ctx.note(indexNote) : undefined));
  registry.registerFunction({
    name: 'findText',
    description: 'The first occurrence of a text in a file.',
    parameters: [
      { name: 'path', type: 'string', description: 'a workspace file' },
      { name: 'text', type: 'string', description: 'the text to find' },
    ],
    returns: 'object',
    examples: [{ program: 'findText("src/lib.rs", "fn main")' }],
    implementation: ({ path, text }) => {
      try {
        return locate(root, String(path), String(text));
      } catch (error) {
        throw new DialectError({ code: 'no-match', message: `${JSON.stringify(text)} does not occur in ${String(path)}`, cause: error });
      }
    },
  });
  registry.registerFunction({
    name: 'findAll',
    description: 'Every occurrence of a text in the workspace.',
    parameters: [{ name: 'text', type: 'string', description: 'the text to find' }],
    returns: 'array',
    examples: [{ program: 'findAll("User::new")' }],
    implementation: ({ text }) => locateAll(root, String(text)),
  });
  registry.registerFunction({
    name: 'search',
    description: 'Lines of a file (or of every file, with ".") matching a regex.',
    parameters: [
      { name: 'path', type: 'string', description: 'a workspace file, or "."' },
      { name: 'regex', type: 'string', description: 'the pattern' },
    ],
    returns: 'array',
    examples: [{ program: 'search("src/lib.rs", "fn \\w+")' }],
    implementation: ({ path, regex }) => {
      const pattern = new RegExp(String(regex), 'u');
      const files = path === '.' ? sourceFiles(root) : [String(path)];
      return files.flatMap((file) =>
        readFileSync(join(root, file), 'utf8')
          .split('\n')
          .flatMap((text, i) => {
            const m = pattern.exec(text);
            if (m === null) return [];
            const column = [...text.slice(0, m.index)].length + 1;
            return [{ path: file, start: { line: i + 1, column }, end: { line: i + 1, column: column + [...m[0]].length }, content: text, match: m[0] }];
          }),
      );
    },
  });
  registry.registerFunction({
    name: 'findDefinition',
    description: 'The declaration of a name; ambiguous when several files declare it.',
    requires: 'index',
    parameters: [
      { name: 'name', type: 'string', description: 'the name' },
      { name: 'file', type: 'string', optional: true, description: 'the file it is declared in' },
    ],
    returns: 'object',
    examples: [{ program: 'findDefinition("User")' }],
    implementation: ({ name, file }, ctx) => {
      const found = definitions(root, String(name)).filter((d) => file === undefined || d.definedAt.path === file);
      if (found.length === 0) return ctx.fail('symbol-not-found', `no declaration of ${JSON.stringify(name)}${typeof file === 'string' ? ` in ${file}` : ''}`, 'check the spelling; findAll("…") lists occurrences');
      if (found.length === 1) return found[0];
      return ctx.ambiguous(
        `${found.length} declarations of ${JSON.stringify(name)}`,
        found.map((d) => ({ label: `${d.kind} ${d.name} in ${d.definedAt.path}:${d.definedAt.start.line}`, value: d, refine: { file: d.definedAt.path } })),
      );
    },
  });
  return registry;
}

/** A walkthrough environment over a fixture (or any) folder, evaluating with the fixture registry. */
export function fixtureEnvironment(root: string, options: FixtureRegistryOptions & { onEvaluate?: (expression: string) => void } = {}): WalkthroughEnvironment {
  const interpreter = new Interpreter(fixtureRegistry(root, options));
  const workspace = new Workspace(root);
  return environmentFor({
    workspace,
    evaluate: async (program, evaluateOptions) => {
      options.onEvaluate?.(program);
      return interpreter.evaluate(program, evaluateOptions?.signal !== undefined ? { signal: evaluateOptions.signal } : {});
    },
  });
}
