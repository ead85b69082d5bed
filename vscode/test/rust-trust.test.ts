/**
 * The extension's own rust-analyzer obeys the product's trust rules: in an UNTRUSTED VS Code window
 * (restricted mode) a crate whose build script and `.cargo/config.toml` rustc-wrapper each leave a
 * marker file gets answers with neither ever running; in a trusted window both run (so the markers
 * prove the test can fail). Real code-server, Chromium, rust-analyzer and cargo.
 */
import { existsSync, watch } from 'node:fs';
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reference } from '../../ide-adapter/model.js';
import { rustAnalyzerServer } from '../../ide-adapter/languages/rust/index.js';
import { connectRemoteBackend } from '../../ide-adapter/remote/remote-backend.js';
import { IdeSession } from '../../ide-adapter/session.js';
import { rustOfflineEnv } from '../../ide-adapter/test/support/rust-offline.js';
import { requireServer } from '../../ide-adapter/test/support/servers.js';
import { Workspace } from '../../ide-adapter/workspace.js';
import { openVsCode, requireRig } from './support/rig.js';

const rig = await requireRig();
const env = await rustOfflineEnv();
const rustAnalyzer = await requireServer(rustAnalyzerServer, env);

/** Bounds of the waits: the window's language server loading, the handshake, a marker appearing. */
const READY_TIMEOUT_MS = 90_000;
const CONNECT_TIMEOUT_MS = 10_000;
const MARKER_WAIT_MS = 90_000;

const MAIN = 'pub struct User;\n\nfn main() {\n    let _user = User;\n}\n';
const MANIFEST = '[package]\nname = "crate_under_test"\nversion = "0.1.0"\nedition = "2021"\nbuild = "build.rs"\n';

/** A crate whose build script and rustc-wrapper each leave a marker (outside the crate) when run. */
async function hostileCrate(base: string, name: string): Promise<{ root: string; build: string; wrapper: string }> {
  const root = join(base, name);
  await mkdir(join(root, 'src'), { recursive: true });
  await mkdir(join(root, '.cargo'), { recursive: true });
  const build = join(base, `${name}.build.marker`);
  const wrapper = join(base, `${name}.wrapper.marker`);
  await writeFile(join(root, 'Cargo.toml'), MANIFEST);
  await writeFile(join(root, 'build.rs'), `fn main() {\n    std::fs::write(${JSON.stringify(build)}, "ran").unwrap();\n}\n`);
  await writeFile(join(root, 'src', 'main.rs'), MAIN);
  await writeFile(join(root, 'wrapper.sh'), `#!/bin/sh\necho "$0 $*" >> '${wrapper}'\nexec "$@"\n`);
  await chmod(join(root, 'wrapper.sh'), 0o755);
  await writeFile(join(root, '.cargo', 'config.toml'), `[build]\nrustc-wrapper = ${JSON.stringify(join(root, 'wrapper.sh'))}\n`);
  return { root, build, wrapper };
}

/** Resolves when `path` exists (watching its folder), rejects after `ms`. */
function fileAppears(path: string, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dirname(path), (_event, name) => {
      if (name === basename(path) || existsSync(path)) finish(resolve);
    });
    const timer = setTimeout(() => finish(() => reject(new Error(`${path} did not appear within ${ms} ms`))), ms);
    const finish = (then: () => void): void => {
      clearTimeout(timer);
      watcher.close();
      then();
    };
    if (existsSync(path)) finish(resolve);
  });
}

/** Opens `root` in VS Code (trusted or not) and asks for the references of `User` through the extension. */
async function referencesOfUser(root: string, untrusted: boolean): Promise<{ refs: Reference[]; notes: readonly string[]; close: () => Promise<void> }> {
  const window = await openVsCode(rig as NonNullable<typeof rig>, root, { env, untrusted });
  try {
    const backend = await connectRemoteBackend(window.record.socket, new Workspace(root), { timeoutMs: CONNECT_TIMEOUT_MS });
    const session = await IdeSession.open({ workspaceRoot: root, backend, readyTimeoutMs: READY_TIMEOUT_MS });
    await session.waitUntilReady({ timeoutMs: READY_TIMEOUT_MS });
    const o = await session.evaluate('findReferences(findDefinition("User"))', { deadlineMs: READY_TIMEOUT_MS });
    if (o.kind !== 'value') throw new Error(`expected references, got ${JSON.stringify(o)}`);
    return {
      refs: o.value as Reference[],
      notes: o.notes,
      close: async () => {
        await session.shutdown();
        await window.close();
      },
    };
  } catch (error) {
    await window.close();
    throw error;
  }
}

describe.skipIf(rig === undefined || rustAnalyzer === undefined)("the extension's rust-analyzer and workspace trust", () => {
  let base: string;
  beforeAll(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'dialect-vscode-trust-')));
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it('untrusted window: answers come, and neither the build script nor the rustc-wrapper ever runs', async () => {
    const crate = await hostileCrate(base, 'untrusted');
    const { refs, notes, close } = await referencesOfUser(crate.root, true);
    try {
      expect(refs.map((r) => r.referencedAt.path)).toEqual(['src/main.rs']);
      // The answer says what the window's trust held back, and how to lift it.
      // One short line that keeps how to lift it (the details are behind status()).
      const trustNotes = notes.filter((n) => n.startsWith('untrusted VS Code window'));
      expect(trustNotes).toHaveLength(1);
      expect(trustNotes[0]).toContain('trust the folder in VS Code (Manage Workspace Trust) and reload the window');
    } finally {
      await close();
    }
    expect(existsSync(crate.build)).toBe(false);
    expect(existsSync(crate.wrapper)).toBe(false);
  }, 240_000);

  it('trusted window: the build script and the rustc-wrapper run, as the workspace configures', async () => {
    const crate = await hostileCrate(base, 'trusted');
    const { refs, notes, close } = await referencesOfUser(crate.root, false);
    try {
      expect(refs.map((r) => r.referencedAt.path)).toEqual(['src/main.rs']);
      expect(notes.filter((n) => n.startsWith('untrusted'))).toEqual([]);
      await fileAppears(crate.wrapper, MARKER_WAIT_MS);
      await fileAppears(crate.build, MARKER_WAIT_MS);
    } finally {
      await close();
    }
  }, 240_000);
});
