/**
 * `runGit`: the only way Dialect runs git. A workspace is untrusted input, and git will happily
 * run programs its configuration (`.git/config`, files it includes, `.gitattributes`) names;
 * every call made here makes that impossible, and only the read-only subcommands Dialect needs
 * (`diff`, `ls-files`, `rev-parse`) can be run.
 *
 * What could run a program, and what closes it (each checked against real git; tests in
 * `ide-adapter/test/git-safety.test.ts`):
 * - `core.fsmonitor` hook (any command reading the index) → `core.fsmonitor=false`.
 * - hooks, e.g. `post-index-change`, which fires when `git diff` refreshes and rewrites the
 *   index even under `GIT_OPTIONAL_LOCKS=0` → `core.hooksPath=/dev/null` (no hook can exist).
 * - `diff.<driver>.textconv` (via `.gitattributes` `diff=driver`) → `--no-textconv`, and each
 *   configured one emptied (an empty textconv makes git fail rather than run anything).
 * - `diff.external`, `diff.<driver>.command`, `GIT_EXTERNAL_DIFF` → `--no-ext-diff`, the keys
 *   emptied, the variable dropped.
 * - `filter.<driver>.clean|smudge|process` (clean when hashing work-tree files, smudge when
 *   writing blobs to temporary files) → every driver configured at any scope emptied and made
 *   not required. Driver names are arbitrary, so they are read per call from
 *   `git config --list -z --includes` in the same environment as the call, which resolves
 *   `include.path` and `includeIf` exactly as the call will. (Attributes themselves cannot be
 *   switched off: `$GIT_DIR/info/attributes` always applies and `--attr-source` needs git 2.40.)
 *   Filters the user configured (e.g. git-lfs) are off too: they would run on content and
 *   settings (`.lfsconfig`) the repository controls. An LFS-tracked file whose stat data
 *   changed can therefore show as its content.
 * - submodules: `git diff` runs `git status` inside each submodule (whose own config names its
 *   own filters) to see whether it is dirty → `--ignore-submodules=dirty` (commit changes of a
 *   submodule still show) and `--submodule=short` (no `git diff` inside it).
 * - lazy fetches of missing objects in a partial clone, whose remote URL can be `ext::<command>`
 *   or a remote helper (`protocol.<name>.allow` in the repository beats `protocol.allow`) →
 *   `GIT_NO_LAZY_FETCH=1` (honoured by current gits, e.g. 2.39.5; older ones ignore it) and
 *   `GIT_ALLOW_PROTOCOL=` (empty: no transport at all, whatever the repository allows),
 *   `protocol.allow=never`; with them credential helpers, `core.askPass`, `core.sshCommand`,
 *   `core.alternateRefsCommand` are unreachable and emptied anyway, `GIT_TERMINAL_PROMPT=0`.
 * - pager (`core.pager`, `pager.<cmd>`; git pages only to a terminal, but say so) → `--no-pager`,
 *   `core.pager=cat`.
 * - the caller's environment: every `GIT_*` variable (`GIT_DIR`, `GIT_WORK_TREE`, `GIT_CONFIG_*`,
 *   `GIT_CONFIG_PARAMETERS`, `GIT_EXTERNAL_DIFF`, `GIT_PAGER`, `GIT_SSH*`, `GIT_ASKPASS`,
 *   `GIT_EXEC_PATH`…) is dropped; only the ones set here are passed. stdin is closed.
 * - `core.worktree` in the repository's config can point the work tree anywhere (`/etc`), so a
 *   diff would read files outside the workspace → `--work-tree` is always the folder git itself
 *   would take absent that setting: the nearest one, from the workspace up, holding `.git`.
 * - the repository folder itself: `.git` can be a `gitdir:` file or a symlink leading to another
 *   repository, or a folder whose `commondir` or `objects/info/alternates` names one → checked
 *   before every call (`repository.ts`: inside the work tree, or the linked worktree's or
 *   submodule's folder that names this work tree back), then pinned with `GIT_DIR` and
 *   `GIT_COMMON_DIR`, so git discovers nothing else; no `.git` at all → `not-a-repository`
 *   without running git (which could otherwise find a bare repository above).
 * - files git reads whole, which a repository can make endless: `.git/info/attributes` linked to
 *   `/dev/zero`, or `diff.orderFile` / `core.attributesFile` naming it, make git allocate until the
 *   machine runs out of memory → git runs under an address-space limit ({@link GIT_MEMORY_BYTES},
 *   `ulimit -v` in the `/bin/sh` that execs it), so it fails with "Out of memory" in a second;
 *   pack files are mapped within it (`core.packedGitLimit`). A FIFO there holds git until the
 *   call's timeout, which ends it with an error saying so and where to look.
 * Not reachable from these subcommands, so not overridden: `core.editor`, `sequence.editor`,
 * `gpg.program`, `merge.<driver>.driver`, `uploadpack.*`, `remote.<name>.uploadpack` (needs a
 * transport). Overrides are passed as `GIT_CONFIG_COUNT` variables, the highest configuration
 * scope, which git also hands to every git it starts itself (submodule status, lazy fetch).
 */
import { DialectError } from '../../dialect/index.js';
import { GitCode } from './codes.js';
import { FIXED_OVERRIDES, configEnvironment, driverOverrides } from './overrides.js';
import { findRepository, type GitRepository } from './repository.js';
import { withAbsoluteSearchPath } from '../search-path.js';

export { GitCode };

/** The git subcommands Dialect may run. */
export type GitSubcommand = 'diff' | 'ls-files' | 'rev-parse';

/** Options of one git call. */
export interface GitRunOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/** Flags every call of a subcommand gets, right after the subcommand name. */
const REQUIRED_FLAGS: Readonly<Record<GitSubcommand, readonly string[]>> = {
  diff: ['--no-ext-diff', '--no-textconv', '--ignore-submodules=dirty', '--submodule=short'],
  'ls-files': [],
  'rev-parse': [],
};

/** Caller flags that would undo a required flag (a later flag wins in git). */
const FORBIDDEN_FLAG = /^--(ext-diff|textconv|submodule|ignore-submodules|output|paginate)(=|$)/;

/** Variables set on every call (the caller's `GIT_*` variables are dropped first). */
const SAFE_ENV: Readonly<Record<string, string>> = {
  // Read-only commands should not take the index lock just to refresh it.
  GIT_OPTIONAL_LOCKS: '0',
  GIT_TERMINAL_PROMPT: '0',
  // Empty list: no transport (ext::, file, ssh, https, remote helpers) is allowed.
  GIT_ALLOW_PROTOCOL: '',
  GIT_NO_LAZY_FETCH: '1',
  LC_ALL: 'C',
};

const DEFAULT_TIMEOUT_MS = 20_000;
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * The address space a git process may use: far above what a diff needs (pack files are mapped
 * within `PACKED_GIT_LIMIT` of it), and a bound on a file a repository makes endless.
 */
export const GIT_MEMORY_BYTES = 4 * 1024 * 1024 * 1024;

/** Pack files git maps at once (its default on 64-bit is unlimited), within {@link GIT_MEMORY_BYTES}. */
const PACKED_GIT_LIMIT = '1g';

/** sh's exit status when the program it execs is not found. */
const COMMAND_NOT_FOUND = 127;

/** Runs git (`"$@"`) under the address-space limit `$0` (KiB); a shell whose hard limit is lower keeps its own. */
const UNDER_MEMORY_LIMIT = 'ulimit -v "$0" 2>/dev/null; exec git "$@"';

/**
 * Runs `git <subcommand> <required flags> <args>` in `cwd` and returns its stdout. Throws
 * `git-not-found`, or `git-failed` with git's message. Arguments must not re-enable what the
 * required flags turn off (a programming error, thrown as a plain `Error`).
 */
export async function runGit(cwd: string, subcommand: GitSubcommand, args: readonly string[], options: GitRunOptions = {}): Promise<string> {
  const end = args.indexOf('--');
  const bad = (end < 0 ? args : args.slice(0, end)).find((a) => FORBIDDEN_FLAG.test(a));
  if (bad !== undefined) throw new Error(`runGit: ${bad} would undo a safety flag`);
  // Which repository: checked (and then pinned) before git runs at all.
  const repository = findRepository(cwd);
  // The configuration is read per call, so the driver names match what this very call sees.
  const listing = await execGit(cwd, repository, ['config', '--list', '-z', '--includes'], FIXED_OVERRIDES, options);
  const overrides = [...FIXED_OVERRIDES, { key: 'core.packedGitLimit', value: PACKED_GIT_LIMIT }, ...driverOverrides(listing)];
  return execGit(cwd, repository, [subcommand, ...REQUIRED_FLAGS[subcommand], ...args], overrides, options);
}

async function execGit(cwd: string, repository: GitRepository, args: readonly string[], overrides: Parameters<typeof configEnvironment>[0], options: GitRunOptions): Promise<string> {
  // Loaded on first use: most programs run no git.
  const { execFile } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    const child = execFile(
      '/bin/sh',
      ['-c', UNDER_MEMORY_LIMIT, String(GIT_MEMORY_BYTES / 1024), '--no-pager', `--work-tree=${repository.workTree}`, ...args],
      {
        cwd,
        timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        maxBuffer: MAX_OUTPUT_BYTES,
        // The checked folders, pinned: git discovers no other repository (and reads no other commondir).
        env: { ...callerEnvironment(), ...SAFE_ENV, GIT_DIR: repository.gitDir, GIT_COMMON_DIR: repository.commonDir, ...configEnvironment(overrides) },
        ...(options.signal !== undefined ? { signal: options.signal } : {}),
      },
      (error, stdout, stderr) => {
        if (error === null) return resolve(stdout);
        if ((error as NodeJS.ErrnoException).code === 'ENOENT' || error.code === COMMAND_NOT_FOUND) {
          return reject(new DialectError({ code: GitCode.GitMissing, message: 'git is not installed', hint: 'install it: apt-get install -y git' }));
        }
        if (error.killed === true && options.signal?.aborted !== true) {
          // Stopped at the timeout: say so, not the shell's command line.
          const seconds = (options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000;
          return reject(
            new DialectError({
              code: GitCode.GitFailed,
              message: `git ${args[0] ?? ''} did not finish within ${seconds} s`,
              hint: 'git may be waiting on a special file where it reads settings — a FIFO or device as .gitattributes, .gitignore, .git/info/attributes or .git/info/exclude (find . -type p lists FIFOs); on a very large repository, narrow the range',
            }),
          );
        }
        const detail = stderr.trim() || error.message;
        const outOfMemory = /out of memory/i.test(detail);
        reject(
          new DialectError({
            code: GitCode.GitFailed,
            message: detail,
            ...(outOfMemory
              ? { hint: `git reached its memory bound of ${GIT_MEMORY_BYTES / (1024 * 1024 * 1024)} GiB: a file it reads may be endless — check .git/info/attributes and the settings diff.orderFile and core.attributesFile (git config --show-origin --get-regexp 'orderfile|attributesfile')` }
              : {}),
          }),
        );
      },
    );
    // Nothing git or a program it starts could read: no prompt can wait for an answer.
    child.stdin?.end();
  });
}

/** The process environment without any `GIT_*` variable. */
function callerEnvironment(): Record<string, string | undefined> {
  // PATH's folders absolute: git runs in the work tree, where `.` would find a `git` the repository ships.
  return withAbsoluteSearchPath(Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toUpperCase().startsWith('GIT_'))));
}
