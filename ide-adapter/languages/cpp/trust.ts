/**
 * What a C/C++ workspace can make clangd 19 run, and what changes when it is untrusted.
 *
 * clangd executes a program from a workspace only through `--query-driver`: for a compile command
 * whose compiler (`arguments[0]`, found on PATH when bare, made absolute against `directory`)
 * matches one of its globs, it runs that compiler (`<cc> -E -x c++ - -v`) to learn its system
 * include folders. The compiler can be named by `compile_commands.json`, by the `.clangd`
 * project config (`CompileFlags: Compiler:`), or by `compile_flags.txt` — so globs must never match
 * a path the workspace controls. Clang plugins (`-fplugin=`, `-Xclang -load`) are not loaded by
 * clangd (it clears them before parsing; tested). The `.clangd` config can also point clangd at a
 * database or an index anywhere on disk (`CompileFlags: CompilationDatabase:`, `Index: External:`)
 * and add flags that read files outside the workspace.
 *
 * Trusted: `--query-driver` matches the system's compilers only (`/usr/bin`, `/usr/local/bin`),
 * and the `.clangd` config is obeyed. Untrusted: no `--query-driver` at all, and
 * `--enable-config=false` (no `.clangd`, no user config): clangd finds the system headers by itself,
 * which serves ordinary projects. clang-tidy checks run in-process and stay on.
 */
import type { ServerDefinition } from '../../lsp/servers.js';

/** The folders whose compilers a trusted workspace may have clangd query. */
const SYSTEM_COMPILER_DIRS = ['/usr/bin', '/usr/local/bin'] as const;
/** Compiler names (globs) in those folders. */
const COMPILER_GLOBS = ['cc', 'c++', '*gcc*', '*g++*', 'clang', 'clang++', 'clang-[0-9]*', 'clang++-[0-9]*'] as const;

/** The `--query-driver` argument of a trusted workspace: the system's compilers only. */
export function systemQueryDriver(): string {
  return `--query-driver=${SYSTEM_COMPILER_DIRS.flatMap((d) => COMPILER_GLOBS.map((g) => `${d}/${g}`)).join(',')}`;
}

/** What the untrusted note says clangd gives up. */
export const CLANGD_UNTRUSTED_LIMITS = 'clangd ignores .clangd and queries no compiler for include folders';

/** Arguments that keep clangd from obeying the workspace: no project config. */
export const UNTRUSTED_ARGS = ['--enable-config=false'] as const;

/** The restricted clangd for an untrusted workspace: no `--query-driver`, no `.clangd` config. */
export function untrustedClangd(definition: ServerDefinition): ServerDefinition {
  const args = definition.args.filter((a) => !a.startsWith('--query-driver') && !a.startsWith('--enable-config'));
  return {
    ...definition,
    args: [...args, ...UNTRUSTED_ARGS],
    ...(definition.prepare !== undefined
      ? { prepare: (root, env, context) => (definition.prepare as NonNullable<ServerDefinition['prepare']>)(root, env, { ...context, untrusted: true }) }
      : {}),
  };
}
