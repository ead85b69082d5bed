/**
 * How Python imports names (`from pkg.mod import Name as Alias`, `import pkg.mod as alias`), so a
 * name the workspace does not define can be traced to the import that brings it in, and pyright's
 * diagnostics that say an import could not be resolved.
 */
import type { ImportRules } from '../../lsp/servers.js';
import { ENVIRONMENT_FIX } from './problems.js';
import { linesInStrings } from './strings.js';

/** pyright's diagnostic codes for imports it cannot resolve (no package; only stubs, no source). */
const UNRESOLVED_CODES = new Set(['reportMissingImports', 'reportMissingModuleSource']);

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The module a `from … import …` or `import …` line binds `name` from. */
function moduleOf(line: string, name: string): string | undefined {
  const code = line.replace(/#.*$/, '');
  const from = /^\s*from\s+(\.*[\w.]*)\s+import\s+\(?([^)]*)\)?/.exec(code);
  if (from !== null) {
    const bound = (from[2] ?? '').split(',').map((item) => {
      const [imported, alias] = item.trim().split(/\s+as\s+/);
      return (alias ?? imported ?? '').trim();
    });
    return bound.includes(name) ? from[1] : undefined;
  }
  const plain = /^\s*import\s+(.+)$/.exec(code);
  if (plain === null) return undefined;
  for (const item of (plain[1] ?? '').split(',')) {
    const [module, alias] = item.trim().split(/\s+as\s+/);
    const binds = (alias ?? module?.split('.')[0] ?? '').trim();
    if (binds === name && module !== undefined) return alias !== undefined ? module.trim() : binds;
  }
  return undefined;
}

/** The absolute top-level modules an import line names (`import a.b as c, d` → `a`, `d`; `from .x import y` → none). */
function importedModules(line: string): string[] {
  const code = (line.split('#')[0] ?? '').split(';')[0] ?? '';
  const from = /^\s*from\s+([A-Za-z_]\w*)[\w.]*\s+import\b/.exec(code);
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
  lineImporting: (name) => `^\\s*(from\\s+\\S+\\s+)?import\\s.*(?<![\\w.])${escape(name)}(?!\\w)`,
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
