/**
 * What a Go workspace can make gopls run, against the real gopls and go: a `#cgo pkg-config:`
 * package makes `go list` run the first `pkg-config` on PATH as soon as gopls loads it. With a
 * PATH that leads to a folder of the workspace (a `./bin` on PATH, direnv), the workspace's own
 * `pkg-config` runs — when trusted (that is what trust is for: cgo packages load). Untrusted,
 * nothing of the workspace runs (no cgo, PATH without workspace folders), and gopls still answers.
 */
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderOutcome } from '../../dialect/index.js';
import type { SymbolDefinition } from '../model.js';
import { goplsServer } from '../languages/go/index.js';
import { IdeSession } from '../session.js';
import { requireServer } from './support/servers.js';

const available = (await requireServer(goplsServer)) !== undefined;
const READY_MS = 120_000;

/** A module with a cgo package asking pkg-config, and a fake pkg-config in its `bin/` that leaves a marker. */
async function hostileWorkspace(): Promise<{ root: string; marker: string; env: Record<string, string> }> {
  const root = join(await realpath(await mkdtemp(join(tmpdir(), 'dialect-go-trust-'))), 'ws');
  await mkdir(join(root, 'c'), { recursive: true });
  await mkdir(join(root, 'bin'));
  const marker = join(root, 'PKG_CONFIG_RAN');
  await writeFile(join(root, 'go.mod'), 'module example.com/hostile\n\ngo 1.19\n');
  await writeFile(join(root, 'c', 'cgo.go'), 'package c\n\n// #cgo pkg-config: fakelib\nimport "C"\n\n// FromC needs cgo.\nfunc FromC() int { return 1 }\n');
  await writeFile(join(root, 'c', 'plain.go'), 'package c\n\n// Answer is plain Go.\nfunc Answer() int { return 42 }\n');
  await writeFile(join(root, 'bin', 'pkg-config'), `#!/bin/sh\necho "$@" >> '${marker}'\necho ''\n`);
  await chmod(join(root, 'bin', 'pkg-config'), 0o755);
  return { root, marker, env: { PATH: `${join(root, 'bin')}:${process.env['PATH'] ?? ''}` } };
}

describe.skipIf(!available)('Go trust: programs a workspace names (real gopls and go)', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  async function open(trusted: boolean): Promise<{ session: IdeSession; marker: string }> {
    const { root, marker, env } = await hostileWorkspace();
    const session = await IdeSession.open({ workspaceRoot: root, env, trusted, readyTimeoutMs: READY_MS });
    cleanup = async () => {
      await session.shutdown();
      await rm(join(root, '..'), { recursive: true, force: true });
    };
    await session.waitUntilReady({ timeoutMs: READY_MS });
    return { session, marker };
  }

  it('untrusted: the workspace pkg-config never runs, and gopls still answers', async () => {
    const { session, marker } = await open(false);
    const o = await session.evaluate('findDefinitions("Answer")');
    if (o.kind !== 'value') throw new Error(`expected a value, got ${o.kind}`);
    expect((o.value as SymbolDefinition[]).map((d) => d.definedAt.path)).toEqual(['c/plain.go']);
    expect(existsSync(marker)).toBe(false);
    // The one untrusted note says what is left out, and how to trust the workspace.
    expect(o.notes.filter((n) => n.includes('without cgo') && n.includes('dialect trust'))).toHaveLength(1);
  });

  it("a go.mod `toolchain` line this go cannot read: gopls is ready (its lasting error is no work in progress) but unloaded, and the answer says why", async () => {
    const root = join(await realpath(await mkdtemp(join(tmpdir(), 'dialect-go-toolchain-'))), 'ws');
    await mkdir(join(root, 'p'), { recursive: true });
    await writeFile(join(root, 'go.mod'), 'module example.com/tc\n\ngo 1.21\n\ntoolchain go1.21.0\n');
    await writeFile(join(root, 'p', 'p.go'), 'package p\n\n// Answer is plain Go.\nfunc Answer() int { return 42 }\n');
    const session = await IdeSession.open({ workspaceRoot: root, trusted: false, readyTimeoutMs: READY_MS });
    cleanup = async () => {
      await session.shutdown();
      await rm(join(root, '..'), { recursive: true, force: true });
    };
    const completeness = await session.backend.waitUntilReady({ timeoutMs: READY_MS });
    const gopls = completeness.servers.find((s) => s.id === 'gopls');
    expect(gopls?.state).toBe('ready');
    expect(gopls?.health?.level).toBe('error');
    // An empty lookup is not "not found": gopls loaded nothing, and the answer says why, with the fix.
    const o = await session.evaluate('findDefinitions("Answer")');
    expect(renderOutcome(o)).toContain('workspace-not-loaded');
    // Said once: the error states why (with the fix), so no note repeats it.
    const text = renderOutcome(o);
    expect(text.match(/`toolchain` line/g), text).toHaveLength(1);
    expect(text).toContain('install go 1.21');
    expect(o.notes.filter((n) => n.includes('`toolchain` line'))).toEqual([]);
  });

  it('trusted: cgo packages load, so the pkg-config they name runs', async () => {
    const { session, marker } = await open(true);
    const o = await session.evaluate('findDefinitions("FromC")');
    if (o.kind !== 'value') throw new Error(`expected a value, got ${o.kind}`);
    expect((o.value as SymbolDefinition[]).map((d) => d.definedAt.path)).toEqual(['c/cgo.go']);
    expect(existsSync(marker)).toBe(true);
  });
});
