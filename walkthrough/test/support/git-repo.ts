/** A small real git repository in a temp dir: three commits, then staged, unstaged and untracked changes. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SampleRepository {
  readonly root: string;
  dispose(): void;
}

export function createSampleRepository(): SampleRepository {
  const root = mkdtempSync(join(tmpdir(), 'wt-git-'));
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], {
      cwd: root,
      stdio: 'ignore',
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    });
  };
  const write = (path: string, text: string): void => writeFileSync(join(root, path), text);
  mkdirSync(join(root, 'src'));
  git('init', '-q');
  write('src/greet.rs', 'pub fn greet() -> &\'static str {\n    "hello"\n}\n');
  write('src/old_name.rs', 'pub const A: u32 = 1;\npub const B: u32 = 2;\npub const C: u32 = 3;\npub const D: u32 = 4;\n');
  write('notes.txt', 'first\n');
  git('add', '-A');
  git('commit', '-qm', 'one');
  write('src/greet.rs', 'pub fn greet() -> &\'static str {\n    "hello, world"\n}\n');
  write('src/added.rs', 'pub fn added() {}\n');
  git('add', '-A');
  git('commit', '-qm', 'two');
  renameSync(join(root, 'src/old_name.rs'), join(root, 'src/new_name.rs'));
  git('add', '-A');
  git('commit', '-qm', 'three: rename');
  write('src/added.rs', 'pub fn added() {}\npub fn staged() {}\n');
  git('add', 'src/added.rs');
  write('notes.txt', 'first\nunstaged line\n');
  write('untracked.txt', 'new file\n');
  return { root, dispose: () => rmSync(root, { recursive: true, force: true }) };
}
