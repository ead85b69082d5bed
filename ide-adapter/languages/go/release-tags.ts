/**
 * Go files whose build constraint asks for a newer go release than the installed one
 * (`//go:build go1.23` under go 1.19): the go command leaves them out, so gopls knows nothing of
 * their names, and an answer would be silently short (seen on samber/lo: its whole `it` package).
 * One warning counts them, names one, and says which go brings them in. Files a constraint leaves
 * out for another reason (another OS, an experiment, a custom tag) are how the code is meant to
 * build here and are not counted.
 */
import { searchWorkspace } from '../../search.js';
import { MAX_NOTE_LINE } from '../../notes-ledger.js';
import type { KeyedWarning } from '../../lsp/servers.js';
import { Workspace } from '../../workspace.js';
import { FILE_JOB_BUDGET_MS } from '../../file-jobs.js';

/**
 * The scan's time budget: past it, nothing is claimed. The file jobs' own (a regex search of the
 * `.go` files takes well under a second on large trees; 3 s ran out on a small fixture under a
 * loaded machine's queue of jobs, and the note went missing).
 */
const RELEASE_SCAN_BUDGET_MS = FILE_JOB_BUDGET_MS;

/** At most this many constraint lines are read (a repository has a few dozen). */
const MAX_CONSTRAINT_LINES = 5000;

/** A constraint line longer than this is not read (a real one is a few dozen characters). */
const MAX_CONSTRAINT_CHARS = 1000;

/** The lines that may name a release: `//go:build … go1.N …` (the `// +build` form is older than any go that reads `go1.N` alone). */
const CONSTRAINT_LINE = '^//go:build\\s.*\\bgo1\\.\\d+';

/** The program that lists the lines the note counts (with some lines it does not). */
const LISTED_BY = ` (search(".", "^//go:build.*go1") lists them)`;

/** A tag's truth: the release tags by version, every other tag as the host sets it. */
type Tags = (tag: string) => boolean;

/**
 * The value of a `//go:build` expression (`!`, `&&`, `||`, parentheses, tags), or `undefined`
 * when it is not one. Recursive descent over at most {@link MAX_CONSTRAINT_CHARS} characters.
 */
export function evaluateConstraint(expression: string, tags: Tags): boolean | undefined {
  const tokens = expression.match(/\(|\)|!|&&|\|\||[A-Za-z0-9_.]+|\S/g) ?? [];
  let at = 0;
  const or = (): boolean | undefined => {
    let value = and();
    while (value !== undefined && tokens[at] === '||') {
      at++;
      const right = and();
      value = right === undefined ? undefined : value || right;
    }
    return value;
  };
  const and = (): boolean | undefined => {
    let value = not();
    while (value !== undefined && tokens[at] === '&&') {
      at++;
      const right = not();
      value = right === undefined ? undefined : value && right;
    }
    return value;
  };
  const not = (): boolean | undefined => {
    const token = tokens[at++];
    if (token === '!') {
      const value = not();
      return value === undefined ? undefined : !value;
    }
    if (token === '(') {
      const value = or();
      return tokens[at++] === ')' ? value : undefined;
    }
    return token !== undefined && /^[A-Za-z0-9_.]+$/.test(token) ? tags(token) : undefined;
  };
  const value = or();
  return at === tokens.length ? value : undefined;
}

/** The minor release of a `go1.N` tag, else undefined. */
export function releaseOf(tag: string): number | undefined {
  const m = /^go1\.(\d+)$/.exec(tag);
  return m === null ? undefined : Number(m[1]);
}

/** The host's own tags: its GOOS and GOARCH, `unix` where it is one, `gc`, `cgo`. */
export function hostTag(tag: string): boolean {
  const goos = process.platform === 'win32' ? 'windows' : process.platform;
  const goarch = ({ x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm' } as Record<string, string>)[process.arch] ?? process.arch;
  return tag === goos || tag === goarch || tag === 'gc' || tag === 'cgo' || (tag === 'unix' && goos !== 'windows');
}

/**
 * The release a constraint waits for: the oldest `go1.N` it names under which it is true, when
 * it is false under the installed go (`minor`); undefined when no release makes it true here.
 */
export function releaseNeeded(expression: string, minor: number): number | undefined {
  const under = (release: number) => (tag: string): boolean => {
    const tagged = releaseOf(tag);
    return tagged !== undefined ? tagged <= release : hostTag(tag);
  };
  if (evaluateConstraint(expression, under(minor)) !== false) return undefined;
  const releases = [...new Set((expression.match(/\bgo1\.\d+\b/g) ?? []).map((t) => releaseOf(t) ?? 0))].filter((r) => r > minor).sort((x, y) => x - y);
  return releases.find((release) => evaluateConstraint(expression, under(release)) === true);
}

/**
 * The warning when some Go files wait for a newer go than `installed` (`1.19.8`); none when none
 * do, or when the scan could not finish within its budget.
 */
export async function newerReleaseWarnings(root: string, installed: string | undefined): Promise<KeyedWarning[]> {
  const minor = installed === undefined ? undefined : /^1\.(\d+)/.exec(installed)?.[1];
  if (minor === undefined || installed === undefined) return [];
  let matches;
  try {
    ({ matches } = await searchWorkspace(new Workspace(root), '.', CONSTRAINT_LINE, { extensions: ['.go'], maxResults: MAX_CONSTRAINT_LINES, timeoutMs: RELEASE_SCAN_BUDGET_MS }));
  } catch {
    return []; // Over budget or unreadable: nothing is claimed.
  }
  const left = matches.flatMap((m) => {
    const line = m.content.trim();
    if (line.length > MAX_CONSTRAINT_CHARS) return [];
    const needed = releaseNeeded(line.slice('//go:build'.length), Number(minor));
    return needed === undefined ? [] : [{ path: m.path, needed }];
  });
  const first = left[0];
  if (first === undefined) return [];
  const newest = Math.max(...left.map((l) => l.needed));
  const text = (which: string): string => `Go: ${which} go > ${installed}, which leaves out ${left.length === 1 ? 'its' : 'their'} names${LISTED_BY}. Fix: install go 1.${newest} or newer`;
  const named = text(left.length === 1 ? `1 file (${first.path}) needs` : `${left.length} files (${first.path} and ${left.length - 1} more) need`);
  const counted = text(`${left.length} file${left.length === 1 ? ' needs' : 's need'}`);
  return [{ key: 'go-files-need-newer-go', text: named.length <= MAX_NOTE_LINE ? named : counted }];
}
