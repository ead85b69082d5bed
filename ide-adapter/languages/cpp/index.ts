/**
 * C and C++ through clangd (Debian's `clangd-19`, or any `clangd`/`clangd-N` found; newest first).
 *
 * clangd reads its compilation database from a private folder we write (`compile-db.ts`), so its
 * background index never writes into the workspace; untrusted it runs no compiler and obeys no
 * `.clangd` (`trust.ts`). Names are C++'s (`geo::Circle::area`), kinds C++'s words (`names.ts`).
 */
import { conditionalMentions } from './conditional-code.js';
import { C_SOURCE_EXTENSIONS, CPP_SOURCE_EXTENSIONS, DATABASE_FIX, HEADER_EXTENSIONS, preparePrivateDatabase } from './compile-db.js';
import { CLANGD_OVERRIDE, clangdCandidates } from './candidates.js';
import { cppKind, cppModulePath, splitCppOutlineName, tidyClangdHover } from './names.js';
import { CLANGD_UNTRUSTED_LIMITS, systemQueryDriver, untrustedClangd } from './trust.js';
import { DialectError } from '../../../dialect/outcome.js';
import { SearchCode } from '../../search.js';
import { runFileJob } from '../../file-jobs.js';
import { SKIPPED_DIRS } from '../../skipped-dirs.js';
import type { KnownProblem, PrepareContext, ProjectAnchors, ServerDefinition, ServerPreparation } from '../../lsp/servers.js';
import { sep } from 'node:path';
import { systemHeaderFolders } from './system-headers.js';

/** Everything of clangd's the client reads: quiet logs, no guessed `#include`s in completions, one worker per core. */
const CLANGD_ARGS = ['--log=error', '--background-index', '--header-insertion=never', '--pch-storage=memory'] as const;

/** clangd's problems worth one warning. */
const CLANGD_KNOWN_PROBLEMS: readonly KnownProblem[] = [
  {
    key: 'clangd:compile-commands',
    pattern: /Failed to (?:load|parse) compil(?:ation database|e_commands)/i,
    warning: 'clangd could not read the compilation database: it guesses flags, so include errors and missing symbols are possible',
  },
];

const SOURCE_GLOB = `**/*{${[...C_SOURCE_EXTENSIONS, ...CPP_SOURCE_EXTENSIONS].join(',')}}`;

/** clangd for C and C++. Override: `DIALECT_CLANGD`. */
export const clangdServer: ServerDefinition = {
  id: 'clangd',
  displayName: 'clangd',
  languages: [
    // A `.h` is C++ as often as C; clangd decides from the compile command, not from this id.
    { languageId: 'c', extensions: [...C_SOURCE_EXTENSIONS] },
    { languageId: 'cpp', extensions: [...CPP_SOURCE_EXTENSIONS, ...HEADER_EXTENSIONS] },
  ],
  // A Makefile alone is no evidence: Go, Python and web projects have them too; their sources are.
  rootMarkers: ['compile_commands.json', 'compile_flags.txt', 'CMakeLists.txt', 'meson.build', '.clangd'],
  filePatterns: ['*.{c,cc,cpp,cxx,h,hh,hpp,hxx}', '*/*.{c,cc,cpp,cxx,h,hh,hpp,hxx}'],
  projectMarkers: ['CMakeLists.txt', 'compile_commands.json', 'meson.build'],
  candidates: clangdCandidates,
  overrideVar: CLANGD_OVERRIDE,
  args: [...CLANGD_ARGS, systemQueryDriver()],
  readiness: 'progress',
  // `### function \`scale\`` … then the declaration in the last code block.
  hoverSignature: 'last-code-block',
  modulePath: cppModulePath,
  symbolKind: cppKind,
  outlineName: splitCppOutlineName,
  overloadsAreOneDefinition: true,
  diagnosticsGap: includeGap,
  unanalysedMentions: conditionalMentions,
  hoverDocumentation: tidyClangdHover,
  installedSources: systemHeaderFolders,
  installHint: 'apt-get install -y clangd-19 (or any clangd; set DIALECT_CLANGD to choose one)',
  knownProblems: CLANGD_KNOWN_PROBLEMS,
  prepare: prepareClangd,
  projectAnchors: clangdAnchors,
  untrusted: untrustedClangd,
  untrustedLimits: CLANGD_UNTRUSTED_LIMITS,
};

/** The private compilation database (`compile-db.ts`), handed to clangd as `--compile-commands-dir`. */
async function prepareClangd(root: string, env: Readonly<Record<string, string | undefined>>, _context?: PrepareContext): Promise<ServerPreparation> {
  try {
    const db = await preparePrivateDatabase(root, env);
    return {
      args: [`--compile-commands-dir=${db.dir}`],
      ...(db.warning !== undefined ? { warnings: [{ key: 'clangd:database', text: db.warning }] } : {}),
      ...(db.unfound !== undefined ? { laterWarnings: db.unfound.then((text) => (text !== undefined ? [{ key: 'clangd:unfound-includes', text }] : [])) } : {}),
    };
  } catch (error) {
    // Without our folder clangd would look for a database in the workspace and index next to it:
    // it gets a database-less start instead (open files only), and says so.
    return {
      args: ['--background-index=false'],
      warnings: [{ key: 'clangd:database', text: `C/C++: clangd indexes only the files a question opens (its private folder could not be made: ${(error as Error).message})` }],
    };
  }
}

/** clangd's code for an `#include` it could not find. */
const FILE_NOT_FOUND_CODE = 'pp_file_not_found';

/** Diagnostics after an `#include` that was not found are not the compiler's: say so, with the fix. */
function includeGap(diagnostics: readonly { readonly message: string; readonly code?: string }[]): string | undefined {
  const missing = diagnostics.find((d) => d.code === FILE_NOT_FOUND_CODE || /^'[^']*' file not found/.test(d.message));
  if (missing === undefined) return undefined;
  return `an #include was not found (${missing.message}), so these diagnostics are not the compiler's. ${DATABASE_FIX}`;
}

/** One source file, opened so clangd loads the database and starts its background index. */
async function clangdAnchors(root: string): Promise<ProjectAnchors> {
  const walk = await runFileJob({ kind: 'walk', root, start: '', limit: 200, glob: SOURCE_GLOB }, { overrun: (stopped) => new DialectError({ code: SearchCode.WalkTimeout, message: `finding a C/C++ source ${stopped}` }) }).catch(() => ({ files: [] as string[] }));
  const first = walk.files.find((f) => !f.split('/').slice(0, -1).some((p) => SKIPPED_DIRS.has(p) || p.startsWith('.')));
  return { files: first !== undefined ? [`${root}${sep}${first.split('/').join(sep)}`] : [], warnings: [] };
}
