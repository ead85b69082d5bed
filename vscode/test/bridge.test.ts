/**
 * The bridge out of a real VS Code window (code-server + headless Chromium): the private socket and
 * discovery record the extension advertises, `DIALECT_IDE` in an integrated terminal opened
 * through the UI, and a window that closes leaving nothing behind (no process, no answering socket).
 */
import { mkdtemp, readFile, realpath, rm, stat } from 'node:fs/promises';
import { watch } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRemoteBackend, type RemoteBackend } from '../../ide-adapter/remote/remote-backend.js';
import { copyFixture } from '../../ide-adapter/test/support/servers.js';
import { Workspace } from '../../ide-adapter/workspace.js';
import { groupAlive, openVsCode, requireRig, type VsCodeWindow } from './support/rig.js';

const rig = await requireRig();

/** How long the terminal may take to appear and run a command. */
const TERMINAL_MS = 30_000;
const PERMISSIONS = 0o777;

/** Resolves with the text of `file` once it exists and is not empty (watching its folder, bounded). */
function fileWritten(file: string, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      readFile(file, 'utf8').then(
        (text) => {
          if (text !== '') finish(() => resolve(text));
        },
        () => undefined,
      );
    };
    const watcher = watch(dirname(file), check);
    const timer = setTimeout(() => finish(() => reject(new Error(`${file} was not written within ${ms} ms`))), ms);
    const finish = (then: () => void): void => {
      clearTimeout(timer);
      watcher.close();
      then();
    };
    check();
  });
}

describe.skipIf(rig === undefined)('the extension in a real VS Code window serves and advertises its folder', () => {
  let window: VsCodeWindow;
  let copy: { root: string; dispose: () => Promise<void> };
  let scratch: string;
  let backend: RemoteBackend | undefined;

  beforeAll(async () => {
    copy = await copyFixture('ts-app');
    scratch = await mkdtemp(join(tmpdir(), 'dialect-terminal-'));
    window = await openVsCode(rig as NonNullable<typeof rig>, copy.root);
  });

  afterAll(async () => {
    await backend?.shutdown();
    await window?.close();
    await copy?.dispose();
    if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
  });

  it('serves on a private socket, advertised by a record keyed by the folder', async () => {
    const record = window.record;
    expect(record.workspaceRoot).toBe(await realpath(copy.root));
    expect(record.editor).toMatch(/1\.\d+/);
    expect((await stat(record.socket)).mode & PERMISSIONS).toBe(0o600);
    expect((await stat(dirname(record.socket))).mode & PERMISSIONS).toBe(0o700);
    backend = await connectRemoteBackend(record.socket, new Workspace(copy.root));
    expect(backend.hello.pid).toBe(record.pid);
    expect(backend.hello.languages.map((l) => l.languageId)).toContain('typescript');
    expect(backend.handles('src/model.ts')).toBe(true);
  });

  it('sets DIALECT_IDE in an integrated terminal opened through the UI', async () => {
    const out = join(scratch, 'dialect-ide.txt');
    const page = window.page;
    await page.keyboard.press('F1');
    await page.keyboard.type('Terminal: Create New Terminal');
    await page.keyboard.press('Enter');
    await page.locator('.xterm-helper-textarea').first().waitFor({ timeout: TERMINAL_MS });
    await page.locator('.xterm-helper-textarea').first().focus();
    await page.keyboard.type(`printf '%s' "$DIALECT_IDE" > ${out}`);
    await page.keyboard.press('Enter');
    expect(await fileWritten(out, TERMINAL_MS)).toBe(window.record.socket);
  });

  it('leaves no process and no answering socket behind when the window closes', async () => {
    const socket = window.record.socket;
    await backend?.shutdown();
    backend = undefined;
    await window.close();
    expect(groupAlive(window.pid)).toBe(false);
    const refused = await new Promise<boolean>((resolve) => {
      const s = connect(socket);
      s.once('connect', () => {
        s.destroy();
        resolve(false);
      });
      s.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
  });
});
