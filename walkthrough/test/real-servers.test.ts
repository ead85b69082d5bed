/**
 * The fixture tours (fixtures/walkthroughs/*.md) against real language servers on copies of
 * fixtures/rust-app and fixtures/ts-app, each copy made a git repository so gitdiff has history.
 * Expected positions are computed from the fixtures' text. Under CI=true a missing server fails.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFixtureSession, serversAvailable, type FixtureSession } from '../../ide-adapter/test/support/session.js';
import { environmentFor, parseWalkthrough, renderWalkthroughHtml, resolveWalkthrough, summarizeWalkthrough, WarningCode, type ResolvedWalkthrough } from '../index.js';
import { locate } from './support/fixture-env.js';

const tour = (name: string): string => readFileSync(fileURLToPath(new URL(`../../fixtures/walkthroughs/${name}`, import.meta.url)), 'utf8');

/** Three commits, then a staged and an unstaged change, none of which moves a source line. */
function makeHistory(root: string): void {
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], {
      cwd: root,
      stdio: 'ignore',
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    });
  };
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'fixture');
  writeFileSync(join(root, 'NOTES.md'), '# Notes\n\nfirst\n');
  git('add', '-A');
  git('commit', '-qm', 'notes');
  writeFileSync(join(root, 'NOTES.md'), '# Notes\n\nfirst\nsecond\n');
  git('commit', '-qam', 'more notes');
  writeFileSync(join(root, 'CHANGELOG.md'), 'staged\n');
  git('add', 'CHANGELOG.md');
  writeFileSync(join(root, 'NOTES.md'), '# Notes\n\nfirst\nsecond\nunstaged\n');
}

function statuses(resolved: ResolvedWalkthrough): string[] {
  return resolved.comments.map((c) => c.resolution.status);
}

function lineOf(resolved: ResolvedWalkthrough, index: number): { path: string; line: number } | undefined {
  const r = resolved.comments[index]?.resolution;
  return r?.status === 'resolved' ? { path: r.location.path, line: r.location.line } : undefined;
}

const rustAvailable = await serversAvailable('rust');
const tsAvailable = await serversAvailable('typescript');

describe.skipIf(!rustAvailable)('the Rust tour on rust-analyzer', () => {
  let f: FixtureSession;
  let resolved: ResolvedWalkthrough;

  beforeAll(async () => {
    f = await openFixtureSession('rust-app');
    makeHistory(f.root);
    resolved = await resolveWalkthrough(parseWalkthrough(tour('rust-tour.md')), environmentFor(f.session));
  }, 240_000);

  afterAll(async () => {
    await f?.dispose();
  });

  it('resolves, offers choices and reports errors exactly where the fixture text says', () => {
    expect(statuses(resolved), summarizeWalkthrough(resolved)).toEqual(['resolved', 'ambiguous', 'resolved', 'resolved', 'unresolved']);
    expect(lineOf(resolved, 0)).toEqual({ path: 'src/auth.rs', line: locate(f.root, 'src/auth.rs', 'pub fn authenticate').start.line });
    expect(lineOf(resolved, 2)).toEqual({ path: 'src/config.rs', line: locate(f.root, 'src/config.rs', 'pub struct Config').start.line });
    expect(lineOf(resolved, 3)).toEqual({ path: 'src/service.rs', line: locate(f.root, 'src/service.rs', 'fn escalate').start.line });
    const ambiguous = resolved.comments[1]?.resolution;
    if (ambiguous?.status !== 'ambiguous') throw new Error('expected an ambiguous comment');
    expect(ambiguous.choices.map((c) => [c.location.path, c.location.line, c.program]).sort()).toEqual([
      ['src/auth.rs', locate(f.root, 'src/auth.rs', 'pub fn validate_token').start.line, 'findDefinition("validate_token", file: "src/auth.rs")'],
      ['src/util.rs', locate(f.root, 'src/util.rs', 'pub fn validate_token').start.line, 'findDefinition("validate_token", file: "src/util.rs")'],
    ]);
    const unresolved = resolved.comments[4]?.resolution;
    expect(unresolved?.status === 'unresolved' ? unresolved.error.text : '').toContain('does_not_exist');
    // The summary names each choice's place once (its label says `… at src/auth.rs:N`).
    const auth = `src/auth.rs:${locate(f.root, 'src/auth.rs', 'pub fn validate_token').start.line}`;
    const choiceLine = summarizeWalkthrough(resolved).split('\n').find((l) => /^\s+\d+\. /.test(l) && l.includes(auth));
    expect(choiceLine?.split(auth).length).toBe(2);
  });

  it('keeps context lines from the workspace and checks every file link', () => {
    const first = resolved.comments[0]?.resolution;
    if (first?.status !== 'resolved') throw new Error('expected resolved');
    expect(first.location.text).toContain('pub fn authenticate');
    expect(first.location.context.lines.length).toBeGreaterThan(3);
    expect(resolved.links.map((l) => l.error)).toEqual(resolved.links.map(() => undefined));
    expect(resolved.warnings.filter((w) => w.code === WarningCode.BrokenLink)).toEqual([]);
  });

  it('diffs the copy’s real history, staged and unstaged changes', () => {
    const [range, staged, unstaged] = resolved.diffs;
    expect(range?.files?.map((d) => d.path)).toEqual(['NOTES.md']);
    expect(staged?.files?.map((d) => d.path)).toEqual(['CHANGELOG.md']);
    expect(unstaged?.files?.map((d) => d.path)).toEqual(['NOTES.md']);
  });

  it('renders a page with every element', () => {
    const html = renderWalkthroughHtml(resolved);
    for (const id of ['comment-5', 'action-3', 'mermaid-3', 'gitdiff-3']) expect(html).toContain(`id="wt-${id}"`);
  });
});

describe.skipIf(!tsAvailable)('the TypeScript tour on the TypeScript server', () => {
  let f: FixtureSession;
  let resolved: ResolvedWalkthrough;

  beforeAll(async () => {
    f = await openFixtureSession('ts-app');
    makeHistory(f.root);
    resolved = await resolveWalkthrough(parseWalkthrough(tour('ts-tour.md')), environmentFor(f.session));
  }, 240_000);

  afterAll(async () => {
    await f?.dispose();
  });

  it('resolves, offers choices and reports errors exactly where the fixture text says', () => {
    expect(statuses(resolved), summarizeWalkthrough(resolved)).toEqual(['resolved', 'ambiguous', 'resolved', 'resolved', 'unresolved']);
    expect(lineOf(resolved, 0)).toEqual({ path: 'src/auth.ts', line: locate(f.root, 'src/auth.ts', 'export function authenticate').start.line });
    expect(lineOf(resolved, 2)).toEqual({ path: 'src/config.ts', line: locate(f.root, 'src/config.ts', 'export interface Config').start.line });
    expect(lineOf(resolved, 3)).toEqual({ path: 'src/service.ts', line: locate(f.root, 'src/service.ts', 'export function escalate').start.line });
    const ambiguous = resolved.comments[1]?.resolution;
    if (ambiguous?.status !== 'ambiguous') throw new Error('expected an ambiguous comment');
    expect(ambiguous.choices.map((c) => c.location.path).sort()).toEqual(['src/auth.ts', 'src/util.ts']);
    expect(resolved.warnings).toEqual([]);
  });

  it('diffs the copy’s history', () => {
    expect(resolved.diffs.map((d) => d.error)).toEqual([undefined, undefined, undefined]);
    expect(resolved.diffs[0]?.files?.map((d) => d.path)).toEqual(['NOTES.md']);
  });
});
