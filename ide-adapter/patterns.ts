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

/** A character that stands for itself outside a class in every mode: ASCII, never a line break. */
const LITERAL_CHAR = /^[\w ,:;'"<>=@#%&~`!/-]$/;

/** A counted quantifier, `{2}`, `{2,}`, `{2,5}`. */
const QUANTIFIER_BRACES = /^\{\d+(?:,\d*)?\}/;

/** How many characters after `\` at `at` the escape takes in all (at least the one). */
function escapeLength(source: string, at: number): number {
  const c = source[at + 1] ?? '';
  const run = (from: number, allowed: RegExp, max: number): number => {
    let n = 0;
    while (n < max && allowed.test(source[from + n] ?? '')) n++;
    return n;
  };
  const braced = (from: number): number => (source[from] === '{' ? run(from + 1, /^[\w=]$/, Infinity) + (source[from + 1 + run(from + 1, /^[\w=]$/, Infinity)] === '}' ? 2 : 1) : 0);
  if (c === 'x') return 2 + run(at + 2, /^[0-9a-fA-F]$/, 2);
  if (c === 'u') return 2 + (source[at + 2] === '{' ? braced(at + 2) : run(at + 2, /^[0-9a-fA-F]$/, 4));
  if (c === 'p' || c === 'P') return 2 + braced(at + 2);
  if (c === 'c') return 2 + run(at + 2, /^[A-Za-z]$/, 1);
  if (c === 'k' && source[at + 2] === '<') return 3 + run(at + 3, /^[\w$]$/, Infinity) + (source[at + 3 + run(at + 3, /^[\w$]$/, Infinity)] === '>' ? 1 : 0);
  if (/^[0-9]$/.test(c)) return 2 + run(at + 2, /^[0-9]$/, Infinity);
  return 2;
}

/**
 * The longest run of literal characters every match of `source` (a user regex, compiled by
 * `compileUserRegex`: no flags) contains, when there is one of two characters or more: a line
 * without it cannot match, so a search skips files and lines that lack it. Conservative: any
 * construct it does not read as plain (escapes, classes, groups, quantified characters) only
 * ends a run, and a top-level `|` means there is none.
 */
export function requiredLiteral(source: string): string | undefined {
  let best = '';
  let run = '';
  let depth = 0;
  const endRun = (): void => {
    if (run.length > best.length) best = run;
    run = '';
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (c === '\\') {
      endRun();
      i += escapeLength(source, i) - 1;
    } else if (c === '[') {
      endRun();
      // A class ends at its first unescaped `]` (`[]` is the empty class).
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
    } else if (c === '(') {
      endRun();
      depth++;
    } else if (c === ')') {
      endRun();
      depth--;
    } else if (c === '|') {
      if (depth === 0) return undefined;
    } else if (c === '?' || c === '*' || c === '{') {
      // The character before is optional (or repeated a number of times not read here).
      run = run.slice(0, -1);
      endRun();
      if (c === '{') i += (QUANTIFIER_BRACES.exec(source.slice(i))?.[0].length ?? 1) - 1;
    } else if (depth === 0 && LITERAL_CHAR.test(c)) {
      run += c;
    } else {
      endRun(); // `.`, `^`, `$`, `+` (the character before still occurs), anything inside a group
    }
  }
  endRun();
  return best.length >= 2 ? best : undefined;
}
