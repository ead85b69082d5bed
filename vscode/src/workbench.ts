/**
 * Whether the window's workbench answers. The extension host of a code-server window outlives
 * its browser tab by hours (by design, for reconnecting), and without the workbench every
 * `vscode.execute…Provider`, `openTextDocument` and other main-thread call hangs. A liveness
 * round trip to the workbench, bounded, tells the two apart: `setContext` of a key of our own is
 * the cheapest call that must reach the workbench and come back.
 */
import * as vscode from 'vscode';
import { DialectError } from '../../dialect/index.js';
import { RemoteCode } from '../../ide-adapter/remote/codes.js';
import { EDITOR_LIMITS } from './limits.js';

/** The context key the probe sets (never read: only the round trip matters). */
const PROBE_CONTEXT_KEY = 'dialect.workbenchProbe';

let probes = 0;

/** Whether the workbench answered a round trip within `timeoutMs`. */
export function workbenchAnswers(timeoutMs: number = EDITOR_LIMITS.workbenchProbeMs): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    const answered = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    // An error is an answer too: the workbench is there.
    Promise.resolve(vscode.commands.executeCommand('setContext', PROBE_CONTEXT_KEY, ++probes)).then(answered, answered);
  });
}

/**
 * The error of a call the window cannot answer: the code of a lost server, so a client passes
 * the window over (handshake) or fails over to its own servers (mid-session), saying so once.
 */
export function workbenchLost(what: string): DialectError {
  return new DialectError({
    code: RemoteCode.ServerLost,
    message: `VS Code's window does not answer ${what} (its workbench did not answer within ${EDITOR_LIMITS.workbenchProbeMs} ms: the browser tab or window is closed)`,
    hint: 'open the window again (or reload its browser tab); meanwhile Dialect answers with its own language servers',
  });
}

/** The variable overriding {@link EDITOR_LIMITS.workbenchStartupGraceMs} (milliseconds). */
const GRACE_ENV = 'DIALECT_WORKBENCH_GRACE_MS';

/** When the extension was loaded (it activates with the window, through the workbench). */
const loadedAt = Date.now();

/**
 * Whether a handshake or a walkthrough should probe the workbench first: not in the window's
 * start-up grace (`DIALECT_WORKBENCH_GRACE_MS` when it is a number of milliseconds, else the
 * default), when the workbench has just activated the extension but may be slow to answer.
 */
export function workbenchProbeDue(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const value = Number(env[GRACE_ENV] ?? Number.NaN);
  const grace = Number.isFinite(value) && value >= 0 ? value : EDITOR_LIMITS.workbenchStartupGraceMs;
  return Date.now() - loadedAt >= grace;
}
