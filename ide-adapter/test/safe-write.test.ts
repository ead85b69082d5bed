/**
 * The one safe writer (`safe-write.ts`), on a real file system: a link at the name is never
 * followed (the file it leads to keeps its content), a file the writer did not create is never
 * replaced, and what the writers of private files (history, records, the lock, the log) may do
 * still works. Each writer of the product is one of these calls (the CLI's own writers:
 * `cli/test/private-writes.test.ts`).
 */
import { lstatSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendFileSafelySync, openFreshFileSync, SafeWriteError, WriteCode, writeFileSafelySync } from '../safe-write.js';

const OUTSIDE = 'outside, untouched\n';
const OURS = { kind: 'ours', prefix: '<!-- ours -->\n', what: 'one of ours' } as const;

describe('the safe writer', () => {
  let dir: string;
  let victim: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dialect-safe-write-'));
    mkdirSync(join(dir, 'outside'));
    victim = join(dir, 'outside', 'victim.txt');
    writeFileSync(victim, OUTSIDE);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const refusal = (write: () => unknown): SafeWriteError => {
    try {
      write();
    } catch (error) {
      if (error instanceof SafeWriteError) return error;
      throw error;
    }
    throw new Error('the write was not refused');
  };

  it.each([['never'], ['ours'], ['private']] as const)('policy %s: a symlink at the name is refused with its target named; the outside file is unchanged', (kind) => {
    const link = join(dir, 'page.html');
    symlinkSync(victim, link);
    const policy = kind === 'ours' ? OURS : { kind };
    const error = refusal(() => writeFileSafelySync(link, 'hostile', { replace: policy, alternative: 'choose another path' }));
    expect(error.code).toBe(WriteCode.RefusedLink);
    expect(error.path).toBe(link);
    expect(error.message).toBe(`refused to write ${link}: it is a symbolic link (to ${victim}), and Dialect never writes through a link`);
    expect(error.hint).toBe('remove the link, or choose another path');
    expect(readFileSync(victim, 'utf8')).toBe(OUTSIDE);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('never replaces a file that is not its own; replaces one that begins with its mark', () => {
    const path = join(dir, 'page.html');
    writeFileSync(path, 'their file');
    expect(refusal(() => writeFileSafelySync(path, 'x', { replace: OURS })).code).toBe(WriteCode.RefusedExisting);
    expect(refusal(() => writeFileSafelySync(path, 'x', { replace: { kind: 'never' } })).code).toBe(WriteCode.RefusedExisting);
    expect(readFileSync(path, 'utf8')).toBe('their file');
    writeFileSync(path, `${OURS.prefix}old page`);
    writeFileSafelySync(path, `${OURS.prefix}new page`, { replace: OURS });
    expect(readFileSync(path, 'utf8')).toBe(`${OURS.prefix}new page`);
  });

  it('a hard link to an outside file is replaced as a name, never written through', () => {
    const path = join(dir, 'history');
    execFileSync('ln', [victim, path]);
    writeFileSafelySync(path, 'new history\n', { replace: { kind: 'private' }, mode: 0o600 });
    expect(readFileSync(path, 'utf8')).toBe('new history\n');
    expect(readFileSync(victim, 'utf8')).toBe(OUTSIDE);
  });

  it('a FIFO or a folder at the name is refused, never opened', () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(refusal(() => writeFileSafelySync(fifo, 'x', { replace: { kind: 'private' } })).message).toContain('it is a FIFO, not a regular file');
    expect(refusal(() => appendFileSafelySync(fifo, 'x', 0o600)).code).toBe(WriteCode.RefusedSpecial);
    mkdirSync(join(dir, 'folder'));
    expect(refusal(() => writeFileSafelySync(join(dir, 'folder'), 'x', { replace: { kind: 'private' } })).code).toBe(WriteCode.RefusedSpecial);
  });

  it('appends only to a regular file, never through a link; creates it private', () => {
    const link = join(dir, 'history-link');
    symlinkSync(victim, link);
    expect(refusal(() => appendFileSafelySync(link, 'entry\n', 0o600)).code).toBe(WriteCode.RefusedLink);
    expect(readFileSync(victim, 'utf8')).toBe(OUTSIDE);
    const file = join(dir, 'history');
    appendFileSafelySync(file, 'a\n', 0o600);
    appendFileSafelySync(file, 'b\n', 0o600);
    expect(readFileSync(file, 'utf8')).toBe('a\nb\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a fresh log replaces the previous one of ours, never a link', () => {
    const log = join(dir, 'server.log');
    writeFileSync(log, 'old log');
    const fd = openFreshFileSync(log, 0o600);
    writeFileSync(fd, 'new log');
    expect(readFileSync(log, 'utf8')).toBe('new log');
    const link = join(dir, 'linked.log');
    symlinkSync(victim, link);
    expect(refusal(() => openFreshFileSync(link, 0o600)).code).toBe(WriteCode.RefusedLink);
    expect(readFileSync(victim, 'utf8')).toBe(OUTSIDE);
  });
});
