/**
 * The environment of a server the extension spawns (`spawned-server.ts` through `spawnPlan`):
 * PATH keeps only absolute folders, as for every child of Dialect — the server runs in the
 * workspace folder, where `.`, an empty entry or `node_modules/.bin` would run the workspace's
 * own programs (its `cargo`, `rustc`, …). Checked for the host's environment given and for the
 * extension host's own (the default), in the environment of the launch and of `prepare`.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinServers } from '../../ide-adapter/languages/index.js';
import type { ServerDefinition } from '../../ide-adapter/lsp/servers.js';
import { restrictServers } from '../../ide-adapter/lsp/untrusted.js';
import { spawnPlan } from '../src/server-environment.js';

const RELATIVE = ['.', '', 'node_modules/.bin', 'bin'];
const hostPath = [...RELATIVE, process.env['PATH'] ?? '/usr/bin'].join(delimiter);

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'dialect-spawn-env-'));
  await mkdir(join(root, 'src'));
  await writeFile(join(root, 'Cargo.toml'), '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n');
  await writeFile(join(root, 'src', 'lib.rs'), 'pub fn f() {}\n');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The PATH entries that are not absolute folders. */
const relativeEntries = (path: string | undefined): string[] => (path ?? '').split(delimiter).filter((dir) => !isAbsolute(dir));

const rustAnalyzer = builtinServers().find((d) => d.id === 'rust-analyzer') as ServerDefinition;

describe('spawnPlan (the extension-spawned server)', () => {
  it.each([true, false])('gives rust-analyzer absolute PATH folders only (trusted window: %s)', async (trusted) => {
    const definition = restrictServers([rustAnalyzer], trusted)[0] as ServerDefinition;
    const plan = await spawnPlan(definition, root, { PATH: hostPath });
    expect(relativeEntries(plan.env['PATH'])).toEqual([]);
    expect(plan.env['PATH']).toContain(process.env['PATH']?.split(delimiter).find((d) => isAbsolute(d)));
  });

  it("filters the extension host's own PATH (the default) in the launch and in prepare", async () => {
    let seen: string | undefined;
    const recording: ServerDefinition = {
      ...rustAnalyzer,
      id: 'recording',
      prepare: async (_root, env) => {
        seen = env['PATH'];
        return {};
      },
    };
    const before = process.env['PATH'];
    process.env['PATH'] = hostPath;
    try {
      const plan = await spawnPlan(recording, root, {});
      expect(relativeEntries(plan.env['PATH'])).toEqual([]);
      expect(seen).toBeTypeOf('string');
      expect(relativeEntries(seen)).toEqual([]);
    } finally {
      process.env['PATH'] = before;
    }
  });
});
