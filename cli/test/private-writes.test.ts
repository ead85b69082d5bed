/**
 * The CLI's private files go through the safe writer (`ide-adapter/safe-write.ts`): the REPL
 * history and the background server's start lock are never written through a link.
 */
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SafeWriteError } from '../../ide-adapter/safe-write.js';
import { History } from '../history.js';
import { takeOverLock, tryLock } from '../server/lock.js';

const OUTSIDE = 'outside, untouched\n';

describe('the CLI writes its private files safely', () => {
  let dir: string;
  let victim: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dialect-private-writes-'));
    victim = join(dir, 'victim.txt');
    writeFileSync(victim, OUTSIDE);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('the REPL history reports a linked history file once and writes nothing through it', async () => {
    const link = join(dir, 'history');
    symlinkSync(victim, link);
    const errors: string[] = [];
    const history = await History.load(link, (m) => errors.push(m));
    await history.append(['findDefinitions("User")']);
    await history.append(['findDefinitions("Task")']);
    expect(readFileSync(victim, 'utf8')).toBe(OUTSIDE);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('it is a symbolic link');
  });

  it('the start lock: taken once, refused to a second taker, handed over by a rename; never through a link', () => {
    const lock = join(dir, 'server.lock');
    expect(tryLock(lock, process.pid)).toBe(true);
    expect(tryLock(lock, process.pid)).toBe(false);
    takeOverLock(lock, process.pid);
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid}\n`);
    const linked = join(dir, 'linked.lock');
    symlinkSync(victim, linked);
    expect(() => tryLock(linked, process.pid)).toThrow(SafeWriteError);
    expect(() => takeOverLock(linked, process.pid)).toThrow(SafeWriteError);
    expect(readFileSync(victim, 'utf8')).toBe(OUTSIDE);
  });
});
