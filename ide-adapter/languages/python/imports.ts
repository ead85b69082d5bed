/**
 * How Python imports names (`from pkg.mod import Name as Alias`, `import pkg.mod as alias`), so a
 * name the workspace does not define can be traced to the import that brings it in, and pyright's
 * diagnostics that say an import could not be resolved.
 */
import type { ImportRules } from '../../lsp/servers.js';
import { ENVIRONMENT_FIX } from './problems.js';
import { linesInStrings } from './strings.js';
import { escapeRegExp } from '../../regexp-text.js';

/** pyright's diagnostic codes for imports it cannot resolve (no package; only stubs, no source). */
const UNRESOLVED_CODES = new Set(['reportMissingImports', 'reportMissingModuleSource']);

/**
 * `name as alias` → the name and the alias (trimmed); `name` alone → the name. Found with a pattern
 * of fixed length: splitting at `\s+as\s+` retried the pattern from every blank of a long run
 * (quadratic on a workspace's padded import line).
 */
function splitAlias(item: string): [string, string | undefined] {
  const text = item.trim();
  const at = /\sas\s/.exec(text);
  if (at === null) return [text, undefined];
  const rest = text.slice(at.index + 3).trimStart();
  const next = /\sas\s/.exec(rest);
  return [text.slice(0, at.index).trimEnd(), (next === null ? rest : rest.slice(0, next.index)).trimEnd()];
}

/** The module a `from … import …` or `import …` line binds `name` from. */
function moduleOf(line: string, name: string): string | undefined {
  const code = line.replace(/#.*$/, '');
  // `[\w.]*` alone (not `\.*[\w.]*`, the same words): two quantifiers over the same dots were quadratic in a line of them.
  const from = /^\s*from\s+([\w.]*)\s+import\s+\(?([^)]*)\)?/.exec(code);
  if (from !== null) {
    const bound = (from[2] ?? '').split(',').map((item) => {
      const [imported, alias] = splitAlias(item);
      return alias ?? imported;
    });
    return bound.includes(name) ? from[1] : undefined;
  }
  const plain = /^\s*import\s+(.+)$/.exec(code);
  if (plain === null) return undefined;
  for (const item of (plain[1] ?? '').split(',')) {
    const [module, alias] = splitAlias(item);
    const binds = (alias ?? module.split('.')[0] ?? '').trim();
    if (binds === name) return alias !== undefined ? module : binds;
  }
  return undefined;
}

/** The absolute top-level modules an import line names (`import a.b as c, d` → `a`, `d`; `from .x import y` → none). */
function importedModules(line: string): string[] {
  const code = (line.split('#')[0] ?? '').split(';')[0] ?? '';
  // The rest of the dotted name starts at a dot: `\w*[\w.]*` shared a run of letters, quadratic in a long one.
  const from = /^\s*from\s+([A-Za-z_]\w*)(?:\.[\w.]*)?\s+import\b/.exec(code);
  if (from !== null) return from[1] !== undefined ? [from[1]] : [];
  const plain = /^\s*import\s+(.+)$/.exec(code);
  if (plain === null) return [];
  return (plain[1] ?? '').split(',').flatMap((item) => {
    const top = /^\s*([A-Za-z_]\w*)/.exec(item)?.[1];
    return top !== undefined ? [top] : [];
  });
}

/** Python's import rules for pyright's definition. */
export const PYTHON_IMPORTS: ImportRules = {
  lineImporting: (name) => `^\\s*(from\\s+\\S+\\s+)?import\\s.*(?<![\\w.])${escapeRegExp(name)}(?!\\w)`,
  moduleOf,
  unresolved: (code, message) => (code !== undefined && UNRESOLVED_CODES.has(code)) || /^Import ".*" could not be resolved/.test(message),
  fix: `the package is not installed in the environment pyright uses: ${ENVIRONMENT_FIX}, or install it there`,
  probe: {
    lines: '^\\s*(import|from)\\s+[A-Za-z_]',
    modules: importedModules,
    document: (modules) => modules.map((m) => `import ${m}`).join('\n') + '\n',
    linesInStrings,
  },
};
