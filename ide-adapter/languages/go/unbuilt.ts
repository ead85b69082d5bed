/**
 * Go files the go command leaves out on this machine: a `//go:build` line false here (`windows`,
 * `darwin || freebsd`, `ignore`, a release newer than the installed go) or a file name for another
 * system or architecture (`debug_windows.go`, `zsys_linux_arm64.go`). gopls reads none of them, so
 * a name declared there is not found, and one declared here too looks like it has one definition:
 * fsnotify's `newBackend` is written once per platform in five files, and gopls on Linux knows one.
 * Dialect cannot load them (gopls builds for one platform); it says where the name is declared in
 * them (`ServerDefinition.unbuilt`), from a text search for the name's declaration lines.
 */
import { basename } from 'node:path';
import type { UnbuiltFiles } from '../../lsp/servers.js';
import { searchWorkspace, walkFiles } from '../../search.js';
import { Workspace } from '../../workspace.js';
import { evaluateConstraint, hostTag, releaseOf } from './release-tags.js';
import { installedGoVersion } from './toolchain.js';

/** The scan's time budget: past it, nothing is claimed. */
const UNBUILT_SCAN_BUDGET_MS = 5000;
/** At most this many constraint lines are read. */
const MAX_CONSTRAINT_LINES = 20_000;
/** At most this many Go files are listed to read their names. */
const MAX_LISTED_FILES = 50_000;
/** A constraint line longer than this is not read (a real one is a few dozen characters). */
const MAX_CONSTRAINT_CHARS = 1000;

/** Operating systems the go command knows (`go tool dist list`), for `_GOOS.go` file names. */
const KNOWN_OS = new Set(['aix', 'android', 'darwin', 'dragonfly', 'freebsd', 'hurd', 'illumos', 'ios', 'js', 'linux', 'nacl', 'netbsd', 'openbsd', 'plan9', 'solaris', 'wasip1', 'windows', 'zos']);
/** Architectures the go command knows, for `_GOARCH.go` file names. */
const KNOWN_ARCH = new Set([
  '386', 'amd64', 'amd64p32', 'arm', 'armbe', 'arm64', 'arm64be', 'loong64', 'mips', 'mipsle', 'mips64', 'mips64le', 'mips64p32', 'mips64p32le',
  'ppc', 'ppc64', 'ppc64le', 'riscv', 'riscv64', 's390', 's390x', 'sparc', 'sparc64', 'wasm',
]);

/** The host tags with the ones its system implies (`android` is also `linux`, `ios` `darwin`, `illumos` `solaris`). */
function hostOrImplied(tag: string): boolean {
  return hostTag(tag) || (tag === 'linux' && hostTag('android')) || (tag === 'darwin' && hostTag('ios')) || (tag === 'solaris' && hostTag('illumos'));
}

/**
 * Why the go command leaves a file out by its name (`_windows`, `_arm64`, `_linux_arm64`, before
 * `_test`), or undefined when its name builds here.
 */
export function nameConstraint(path: string): string | undefined {
  const parts = basename(path, '.go').replace(/_test$/, '').split('_');
  if (parts.length < 2) return undefined;
  const last = parts[parts.length - 1] as string;
  const before = parts.length >= 3 ? (parts[parts.length - 2] as string) : undefined;
  if (before !== undefined && KNOWN_OS.has(before) && KNOWN_ARCH.has(last)) return hostOrImplied(before) && hostOrImplied(last) ? undefined : `${before}_${last}`;
  if (KNOWN_OS.has(last) || KNOWN_ARCH.has(last)) return hostOrImplied(last) ? undefined : last;
  return undefined;
}

/**
 * Whether a `//go:build` expression is false here: the installed go's release tags (`go1.N` up to
 * `minor`; every release when the installed one is unknown) and the host's system and
 * architecture; every other tag (`ignore`, a custom tag, an experiment) is off, as the go command
 * sets it. An expression that does not parse is not claimed.
 */
export function constraintExcludes(expression: string, minor: number | undefined): boolean {
  const tags = (tag: string): boolean => {
    const release = releaseOf(tag);
    return release !== undefined ? minor === undefined || release <= minor : hostOrImplied(tag);
  };
  return evaluateConstraint(expression, tags) === false;
}

/**
 * The Go files of `root` the go command leaves out here, each with why (its constraint or the
 * system its name is for); undefined when the scan could not finish within its budget.
 */
async function unbuiltGoFiles(root: string, env: Readonly<Record<string, string | undefined>>, signal?: AbortSignal): Promise<ReadonlyMap<string, string> | undefined> {
  const minorText = /^1\.(\d+)/.exec(installedGoVersion(root, env) ?? '')?.[1];
  const minor = minorText === undefined ? undefined : Number(minorText);
  const workspace = new Workspace(root);
  const options = { timeoutMs: UNBUILT_SCAN_BUDGET_MS, ...(signal !== undefined ? { signal } : {}) };
  const out = new Map<string, string>();
  try {
    const [{ matches }, { files }] = await Promise.all([
      searchWorkspace(workspace, '.', '^//go:build\\s', { extensions: ['.go'], maxResults: MAX_CONSTRAINT_LINES, ...options }),
      walkFiles(workspace, '.', { glob: '**/*_*.go', limit: MAX_LISTED_FILES, ...options }),
    ]);
    for (const file of files) {
      const why = nameConstraint(file);
      if (why !== undefined) out.set(file, why);
    }
    for (const m of matches) {
      const expression = m.content.trim().slice('//go:build'.length).trim();
      if (expression.length > MAX_CONSTRAINT_CHARS || out.has(m.path)) continue;
      if (constraintExcludes(expression, minor)) out.set(m.path, expression);
    }
  } catch {
    return undefined; // Over budget or unreadable: nothing is claimed, and the next lookup asks again.
  }
  return out;
}

/**
 * A line that declares `name` at the top level: a function, a method, a type (alone or in a
 * group), a var or const. Qualified (`kqueue.readEvents`), a method must have one of the
 * qualifiers as its receiver's type (a package qualifier is not checked: Go files name their
 * package, not its path).
 */
function declaringLine(name: string, qualifiers: readonly string[]): string | undefined {
  const identifier = /^[\p{L}_][\p{L}\p{N}_]*$/u;
  if (!identifier.test(name) || !qualifiers.every((q) => identifier.test(q))) return undefined;
  const receiver = qualifiers.length > 0 ? `\\([^)]*\\b(${qualifiers.join('|')})\\b[^)]*\\)\\s*` : '(\\([^)]*\\)\\s*)?';
  return `^(func\\s*${receiver}${name}\\s*[[(]|func\\s+${name}\\s*[[(]|type\\s+${name}\\b|(var|const)\\s+${name}\\b|\\t${name}\\s+(struct|interface)\\b)`;
}

/** What a Go lookup says about the files this machine's build leaves out. */
export const goUnbuiltFiles: UnbuiltFiles = { list: unbuiltGoFiles, declaringLine };
