/**
 * `diagnostics(path?, severity?, wait?)`: the errors and warnings the language servers report, as
 * Dialect locations with their message, code and source. A server that only publishes is waited
 * for until it publishes the file's diagnostics, at most `wait` seconds (default
 * `TIMEOUTS.lsp.diagnosticsWaitMs`); when that runs out the answer says so and how to wait longer.
 */
import { DialectError, EvalCode, MAX_LABEL_LENGTH, truncate, type Registry } from '../../dialect/index.js';
import { TIMEOUTS } from '../timeouts.js';
import { CapabilityCode } from '../backend.js';
import { DIAGNOSTIC_SEVERITIES, isDiagnostic, type Diagnostic, type DiagnosticSeverity } from '../model.js';
import { walkFiles } from '../search.js';
import type { IdeHost } from './host.js';
import { mapLimit } from './symbols.js';

/** Error codes of `diagnostics`. */
export const DiagnosticsCode = {
  UnknownSeverity: 'unknown-severity',
} as const;

/** At most this many source files of a folder are analysed for one `diagnostics(folder)` (a note says when more were left out). */
export const MAX_FOLDER_DIAGNOSTIC_FILES = 200;
/** Files a folder walk lists at most while looking for source files. */
const MAX_FOLDER_WALK = 20_000;
/** Files analysed at once for a folder. */
const FOLDER_CONCURRENCY = 4;

/** Spellings models and people use for the four severities. */
const SEVERITY_ALIASES: Readonly<Record<string, DiagnosticSeverity>> = {
  error: 'error',
  errors: 'error',
  err: 'error',
  warning: 'warning',
  warnings: 'warning',
  warn: 'warning',
  info: 'info',
  information: 'info',
  hint: 'hint',
  hints: 'hint',
};

/** Registers the `diagnostic` type and `diagnostics`. */
export function registerDiagnostics(registry: Registry<IdeHost>): void {
  registry.registerType({
    name: 'diagnostic',
    description: 'an error or warning: a location plus {severity, message, code?, source?}',
    is: isDiagnostic,
    describe: (v) => {
      const d = v as Diagnostic;
      return `${d.severity} at ${d.path}:${d.start.line}: ${truncate(d.message.split('\n')[0] ?? '', MAX_LABEL_LENGTH)}`;
    },
  });

  registry.registerFunction({
    name: 'diagnostics',
    aliases: ['errors', 'problems', 'getDiagnostics'],
    description:
      'Errors and warnings from the language servers (type errors, unresolved names, unused code): of a file, of every source file under a folder (each analysed on request, at most MAX_FOLDER_DIAGNOSTIC_FILES with a note), or of every file the servers have analysed. Each is a location with severity, message, code and source.',
    category: 'diagnostics',
    requires: 'index',
    parameters: [
      { name: 'path', type: 'string', optional: true, description: 'a file, or a folder; omitted: every file the servers have reported on', aliases: ['file', 'in'] },
      {
        name: 'severity',
        type: 'string | string[]',
        optional: true,
        description: 'only these severities: error, warning, info, hint',
        aliases: ['level', 'severities', 'kind'],
      },
      {
        name: 'wait',
        type: 'number',
        optional: true,
        description: `seconds to wait for a server that only publishes (default ${TIMEOUTS.lsp.diagnosticsWaitMs / 1000}); the answer comes as soon as it publishes`,
        aliases: ['waitSeconds', 'timeout'],
      },
    ],
    returns: 'diagnostic[]',
    examples: [
      { program: 'diagnostics("src/model.rs")' },
      { program: 'diagnostics(severity: "error")', description: 'errors in every file the servers have analysed' },
      { program: 'diagnostics("src", ["error", "warning"])' },
      { program: 'diagnostics("src/app.py", wait: 60)', description: 'waits up to a minute for a busy server' },
    ],
    implementation: async (args, ctx) => {
      const { workspace, backend } = ctx.host;
      const wanted = severities(args['severity'] as string | string[] | undefined);
      const wait = args['wait'] as number | undefined;
      if (wait !== undefined && !(Number.isFinite(wait) && wait >= 0)) return ctx.fail(EvalCode.InvalidArgument, `wait must be a number of seconds, 0 or more (got ${wait})`, 'for example: diagnostics("src/app.py", wait: 60)');
      const waitMs = wait === undefined ? TIMEOUTS.lsp.diagnosticsWaitMs : Math.round(wait * 1000);
      const raise = (p: string) => `diagnostics(${JSON.stringify(p)}, wait: ${Math.max(1, Math.ceil((waitMs * 2) / 1000))})`;
      const given = args['path'] as string | undefined;
      const abs = given === undefined ? undefined : await workspace.resolveReal(given);
      const path = abs === undefined ? undefined : workspace.relative(abs);
      const isFolder = given !== undefined && (await workspace.isFolder(given));
      if (path !== undefined && !isFolder && !backend.handles(path)) {
        throw new DialectError({
          code: CapabilityCode.NoLanguageServer,
          message: `no language server handles ${path}, so nothing reports diagnostics for it`,
          hint: 'diagnostics works on files of the workspace languages; diagnostics() lists every file reported on',
        });
      }
      if (isFolder && given !== undefined) {
        // A folder is analysed on request, file by file (bounded): the answer must not depend on
        // which files earlier questions happened to open.
        const all = await walkFiles(workspace, given, { signal: ctx.signal, limit: MAX_FOLDER_WALK });
        const handled = all.files.filter((f) => backend.handles(f));
        const checked = handled.slice(0, MAX_FOLDER_DIAGNOSTIC_FILES);
        const reports = await mapLimit(checked, FOLDER_CONCURRENCY, (f) => backend.diagnostics(f, { signal: ctx.signal, waitMs }));
        const cut = handled.length > checked.length || all.truncated;
        if (cut) ctx.note(`checked the first ${checked.length} of ${handled.length}${all.truncated ? '+' : ''} source files under ${path ?? given} (MAX_FOLDER_DIAGNOSTIC_FILES); ask for a smaller folder for the rest`);
        for (const gap of new Set(reports.flatMap((r) => (r.gap !== undefined ? [r.gap] : [])))) ctx.note(gap);
        const silent = reports.filter((r) => !r.complete).length;
        if (silent > 0) ctx.note(`${silent} of the ${checked.length} files got no diagnostics from their language server within the ${waitMs / 1000} s wait; there may be none, or it is still analysing — wait longer: ${raise(path ?? given)}`);
        return reports.flatMap((r) => r.diagnostics).filter((d) => wanted === undefined || wanted.has(d.severity));
      }
      const report = await backend.diagnostics(path, { signal: ctx.signal, waitMs });
      if (report.gap !== undefined) ctx.note(report.gap);
      if (!report.complete) {
        ctx.note(
          path === undefined
            ? `covers only the ${report.files} file${report.files === 1 ? '' : 's'} the language servers have analysed (opened or reported on), not the whole workspace; diagnostics("path/to/file") checks any file`
            : `the language server published no diagnostics for ${path} within the ${(report.waitedMs ?? waitMs) / 1000} s wait; there may be none, or it is still analysing — wait longer: ${raise(path)}`,
        );
      }
      return report.diagnostics.filter((d) => wanted === undefined || wanted.has(d.severity));
    },
  });
}

/** The severities asked for; undefined for all. Unknown spellings are an error listing the valid ones. */
function severities(value: string | string[] | undefined): Set<DiagnosticSeverity> | undefined {
  if (value === undefined) return undefined;
  const out = new Set<DiagnosticSeverity>();
  for (const raw of Array.isArray(value) ? value : [value]) {
    const severity = SEVERITY_ALIASES[raw.trim().toLowerCase()];
    if (severity === undefined) {
      throw new DialectError({
        code: DiagnosticsCode.UnknownSeverity,
        message: `${JSON.stringify(raw)} is not a severity`,
        hint: `use one of ${DIAGNOSTIC_SEVERITIES.map((s) => JSON.stringify(s)).join(', ')}, or a list of them: ["error", "warning"]`,
      });
    }
    out.add(severity);
  }
  return out;
}
