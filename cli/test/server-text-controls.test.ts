/**
 * Text a language server sends reaches the terminal only with its control characters made
 * visible: a `$/progress` title holding escape sequences (rust-analyzer's progress names the
 * folders it scans, and its health message quotes cargo, which quotes the workspace's manifests)
 * is shown by `dialect server status` as one line of pictures, never as sequences the terminal
 * obeys (`statusLine`, the one place a server's status becomes text).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeServerScript } from '../../ide-adapter/test/support/servers.js';
import { childEnv, requireFreshBuild, runDialect, tempDir } from './support/cli.js';

const TIMEOUT = 90_000;
const WAIT_MS = 30_000;
const POLL_MS = 50;

/** Sets the terminal's title, clears the line and rings the bell, then a line that looks like Dialect's. */
const HOSTILE_TITLE = 'Indexing\u001b]0;owned\u0007\u001b[2K\r\nfake: ready';

let dir: Awaited<ReturnType<typeof tempDir>>;
let workspace: string;
let env: Record<string, string>;

beforeAll(async () => {
  requireFreshBuild();
  dir = await tempDir('dialect-server-text-');
  workspace = join(dir.path, 'ws');
  await mkdir(workspace);
  await writeFile(join(workspace, 'a.fake'), 'class Alpha\n');
  const config = join(dir.path, 'dialect.json');
  const args = [fakeServerScript, '--mode=progress', '--hold-progress', `--progress-title=${HOSTILE_TITLE}`];
  await writeFile(config, JSON.stringify({ servers: [{ id: 'fake', command: process.execPath, args, languages: [{ languageId: 'fake', extensions: ['.fake'] }], readiness: 'progress' }] }));
  env = await childEnv(join(dir.path, 'state'), { DIALECT_CONFIG: config, DIALECT_NO_SERVER: '0' });
});

afterAll(async () => {
  if (env !== undefined) await runDialect(['server', 'stop', '--all'], { env }).catch(() => undefined);
  await dir?.dispose();
});

describe("a language server's text in the terminal", () => {
  it(
    'dialect server status shows a hostile progress title escaped, on one line',
    async () => {
      // The question starts the background server and its fake, which holds its work open; the
      // question itself gives up at its deadline.
      await runDialect(['eval', 'symbolAt("a.fake", 1, 7)', '--trust', '--timeout', '2', '--workspace', workspace], { env, timeoutMs: 60_000 });
      const deadline = Date.now() + WAIT_MS;
      let shown = '';
      // Bounded polling of another process's state: the background server's fake reports its work.
      while (!shown.includes('owned')) {
        if (Date.now() > deadline) throw new Error(`gave up waiting for the progress title; last status:\n${shown}`);
        await new Promise((r) => setTimeout(r, POLL_MS));
        shown = (await runDialect(['server', 'status'], { env })).stdout;
      }
      // eslint-disable-next-line no-control-regex
      expect(shown).not.toMatch(/[\u0007\u001b\r]/);
      expect(shown).toContain('Indexing␛]0;owned␇␛[2K␍␊fake: ready');
      expect(shown.split('\n').filter((line) => line.includes('fake: ready'))).toHaveLength(1);
    },
    TIMEOUT,
  );
});
