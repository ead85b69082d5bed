/**
 * How user patterns (regular expressions and globs) are compiled. One policy for every place a
 * user pattern is matched — `search`, `findFiles`, walkthrough file links — so they behave alike.
 * Compiling is cheap and safe on any thread; *matching* can backtrack without end, so it only
 * ever happens inside the file worker under a time budget (`file-jobs.ts`).
 */
import picomatch from 'picomatch';

/**
 * A user's regular expression: Unicode-aware when it is valid as such (so `.` matches an emoji
 * and `\u{1F600}` works), else as plain JavaScript reads it (`\-`, a lone `{`). Throws the
 * plain-mode `SyntaxError` for an invalid pattern.
 */
export function compileUserRegex(source: string, flags = ''): RegExp {
  try {
    return new RegExp(source, `${flags}u`);
  } catch {
    return new RegExp(source, flags);
  }
}

/** Why a regular expression is invalid, or undefined when it is valid. */
export function regexProblem(source: string): string | undefined {
  try {
    compileUserRegex(source);
    return undefined;
  } catch (error) {
    return (error as Error).message.replace(/^Invalid regular expression: /, '');
  }
}

/**
 * A user's glob over workspace-relative paths: dot files included; a pattern without `/` matches
 * file names anywhere (`*.rs`), one with `/` matches whole paths (`src/**\/model*`).
 */
export function compileUserGlob(glob: string): (path: string) => boolean {
  const match = picomatch(glob, { dot: true });
  if (glob.includes('/')) return match;
  // The file name against the pattern: what picomatch's `basename` option does, without its
  // per-path splitting (most of a large findFiles' time).
  return (path) => match(path.slice(path.lastIndexOf('/') + 1));
}
