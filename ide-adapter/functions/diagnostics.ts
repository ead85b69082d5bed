/**
 * `diagnostics(path?, severity?)`: the errors and warnings the language servers report, as
 * Dialect locations with their message, code and source.
 */
import { DialectError, MAX_LABEL_LENGTH, truncate, type Registry } from '../../dialect/index.js';
import { CapabilityCode } from '../backend.js';
import { DIAGNOSTIC_SEVERITIES, isDiagnostic, type Diagnostic, type DiagnosticSeverity } from '../model.js';
import type { IdeHost } from './host.js';

/** Error codes of `diagnostics`. */
export const DiagnosticsCode = {
  UnknownSeverity: 'unknown-severity',
} as const;

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
      'Errors and warnings from the language servers (type errors, unresolved names, unused code): of a file, of the files under a folder, or of every file the servers have analysed. Each is a location with severity, message, code and source.',
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
    ],
    returns: 'diagnostic[]',
    examples: [
      { program: 'diagnostics("src/model.rs")' },
      { program: 'diagnostics(severity: "error")', description: 'errors in every file the servers have analysed' },
      { program: 'diagnostics("src", ["error", "warning"])' },
    ],
    implementation: async (args, ctx) => {
      const { workspace, backend } = ctx.host;
      const wanted = severities(args['severity'] as string | string[] | undefined);
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
      const report = await backend.diagnostics(isFolder ? undefined : path, { signal: ctx.signal });
      const inFolder = (p: string): boolean => !isFolder || path === '.' || p === path || p.startsWith(`${path}/`);
      if (!report.complete) {
        ctx.note(
          path === undefined || isFolder
            ? `covers only the ${report.files} file${report.files === 1 ? '' : 's'} the language servers have analysed (opened or reported on), not the whole workspace; diagnostics("path/to/file") checks any file`
            : `the language server published no diagnostics for ${path} in time; there may be none, or it is still analysing — ask again`,
        );
      }
      return report.diagnostics.filter((d) => inFolder(d.path) && (wanted === undefined || wanted.has(d.severity)));
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
