/**
 * A file's diagnostics as the editor has them. Extensions publish diagnostics (VS Code has no
 * pull for other extensions), and the TypeScript extension checks only files shown in a tab: a
 * file nobody shows is shown in a preview tab without taking focus, its diagnostics are waited
 * for (bounded, on the editor's change event), and the tab is closed again.
 */
import * as vscode from 'vscode';
import { withDeadline } from './commands.js';
import { EDITOR_LIMITS } from './limits.js';

/**
 * Waits until the editor has published diagnostics for a document (or already had some), at most
 * `waitMs` (the caller's budget); false
 * when nothing was published in time, so an empty list is not mistaken for "no problems" (a
 * clean file publishes nothing either: the answer then says it may be incomplete). A budget of 0
 * is what the editor has now: nothing is shown for it (showing, under load, took long enough for
 * a publish to arrive after the budget ran out).
 */
export async function waitForDiagnostics(uri: vscode.Uri, waitMs: number, signal?: AbortSignal): Promise<boolean> {
  if (vscode.languages.getDiagnostics(uri).length > 0) return true;
  if (waitMs <= 0) return false;
  const key = uri.toString();
  const shown = showQuietly(uri).catch(() => undefined);
  const published = new Promise<boolean>((resolve) => {
    const finish = (answered: boolean): void => {
      clearTimeout(timer);
      subscription.dispose();
      signal?.removeEventListener('abort', onAbort);
      resolve(answered);
    };
    const onAbort = (): void => finish(false);
    let timer = setTimeout(() => finish(false), waitMs);
    const subscription = vscode.languages.onDidChangeDiagnostics((e) => {
      if (!e.uris.some((u) => u.toString() === key)) return;
      if (vscode.languages.getDiagnostics(uri).length > 0) {
        finish(true);
        return;
      }
      // Published empty: the answer, unless another source publishes soon (see diagnosticsQuietMs).
      clearTimeout(timer);
      timer = setTimeout(() => finish(true), EDITOR_LIMITS.diagnosticsQuietMs);
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await published;
  } finally {
    // Showing and closing go through the workbench: bounded, like every wait on it.
    const close = await withDeadline(shown, EDITOR_LIMITS.commandTimeoutMs);
    if (close !== undefined) await withDeadline(close().catch(() => undefined), EDITOR_LIMITS.commandTimeoutMs);
  }
}

/** Shows a document in a preview tab without taking focus, unless a tab shows it already; returns what closes the tab again. */
async function showQuietly(uri: vscode.Uri): Promise<() => Promise<void>> {
  const key = uri.toString();
  const tabOf = (): vscode.Tab | undefined => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => tabUri(t) === key);
  if (tabOf() !== undefined) return async () => undefined;
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document, { preview: true, preserveFocus: true });
  return async () => {
    const tab = tabOf();
    if (tab !== undefined) await vscode.window.tabGroups.close(tab, true);
  };
}

/** The URI a text tab shows, as a string. */
function tabUri(tab: vscode.Tab): string | undefined {
  const input = tab.input as { uri?: vscode.Uri } | undefined;
  return input?.uri?.toString();
}
