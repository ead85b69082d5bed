/**
 * "A language is one folder": the generic client (`lsp/`) and the IDE functions (`functions/`)
 * never import a language folder and never name a built-in server by its id in code (language
 * knowledge is data and hooks on the definition), and trust is applied in one place
 * (`lsp/untrusted.ts` is the only caller of a definition's `untrusted` hook).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { builtinServers } from '../languages/index.js';

const adapter = fileURLToPath(new URL('../', import.meta.url));
const repo = join(adapter, '..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === 'test' ? [] : tsFiles(join(dir, e.name))) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The text without comments (block, line), so a doc comment may name a server as an example. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** What a file's code breaks of the invariant: imports of a language folder, built-in server ids as literals. */
function violations(text: string, ids: readonly string[]): string[] {
  const body = code(text);
  const found: string[] = [];
  for (const m of body.matchAll(/(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g)) if (/(^|\/)languages(\/|$)/.test(m[1] ?? '')) found.push(`imports ${m[1] ?? ''}`);
  for (const id of ids) if (new RegExp(`(['"\`])${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\1`).test(body)) found.push(`names '${id}'`);
  return found;
}

const ids = builtinServers().map((d) => d.id);

describe('a language is one folder', () => {
  it('the check sees an import of a language folder and a server id in code, not in comments', () => {
    expect(violations(`import { x } from '../languages/rust/index.js';\nif (id === 'rust-analyzer') {}`, ['rust-analyzer'])).toEqual([
      'imports ../languages/rust/index.js',
      "names 'rust-analyzer'",
    ]);
    expect(violations(`/** e.g. \`rust-analyzer\` */\n// 'rust-analyzer'\nconst a = 1;`, ['rust-analyzer'])).toEqual([]);
    expect(ids).toContain('rust-analyzer');
  });

  it('lsp/ and functions/ import no language folder and name no built-in server in code', () => {
    const files = [...tsFiles(join(adapter, 'lsp')), ...tsFiles(join(adapter, 'functions'))];
    expect(files.length).toBeGreaterThan(20);
    const broken = files.flatMap((f) => violations(readFileSync(f, 'utf8'), ids).map((v) => `${relative(repo, f)}: ${v}`));
    expect(broken).toEqual([]);
  });

  it('every built-in language is a folder with its definition, registered once', () => {
    const folders = readdirSync(join(adapter, 'languages'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    const registry = readFileSync(join(adapter, 'languages', 'index.ts'), 'utf8');
    for (const folder of folders) expect(registry.match(new RegExp(`from '\\./${folder}/index\\.js'`, 'g')) ?? [], folder).toHaveLength(1);
    expect(new Set(ids).size).toBe(ids.length);
    expect(folders.length).toBe(builtinServers().length);
  });

  it('trust is applied in one place: only lsp/untrusted.ts calls a definition\'s untrusted hook', () => {
    const files = [...tsFiles(adapter), ...tsFiles(join(repo, 'vscode', 'src')), ...tsFiles(join(repo, 'cli')), ...tsFiles(join(repo, 'mcp'))];
    const callers = files.filter((f) => /\.untrusted\(/.test(code(readFileSync(f, 'utf8')))).map((f) => relative(repo, f));
    expect(callers).toEqual(['ide-adapter/lsp/untrusted.ts']);
  });
});
