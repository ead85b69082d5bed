/**
 * A go.mod that asks for a newer go than the one installed: go 1.19 loads it without a word, and
 * every use of a newer standard-library API (`r.SetPathValue`, go 1.22) shows as a compiler error
 * in diagnostics and resolves nowhere — true of the installed go, misleading about the code. One
 * note says so, with both versions and the fix. The real go on PATH; go.mod asks one minor more.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goplsServer } from '../languages/go/index.js';
import { installedGoVersion } from '../languages/go/toolchain.js';
import { goOutside } from '../languages/go/trust.js';
import { requireServer } from './support/servers.js';

const available = (await requireServer(goplsServer)) !== undefined && goOutside('/nonexistent', process.env) !== undefined;

describe.runIf(available)('a go.mod newer than the installed go (the real go on PATH)', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'dialect-gonewer-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('is said once, naming both versions and the fix; a go.mod the installed go satisfies says nothing', async () => {
    const installed = installedGoVersion(root, process.env);
    // The GOROOT of the go on PATH says its release (`go1.19.8`) in its VERSION file.
    const release = (await readFile(join(goOutside(root, process.env) ?? '', '..', '..', 'VERSION'), 'utf8')).split('\n')[0]?.trim() ?? '';
    expect(installed).toBe(release.slice('go'.length));
    const minor = Number(/^go1\.(\d+)/.exec(release)?.[1]);
    await writeFile(join(root, 'go.mod'), `module example.com/newer\n\ngo 1.${minor + 1}\n`);
    const prepared = await goplsServer.prepare?.(root, process.env);
    const notes = (prepared?.warnings ?? []).filter((w) => w.key === 'go-version-too-new');
    expect(notes).toHaveLength(1);
    expect(notes[0]?.text).toContain(`go.mod asks for go 1.${minor + 1}`);
    expect(notes[0]?.text).toContain(`the installed go is ${installed ?? '?'}`);
    expect(notes[0]?.text).toMatch(/Fix: install go 1\.\d+ or newer/);
    await writeFile(join(root, 'go.mod'), `module example.com/newer\n\ngo 1.${minor}\n`);
    expect(((await goplsServer.prepare?.(root, process.env))?.warnings ?? []).filter((w) => w.key === 'go-version-too-new')).toEqual([]);
  });
});
