/**
 * Runs one VS Code command with a deadline and the caller's cancellation. VS Code cannot cancel
 * a command it runs for an extension, so a cancelled or late call is abandoned (its answer is
 * dropped), never waited for: a provider command hangs forever once the workbench page is gone.
 */
import * as vscode from 'vscode';
import { DialectError } from '../../dialect/index.js';
import type { LspErrorCode } from '../../ide-adapter/lsp/errors.js';
import { EDITOR_LIMITS } from './limits.js';
import { workbenchAnswers, workbenchLost } from './workbench.js';

/** The code of a command that got no answer in time (the language-server client's own code). */
const REQUEST_TIMEOUT: LspErrorCode = 'request-timeout';

/** Options of {@link runCommand}. */
export interface CommandOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/**
 * `vscode.commands.executeCommand(command, ...args)`, rejecting with `request-timeout` after the
 * deadline and with the signal's reason when the caller aborts. A command still unanswered after
 * `workbenchCheckAfterMs` has the workbench probed: when it does not answer (the window's page is
 * gone, so the command never will), the call fails at once as a lost window (workbench.ts).
 */
export function runCommand<T>(command: string, args: readonly unknown[], options: CommandOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? EDITOR_LIMITS.commandTimeoutMs;
  const { signal } = options;
  if (signal?.aborted === true) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const check = setTimeout(() => {
      void workbenchAnswers().then((alive) => {
        if (alive || settled) return;
        done();
        reject(workbenchLost(command));
      });
    }, Math.min(EDITOR_LIMITS.workbenchCheckAfterMs, timeoutMs));
    const timer = setTimeout(() => {
      done();
      reject(
        new DialectError({
          code: REQUEST_TIMEOUT,
          message: `VS Code's ${command} got no answer within ${timeoutMs} ms`,
          hint: 'the editor answers only while its window is open in a browser or desktop app; check the window, then ask again',
        }),
      );
    }, timeoutMs);
    const onAbort = (): void => {
      done();
      reject(signal?.reason as Error);
    };
    const done = (): void => {
      settled = true;
      clearTimeout(timer);
      clearTimeout(check);
      signal?.removeEventListener('abort', onAbort);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    vscode.commands.executeCommand<T>(command, ...args).then(
      (value) => {
        done();
        resolve(value);
      },
      (error: unknown) => {
        done();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** `promise`'s value, or undefined after `ms` (the promise is left to settle on its own). */
export async function withDeadline<T>(promise: PromiseLike<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([Promise.resolve(promise), new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
