/**
 * The modules a workspace imports that its language server cannot resolve, named once per session
 * in one short line (a language's `ImportRules.probe`: Python). The import lines come from a
 * budgeted search (the file worker); the modules they name that are not the workspace's own are
 * imported, one per line, by an in-memory document (`untitled:`, never written to disk), and the
 * server's own diagnostics on it say which it cannot resolve — its resolution, not a guess at it.
 * Bounded throughout: lines searched, modules asked, and the wait for the server's answer.
 */
import { basename, extname } from 'node:path';
import type { LanguageServer } from './lsp/client.js';
import type { ImportProbe, ImportRules } from './lsp/servers.js';
import { MAX_NOTE_LINE } from './notes-ledger.js';
import { searchWorkspace, walkFiles } from './search.js';
import type { Workspace } from './workspace.js';

/** Import lines read at most. */
const MAX_IMPORT_LINES = 20_000;
/** Distinct modules put to the server at most (in the order the workspace first imports them). */
const MAX_PROBED_MODULES = 300;
/** How long the server may take to publish its diagnostics of the probe document. */
const IMPORT_PROBE_WAIT_MS = 10_000;
/** Import places of one module checked at most for one that is code, not a string. */
const MAX_PLACES_PER_MODULE = 20;
/** Files listed at most to know the workspace's own module names. */
const MAX_LOCAL_FILES = 50_000;
/** `DiagnosticSeverity.Error`: a module the server cannot resolve at all (stubs without sources are warnings). */
const SEVERITY_ERROR = 1;

/** What an unresolved module looks like in the note: its name and the first file importing it. */
interface Unresolved {
  readonly module: string;
  readonly path: string;
}

/**
 * The note naming the modules `server` cannot resolve, or `undefined` when it resolves them all
 * (or could not be asked in time: then nothing is claimed).
 */
export async function unresolvedImportsNote(server: LanguageServer, workspace: Workspace, rules: ImportRules, signal?: AbortSignal): Promise<string | undefined> {
  const probe = rules.probe;
  if (probe === undefined) return undefined;
  const extensions = server.definition.languages.flatMap((l) => l.extensions);
  const { matches } = await searchWorkspace(workspace, '.', probe.lines, { extensions, maxResults: MAX_IMPORT_LINES, ...(signal !== undefined ? { signal } : {}) });
  const importedAt = new Map<string, { path: string; line: number }[]>();
  for (const match of matches) {
    for (const module of probe.modules(match.content)) {
      const places = importedAt.get(module) ?? [];
      if (places.length < MAX_PLACES_PER_MODULE) places.push({ path: match.path, line: match.start.line - 1 });
      importedAt.set(module, places);
    }
  }
  if (importedAt.size === 0) return undefined;
  // The workspace's own modules (a sibling module, a package folder) are not the environment's.
  const { files } = await walkFiles(workspace, '.', { limit: MAX_LOCAL_FILES, ...(signal !== undefined ? { signal } : {}) });
  const local = new Set<string>();
  for (const file of files) {
    if (!extensions.includes(extname(file).toLowerCase())) continue;
    for (const segment of file.split('/').slice(0, -1)) local.add(segment);
    local.add(basename(file, extname(file)));
  }
  const modules = [...importedAt.keys()].filter((m) => !local.has(m)).slice(0, MAX_PROBED_MODULES);
  if (modules.length === 0) return undefined;
  const unresolved = await askServer(server, probe, modules, signal);
  if (unresolved === undefined || unresolved.length === 0) return undefined;
  // Only a real import counts: a line inside a string (a docstring's example) is text.
  const inStrings = new Map<string, ReadonlySet<number>>();
  const stringLines = async (path: string): Promise<ReadonlySet<number>> => {
    let lines = inStrings.get(path);
    if (lines === undefined) {
      lines = probe.linesInStrings === undefined ? new Set() : probe.linesInStrings(await workspace.readText(path).catch(() => ''));
      inStrings.set(path, lines);
    }
    return lines;
  };
  const named: Unresolved[] = [];
  for (const module of unresolved) {
    for (const place of importedAt.get(module) ?? []) {
      if ((await stringLines(place.path)).has(place.line)) continue;
      named.push({ module, path: place.path });
      break;
    }
  }
  return named.length === 0 ? undefined : noteLine(server.definition.displayName, named);
}

/** The modules among `modules` the server reports it cannot resolve; `undefined` when it said nothing in time. */
async function askServer(server: LanguageServer, probe: ImportProbe, modules: readonly string[], signal: AbortSignal | undefined): Promise<string[] | undefined> {
  const language = server.definition.languages[0];
  if (language === undefined) return undefined;
  const uri = `untitled:dialect-imports-${process.pid}${language.extensions[0] ?? ''}`;
  server.notify('textDocument/didOpen', { textDocument: { uri, languageId: language.languageId, version: 1, text: probe.document(modules) } });
  try {
    const published = await server.waitForDiagnostics(uri, { timeoutMs: IMPORT_PROBE_WAIT_MS, minVersion: 1, ...(signal !== undefined ? { signal } : {}) });
    if (published === undefined) return undefined;
    const rules = server.definition.imports;
    const lines = new Set(
      published.diagnostics
        .filter((d) => (d.severity ?? SEVERITY_ERROR) === SEVERITY_ERROR && rules?.unresolved(d.code === undefined ? undefined : String(d.code), typeof d.message === 'string' ? d.message : '') === true)
        .map((d) => d.range.start.line),
    );
    return modules.filter((_, line) => lines.has(line));
  } finally {
    server.notify('textDocument/didClose', { textDocument: { uri } });
  }
}

/** One line within `MAX_NOTE_LINE`: as many names as fit, the rest counted, and where to see them. */
function noteLine(server: string, unresolved: readonly Unresolved[]): string {
  const [first] = unresolved;
  const where = first !== undefined && first.path !== '' ? ` — diagnostics(${JSON.stringify(first.path)}) shows where` : ' — diagnostics(path) shows where';
  const text = (shown: number): string => {
    const names = unresolved.slice(0, shown).map((u) => u.module);
    const rest = unresolved.length - shown;
    const list = rest > 0 ? `${names.join(', ')} and ${rest} more` : names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}` : (names[0] ?? '');
    return `${server} cannot resolve ${unresolved.length === 1 ? 'an import' : `${unresolved.length} imports`}: ${list}${where}`;
  };
  let shown = unresolved.length;
  while (shown > 1 && text(shown).length > MAX_NOTE_LINE) shown--;
  return text(shown);
}
