/**
 * The window's walkthroughs: serves `dialect/presentWalkthrough` and `dialect/walkthroughStatus`
 * (walkthrough/editor-protocol.ts) on every bridge connection, shows one walkthrough at a time (a
 * new one replaces the previous one's panel and threads), keeps it living (re-resolved, debounced,
 * when files of its folder change), and owns the commands the reader uses: reply in a thread,
 * choose where an ambiguous comment goes (Quick Pick).
 */
import * as vscode from 'vscode';
import type { Disposable, MessageConnection } from 'vscode-jsonrpc/node';
import { DialectError } from '../../../dialect/index.js';
import type { IdeBackend } from '../../../ide-adapter/backend.js';
import { SubfolderBackend } from '../../../ide-adapter/editors/subfolder.js';
import { protocolMismatch, toResponseError } from '../../../ide-adapter/remote/errors.js';
import { indexingOf } from '../../../ide-adapter/indexing.js';
import { IdeSession } from '../../../ide-adapter/session.js';
import { Workspace, WorkspaceCode } from '../../../ide-adapter/workspace.js';
import { PresentParamsSchema, WalkthroughMethod, type PresentParams, type PresentResult, type StatusResult } from '../../../walkthrough/editor-protocol.js';
import { DEFAULT_WALKTHROUGH_LIMITS, parseWithinLimits, WalkthroughError, WalkthroughErrorCode } from '../../../walkthrough/index.js';
import { EDITOR_LIMITS } from '../limits.js';
import { AgentChannel } from './delivery.js';
import { Presentation } from './presentation.js';
import { COMMENT_CONTROLLER_ID, WalkthroughThreads } from './threads.js';
import { workbenchAnswers, workbenchLost, workbenchProbeDue } from '../workbench.js';

/** Commands of package.json's `contributes`. */
export const WalkthroughCommand = {
  Reply: 'dialect.walkthrough.reply',
  ChooseLocation: 'dialect.walkthrough.chooseLocation',
  Close: 'dialect.walkthrough.close',
} as const;

/** Shows walkthroughs in this window. */
export class WalkthroughPresenter implements vscode.Disposable {
  readonly #threads: WalkthroughThreads;
  readonly #subscriptions: vscode.Disposable[] = [];
  #current: Presentation | undefined;
  /** The file watcher of the walkthrough shown (none while nothing is shown). */
  #watcher: vscode.Disposable | undefined;
  /** Presents one at a time: a second call waits, so exactly one walkthrough is ever shown. */
  #presenting: Promise<unknown> = Promise.resolve();
  #refreshTimer: NodeJS.Timeout | undefined;
  #settleTimer: NodeJS.Timeout | undefined;
  #refreshing: Promise<void> | undefined;
  #refreshAgain = false;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly editor: string,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.#threads = new WalkthroughThreads();
    this.#subscriptions.push(
      this.#threads,
      vscode.commands.registerCommand(WalkthroughCommand.Reply, (reply: vscode.CommentReply) => this.#reply(reply)),
      vscode.commands.registerCommand(WalkthroughCommand.ChooseLocation, () => this.chooseLocation()),
      vscode.commands.registerCommand(WalkthroughCommand.Close, () => this.close()),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length > 0) this.#changed(event.document.uri);
      }),
    );
  }

  /** Watches the folder's files while a walkthrough is shown (closed files change on disk too: an agent's edits). */
  #watch(folder: string): vscode.Disposable {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder), '**/*'));
    const listeners = [watcher.onDidChange((uri) => this.#changed(uri)), watcher.onDidCreate((uri) => this.#changed(uri)), watcher.onDidDelete((uri) => this.#changed(uri))];
    return {
      dispose: () => {
        for (const disposable of [...listeners, watcher]) disposable.dispose();
      },
    };
  }

  /** Adds the walkthrough methods to a bridge connection serving `backend` (the folder's). */
  serve(connection: MessageConnection, backend: IdeBackend): Disposable {
    const registrations = [
      connection.onRequest(WalkthroughMethod.Present, async (raw: unknown, token: vscode.CancellationToken): Promise<unknown> => {
        const controller = new AbortController();
        const cancel = token.onCancellationRequested(() => controller.abort(new WalkthroughError(WalkthroughErrorCode.Cancelled, 'the presenter cancelled the walkthrough')));
        try {
          const parsed = PresentParamsSchema.safeParse(raw);
          if (!parsed.success) throw protocolMismatch(`invalid params of ${WalkthroughMethod.Present}: ${parsed.error.message}`);
          return await this.present(parsed.data, backend, new AgentChannel(connection, parsed.data.agent), controller.signal);
        } catch (error) {
          return toResponseError(error);
        } finally {
          cancel.dispose();
        }
      }),
      connection.onRequest(WalkthroughMethod.Status, (): StatusResult => ({ shown: this.#current?.shown() ?? null })),
    ];
    return { dispose: () => registrations.forEach((r) => r.dispose()) };
  }

  /** Resolves and shows a walkthrough (replacing the one shown, after any presentation in progress); answers what was shown. */
  present(params: PresentParams, backend: IdeBackend, agent: AgentChannel, signal: AbortSignal): Promise<PresentResult> {
    const run = this.#presenting.then(() => this.#present(params, backend, agent, signal));
    this.#presenting = run.catch(() => undefined);
    return run;
  }

  async #present(params: PresentParams, backend: IdeBackend, agent: AgentChannel, signal: AbortSignal): Promise<PresentResult> {
    // A window without its workbench would "show" a panel nobody sees: the presenter writes a page instead.
    if (workbenchProbeDue() && !(await workbenchAnswers())) throw workbenchLost('the walkthrough');
    const folder = new Workspace(params.folder);
    if (!backend.workspace.contains(folder.root)) {
      throw new DialectError({ code: WorkspaceCode.OutsideWorkspace, message: `${folder.root} is not inside ${backend.workspace.root}, the folder this window serves here`, hint: 'present the walkthrough to the window that has its folder open' });
    }
    const session = await IdeSession.open({
      workspaceRoot: folder.root,
      backend: folder.root === backend.workspace.root ? backend : new SubfolderBackend(folder, backend),
      // The bridge started the backend; this session only evaluates programs over it.
      eager: false,
    });
    const document = parseWithinLimits(params.markdown, DEFAULT_WALKTHROUGH_LIMITS);
    // The previous walkthrough goes first: its threads must not linger beside the new ones.
    this.close();
    const presentation = await Presentation.present(
      { extensionUri: this.extensionUri, editor: this.editor, limits: DEFAULT_WALKTHROUGH_LIMITS, log: this.log, onClose: () => this.#forget(presentation) },
      session,
      document,
      this.#threads,
      agent,
      signal,
    );
    this.#current = presentation;
    this.#watcher = this.#watch(folder.root);
    if (presentation.ambiguous().length > 0) void this.#offerChoices(presentation);
    const rendered = presentation.rendered;
    // The JSON goes out as it is; the schema's looser type is what the other side checks.
    return { shown: presentation.shown(), json: rendered.json as unknown as PresentResult['json'], summary: rendered.summary, indexing: indexingOf(session.backend, true) };
  }

  /** Lets the reader place an ambiguous comment: which comment (when several), then which candidate. */
  async chooseLocation(): Promise<void> {
    const presentation = this.#current;
    const comments = presentation?.ambiguous() ?? [];
    if (presentation === undefined || comments.length === 0) {
      void vscode.window.showInformationMessage('Dialect: the walkthrough shown has no comment with several possible locations.');
      return;
    }
    const comment =
      comments.length === 1
        ? comments[0]
        : (await vscode.window.showQuickPick(comments.map((c) => ({ label: firstLine(c.content), description: `${c.choices?.length ?? 0} possible locations`, comment: c })), { title: 'Which comment?' }))?.comment;
    if (comment === undefined) return;
    const picked = await vscode.window.showQuickPick(
      (comment.choices ?? []).map((choice, index) => ({ label: choice.label, description: `${choice.location.path}:${choice.location.line}`, detail: choice.location.text.trim(), index })),
      { title: `Where does “${firstLine(comment.content)}” belong?` },
    );
    if (picked !== undefined) await presentation.choose(comment.id, picked.index, false);
  }

  /** Closes the walkthrough shown: its panel and its threads. */
  close(): void {
    const current = this.#current;
    this.#current = undefined;
    this.#stopWatching();
    current?.dispose();
  }

  dispose(): void {
    clearTimeout(this.#refreshTimer);
    clearTimeout(this.#settleTimer);
    this.close();
    for (const subscription of this.#subscriptions.splice(0)) subscription.dispose();
  }

  #forget(presentation: Presentation): void {
    if (this.#current !== presentation) return;
    this.#current = undefined;
    this.#stopWatching();
  }

  #stopWatching(): void {
    this.#watcher?.dispose();
    this.#watcher = undefined;
  }

  async #offerChoices(presentation: Presentation): Promise<void> {
    const count = presentation.ambiguous().length;
    const choose = 'Choose…';
    const answer = await vscode.window.showInformationMessage(
      `Dialect: ${count} comment${count === 1 ? '' : 's'} of “${presentation.title}” could go in several places: choose in the panel, or here.`,
      choose,
    );
    if (answer === choose && this.#current === presentation) await this.chooseLocation();
  }

  async #reply(reply: vscode.CommentReply): Promise<void> {
    const presentation = this.#current;
    if (presentation === undefined) return;
    try {
      const delivered = await presentation.reply(reply.thread, reply.text);
      if (delivered?.to === 'terminal') void vscode.window.setStatusBarMessage(`Dialect: your reply is in the terminal "${delivered.terminal}"`, 5_000);
    } catch (error) {
      this.log.error(`a reply could not be delivered: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** A file changed: the walkthrough shown re-resolves once changes stop for a moment. */
  #changed(uri: vscode.Uri): void {
    if (this.#current === undefined || uri.scheme !== 'file' || uri.path.includes('/.git/') || !this.#current.covers(uri.fsPath)) return;
    clearTimeout(this.#refreshTimer);
    clearTimeout(this.#settleTimer);
    this.#refreshTimer = setTimeout(() => {
      void this.#refresh();
      this.#settleTimer = setTimeout(() => void this.#refresh(), EDITOR_LIMITS.livingSettleMs);
    }, EDITOR_LIMITS.livingDebounceMs);
  }

  async #refresh(): Promise<void> {
    if (this.#refreshing !== undefined) {
      this.#refreshAgain = true;
      return;
    }
    const presentation = this.#current;
    if (presentation === undefined) return;
    this.#refreshing = presentation.refresh().catch((error: unknown) => this.log.warn(`re-resolving the walkthrough failed: ${error instanceof Error ? error.message : String(error)}`));
    await this.#refreshing;
    this.#refreshing = undefined;
    if (this.#refreshAgain) {
      this.#refreshAgain = false;
      await this.#refresh();
    }
  }
}

/** The first line of a comment's markdown, for pickers. */
function firstLine(markdown: string): string {
  const line = markdown.trim().split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

export { COMMENT_CONTROLLER_ID };
