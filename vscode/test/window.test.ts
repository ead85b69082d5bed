/**
 * One real VS Code window (code-server + headless Chromium) and everything outside it that uses
 * it: the private socket and discovery record the extension advertises, `DIALECT_IDE` in an
 * integrated terminal opened through the UI, the `dialect` command finding the window (by record
 * and by `DIALECT_IDE`) and saying VS Code answered, a session falling back to its own servers
 * when the window closes mid-session, and nothing left behind (no process, no answering socket).
 * One window for all of it: each costs a code-server and a browser.
 */
import { mkdtemp, readFile, realpath, rm, stat } from 'node:fs/promises';
import { watch } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBackend } from '../../cli/server/backend.js';
import type { FailoverBackend } from '../../cli/server/failover.js';
import { childEnv, requireFreshBuild, runDialect, tempDir } from '../../cli/test/support/cli.js';
import { connectEditor } from '../../ide-adapter/editors/connect.js';
import { DISCOVERY_VERSION, ensureDiscoveryDir, writeRecord } from '../../ide-adapter/editors/discovery.js';
import { connectRemoteBackend, type RemoteBackend } from '../../ide-adapter/remote/remote-backend.js';
import { configuredServers, IdeSession } from '../../ide-adapter/session.js';
import { copyFixture, positionOf } from '../../ide-adapter/test/support/servers.js';
import { Workspace } from '../../ide-adapter/workspace.js';
import type { SymbolDefinition } from '../../ide-adapter/model.js';
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
  let state: { path: string; dispose: () => Promise<void> };
  let session: IdeSession | undefined;

  /** Where `validateToken` of src/util.ts is declared, from the fixture text. */
  async function utilValidateToken(): Promise<{ line: number; column: number }> {
    const p = positionOf(await readFile(join(copy.root, 'src/util.ts'), 'utf8'), 'validateToken(token: string): boolean');
    return { line: p.line, column: p.column };
  }

  beforeAll(async () => {
    requireFreshBuild();
    copy = await copyFixture('ts-app');
    scratch = await mkdtemp(join(tmpdir(), 'dialect-terminal-'));
    state = await tempDir('dialect-outside-');
    window = await openVsCode(rig as NonNullable<typeof rig>, copy.root);
  });

  afterAll(async () => {
    await backend?.shutdown();
    await session?.shutdown();
    await window?.close();
    await copy?.dispose();
    await state?.dispose();
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

  it('dialect eval outside the editor finds the window by its record and says VS Code answered', async () => {
    // The window's runtime folder is where this user's `dialect` looks; the background server is allowed.
    const env = await childEnv(state.path, { DIALECT_NO_SERVER: '0', XDG_RUNTIME_DIR: window.runtimeDir });
    const r = await runDialect(['eval', 'findDefinition("validateToken", file: "src/util.ts")', '--json', '--workspace', copy.root], { env });
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as { value: SymbolDefinition; notes: string[]; indexing: { backend: string; complete: boolean } };
    expect(json.value.definedAt.start).toEqual(await utilValidateToken());
    expect(json.indexing).toMatchObject({ backend: 'vscode', complete: true });
    expect(json.notes.filter((n) => n.startsWith('answered by VS Code'))).toHaveLength(1);
  });

  it('DIALECT_IDE alone (as in the window terminals) leads there too, said once in the text form', async () => {
    const env = await childEnv(state.path, { DIALECT_NO_SERVER: '0', DIALECT_IDE: window.record.socket });
    const r = await runDialect(['eval', 'findDefinition("validateToken", file: "src/util.ts")', '--workspace', copy.root], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.match(/answered by VS Code/g)).toHaveLength(1);
    expect(r.stdout).toContain(`src/util.ts:${(await utilValidateToken()).line}`);
  });

  it('a window that does not answer is passed over (a record whose socket is gone)', async () => {
    const runtime = join(state.path, 'stale-run');
    const env = { XDG_RUNTIME_DIR: runtime };
    const dir = ensureDiscoveryDir(env);
    writeRecord(dir, { version: DISCOVERY_VERSION, workspaceRoot: await realpath(copy.root), socket: join(dir, 'gone.sock'), pid: process.pid, startedAt: Date.now(), editor: 'gone' });
    expect(await connectEditor(new Workspace(copy.root), env)).toBeUndefined();
  });

  it('a session falls back to its own servers when the window closes mid-session', async () => {
    const env = await childEnv(state.path, { DIALECT_NO_SERVER: '0', XDG_RUNTIME_DIR: window.runtimeDir });
    const root = await realpath(copy.root);
    const opened = await openBackend({ workspaceRoot: root, configured: await configuredServers(root, undefined, env), env });
    expect(opened.mode).toBe('editor');
    const failover = opened.backend as FailoverBackend;
    session = await IdeSession.open({ workspaceRoot: root, backend: failover });
    const ask = async (): Promise<SymbolDefinition> => {
      const o = await (session as IdeSession).evaluate('findDefinition("validateToken", file: "src/util.ts")', { deadlineMs: 90_000 });
      if (o.kind !== 'value') throw new Error(`expected a value, got ${o.kind}`);
      return o.value as SymbolDefinition;
    };
    expect((await ask()).definedAt.start).toEqual(await utilValidateToken());
    expect(failover.answeredBy).toBe('vscode');
    await window.close();
    expect((await ask()).definedAt.start).toEqual(await utilValidateToken());
    expect(failover.answeredBy).toBe('spawned');
    expect(failover.notice).toContain('VS Code stopped answering');
  });

  it('leaves no process and no answering socket behind when the window closes', async () => {
    const socket = window.record.socket;
    await backend?.shutdown();
    backend = undefined;
    await window.close(); // closed already by the failover test; closing again is harmless
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
