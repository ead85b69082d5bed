/**
 * A real git repository in a temp dir whose configuration names programs (filters, textconv,
 * hooks, fsmonitor…). Each program, if git ever runs it, leaves a marker file named after it, so a
 * test can prove nothing ran. Set-up commands run with hooks off and before the hostile
 * configuration is written, so only the code under test can trigger the programs.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** How a hostile program behaves after leaving its marker. */
export type ProgramBehaviour =
  /** Copies stdin to stdout (a clean/smudge filter that changes nothing). */
  | 'pass-stdin'
  /** Prints the file named by its last argument (a textconv that changes nothing). */
  | 'print-file'
  /** Exits at once. */
  | 'exit';

/** A hostile repository; see the module comment. */
export interface HostileRepo {
  /** The work tree (also the Dialect workspace). */
  readonly root: string;
  /** The file every test changes, relative to `root`. */
  readonly changedPath: string;
  /** Runs git in the repository for set-up (hooks off, no system/global config). */
  git(...args: string[]): string;
  /** Writes a file under `root` (parents created). */
  write(path: string, text: string): void;
  /** Sets a key in `.git/config`. */
  config(key: string, value: string): void;
  /** A program that leaves the marker `name` when run; returns its absolute path. */
  program(name: string, behaviour: ProgramBehaviour): string;
  /** The markers left so far (names of programs that ran). */
  fired(): string[];
  dispose(): void;
}

/** The committed text of `changedPath` and the line every test changes in it. */
export const ORIGINAL_TEXT = 'alpha\nbeta\ngamma\n';
export const CHANGED_TEXT = 'alpha\nBETA changed\ngamma\n';
export const ADDED_LINE = 'BETA changed';

const SETUP_ENV = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@e',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@e',
};

/** A repository with one commit of `src/app.txt` (= `ORIGINAL_TEXT`). */
export function createHostileRepo(): HostileRepo {
  const base = mkdtempSync(join(tmpdir(), 'dialect-hostile-'));
  const root = join(base, 'repo');
  const markers = join(base, 'markers');
  const bin = join(base, 'bin');
  for (const dir of [root, markers, bin]) mkdirSync(dir, { recursive: true });
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'core.hooksPath=/dev/null', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...SETUP_ENV },
    });
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  git('init', '-q');
  write('src/app.txt', ORIGINAL_TEXT);
  git('add', '-A');
  git('commit', '-qm', 'base');
  return {
    root,
    changedPath: 'src/app.txt',
    git,
    write,
    config: (key, value) => {
      git('config', key, value);
    },
    program: (name, behaviour) => {
      const path = join(bin, name);
      const then = behaviour === 'pass-stdin' ? 'cat' : behaviour === 'print-file' ? 'for last; do :; done; cat "$last"' : 'exit 0';
      writeFileSync(path, `#!/bin/sh\ntouch '${join(markers, name)}'\n${then}\n`);
      chmodSync(path, 0o755);
      return path;
    },
    fired: () => readdirSync(markers).sort(),
    dispose: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** Gives a file an old modification time, so git must re-check it (and refresh the index). */
export function makeStatDirty(root: string, path: string): void {
  const old = new Date('2001-01-01T00:00:00Z');
  utimesSync(join(root, path), old, old);
}
