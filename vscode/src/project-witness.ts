/**
 * Witnesses that the editor's TypeScript server has loaded a project. While VS Code's TypeScript
 * extension loads a project it answers from a syntax-only server that knows the open files alone
 * (its "partial semantic" mode): a workspace search then finds a name in the open anchor and
 * nowhere else, and readiness built on that said "ready" over answers that missed most places.
 * A witness is a file of the project that is NOT open, with a name it declares (read from its
 * text): only a loaded project's search finds the name in that file. Files the anchor imports
 * come first (they are in the project whatever its `include`), then the anchor's neighbours.
 * Plain Node, bounded: a few small reads per project.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';

/** A file of the project and a name declared in it. */
export interface Witness {
  /** Absolute path. */
  readonly file: string;
  readonly name: string;
}

/** Bounds of the search. */
const WITNESS_LIMITS = {
  /** At most this many witnesses per project (a search each per probe). */
  perProject: 3,
  /** Only this much of a file is read for its imports or declarations. */
  readBytes: 64 * 1024,
  /** At most this many neighbours are looked at. */
  neighbours: 50,
} as const;

/** TypeScript and JavaScript sources (not declaration files). */
const SOURCE = /\.(?:[cm]?ts|tsx|[cm]?js|jsx)$/;
/** The extensions an import without one (or with `.js` for a `.ts` file) may mean, in TypeScript's order. */
const RESOLVED_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
/** A relative import or export specifier. */
const RELATIVE_IMPORT = /\b(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"\n]+)['"]/g;
/** A top-level declaration and its name. */
const DECLARATION = /^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|class|interface|type|enum|const|let|var)\s+([A-Za-z_$][\w$]*)/m;

function readHead(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').slice(0, WITNESS_LIMITS.readBytes);
  } catch {
    return undefined;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The file a relative specifier of `from` names, if it exists. */
function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.[cm]?jsx?$/, '');
  const tries = [...RESOLVED_EXTENSIONS.map((e) => `${stem}${e}`), ...RESOLVED_EXTENSIONS.map((e) => join(base, `index${e}`))];
  return tries.find((t) => !t.endsWith('.d.ts') && isFile(t));
}

/** Files the anchor imports, then its neighbours: the candidates, in order, without the anchor. */
function candidates(anchor: string): string[] {
  const text = readHead(anchor) ?? '';
  const imported = [...text.matchAll(RELATIVE_IMPORT)].map((m) => resolveImport(anchor, m[1] as string)).filter((f): f is string => f !== undefined);
  let neighbours: string[] = [];
  try {
    // Files of the anchor's own extension first: a `.js` file beside `.ts` ones may be outside the project (no `allowJs`).
    const sameKind = (n: string): number => (extname(n) === extname(anchor) ? 0 : 1);
    neighbours = readdirSync(dirname(anchor))
      .filter((n) => SOURCE.test(n) && !n.endsWith('.d.ts'))
      .slice(0, WITNESS_LIMITS.neighbours)
      .sort((a, b) => sameKind(a) - sameKind(b) || (a < b ? -1 : a > b ? 1 : 0))
      .map((n) => join(dirname(anchor), n));
  } catch {
    // No folder to list: the imports only.
  }
  return [...new Set([...imported, ...neighbours])].filter((f) => f !== anchor && existsSync(f));
}

/** Up to a few witnesses of the anchor's project among files `isOpen` says are closed; none for a one-file project. */
export function projectWitnesses(anchor: string, isOpen: (file: string) => boolean): Witness[] {
  const found: Witness[] = [];
  for (const file of candidates(anchor)) {
    if (found.length >= WITNESS_LIMITS.perProject) break;
    if (isOpen(file)) continue;
    const name = DECLARATION.exec(readHead(file) ?? '')?.[1];
    if (name !== undefined) found.push({ file, name });
  }
  return found;
}
