/**
 * The configuration and environment that keep git from running any program a repository (or the
 * caller's environment) names. Pure data and string work; `run.ts` applies it to every git call.
 * Why each entry is needed, and how it was checked against real git, is in `run.ts`.
 */

/** One `key=value` configuration override, passed to git at the highest ("command") scope. */
export interface ConfigOverride {
  readonly key: string;
  readonly value: string;
}

/** The directory git looks for hooks in: a file, so no hook can ever be found. */
const NO_HOOKS_DIR = '/dev/null';

/** Overrides applied to every call, whatever the repository configures. */
export const FIXED_OVERRIDES: readonly ConfigOverride[] = [
  { key: 'core.fsmonitor', value: 'false' },
  { key: 'core.hooksPath', value: NO_HOOKS_DIR },
  { key: 'core.pager', value: 'cat' },
  // Empty: git skips the external diff when --no-ext-diff is given, and fails (runs nothing) if not.
  { key: 'diff.external', value: '' },
  // Network and credentials: nothing may connect, prompt, or ask a helper.
  { key: 'protocol.allow', value: 'never' },
  { key: 'credential.helper', value: '' },
  { key: 'core.askPass', value: '' },
  { key: 'core.sshCommand', value: '' },
  { key: 'core.alternateRefsCommand', value: '' },
  // Paths verbatim (UTF-8), so callers can parse them.
  { key: 'core.quotepath', value: 'off' },
];

/** Keys of `filter.<driver>.*` set to this turn a driver off (git skips empty commands). */
const FILTER_OFF: readonly ConfigOverride[] = [
  { key: 'clean', value: '' },
  { key: 'smudge', value: '' },
  { key: 'process', value: '' },
  // A required filter with no command is a fatal error; not required, the file passes through.
  { key: 'required', value: 'false' },
];

/** Program-naming keys of `diff.<driver>.*`, emptied when configured (see `driverOverrides`). */
const DIFF_DRIVER_PROGRAMS = new Set(['textconv', 'command']);

/**
 * Overrides that switch off every filter and diff-driver program configured anywhere, given the
 * output of `git config --list -z --includes` (entries `key\nvalue\0`; subsection names cannot
 * hold a newline, so the split is exact). Driver names are arbitrary strings chosen by
 * `.gitattributes`, so they are read from the configuration rather than guessed.
 */
export function driverOverrides(listing: string): ConfigOverride[] {
  const filters = new Set<string>();
  const diffKeys = new Set<string>();
  for (const entry of listing.split('\0')) {
    const key = entry.split('\n', 1)[0] ?? '';
    const parts = splitKey(key);
    if (parts === undefined) continue;
    if (parts.section === 'filter') filters.add(parts.subsection);
    else if (parts.section === 'diff' && DIFF_DRIVER_PROGRAMS.has(parts.name)) diffKeys.add(key);
  }
  return [
    ...[...filters].flatMap((driver) => FILTER_OFF.map((o) => ({ key: `filter.${driver}.${o.key}`, value: o.value }))),
    // Empty: git never consults these under --no-textconv/--no-ext-diff, and fails (runs nothing) if it did.
    ...[...diffKeys].map((key) => ({ key, value: '' })),
  ];
}

/** `section.subsection.name` → its parts (git's rule: subsection between the first and last dot). */
function splitKey(key: string): { section: string; subsection: string; name: string } | undefined {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first < 0 || last === first) return undefined;
  return { section: key.slice(0, first).toLowerCase(), subsection: key.slice(first + 1, last), name: key.slice(last + 1).toLowerCase() };
}

/**
 * Environment variables for the overrides (`GIT_CONFIG_COUNT`/`KEY_n`/`VALUE_n`): unlike `-c`,
 * keys and values are separate, so driver names holding `=` or spaces are passed exactly, and
 * git hands them on to every git it starts itself (submodules, lazy fetches).
 */
export function configEnvironment(overrides: readonly ConfigOverride[]): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(overrides.length) };
  overrides.forEach((o, i) => {
    env[`GIT_CONFIG_KEY_${i}`] = o.key;
    env[`GIT_CONFIG_VALUE_${i}`] = o.value;
  });
  return env;
}
