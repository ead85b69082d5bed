/**
 * PATH as Dialect reads it to find a program and hands it to the programs it runs: absolute
 * folders only. An entry that is not absolute — `.`, an empty one (POSIX reads it as `.`), or a
 * folder such as `node_modules/.bin` — names a folder relative to where the program runs, and
 * Dialect runs git, the language servers and their tools in the workspace: there such an entry
 * would run the workspace's own `git`, `clangd` or `cargo`, trusted or not. Every place that looks a
 * program up on PATH or passes PATH to a child takes it from here.
 */
import { delimiter, isAbsolute } from 'node:path';

/** The absolute folders of `path` (a PATH value), in order. */
export function searchPathFolders(path: string | undefined): string[] {
  return (path ?? '').split(delimiter).filter((dir) => dir !== '' && isAbsolute(dir));
}

/** `env` with its PATH holding only absolute folders (unchanged when it has no PATH). */
export function withAbsoluteSearchPath<T extends Readonly<Record<string, string | undefined>>>(env: T): T {
  const path = env['PATH'];
  if (path === undefined) return env;
  const absolute = searchPathFolders(path).join(delimiter);
  return absolute === path ? env : { ...env, PATH: absolute };
}
