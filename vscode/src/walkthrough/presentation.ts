/**
 * One walkthrough shown in the editor: its panel, its comment threads, and its comments'
 * programs. It resolves the walkthrough with the window's own language features, places each
 * resolved comment as a thread on its line, opens the first one's file beside the panel, and —
 * living walkthroughs — re-resolves every comment's program when files change (see
 * {@link Presentation.refresh}), moving threads with their code; a comment whose program stops
 * resolving keeps its thread, which says so instead of pointing at a wrong line.
 */
import { realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { IdeSession } from '../../../ide-adapter/session.js';
import {
  checkResolvedSize, createNonce, environmentFor, renderResolved, resolveWalkthrough, type CommentJson, type LocationChoice, type RenderedWalkthrough, type ResolvedWalkthrough, type WalkthroughDocument,
  type WalkthroughLimits,
} from '../../../walkthrough/index.js';
import type { ShownWalkthrough, ThreadInfo } from '../../../walkthrough/editor-protocol.js';
import { EDITOR_LIMITS } from '../limits.js';
import type { AgentChannel, Delivered } from './delivery.js';
import { WalkthroughPanel, type PageMessage } from './panel.js';
import type { WalkthroughThreads } from './threads.js';

/** What a presentation needs from the window. */
export interface PresentationContext {
  readonly extensionUri: vscode.Uri;
  /** The editor's name (`code-server 1.139.1`). */
  readonly editor: string;
  readonly limits: WalkthroughLimits;
  readonly log: vscode.LogOutputChannel;
  /** Called when the reader closes the panel. */
  readonly onClose: () => void;
}

/** A comment the reader placed by choosing one of its candidates. */
interface Choice {
  readonly index: number;
  readonly choice: LocationChoice;
}

/** The default title of a walkthrough without a heading. */
const UNTITLED = 'Walkthrough';

/** A walkthrough shown in the panel and as threads. */
export class Presentation implements vscode.Disposable {
  readonly title: string;
  readonly #panel: WalkthroughPanel;
  /** The candidates of every comment that was ambiguous when presented, by comment id. */
  readonly #ambiguous = new Map<string, CommentJson>();
  readonly #chosen = new Map<string, Choice>();
  #rendered: RenderedWalkthrough | undefined;
  #revision = 0;
  #opened: { path: string; line: number } | null = null;
  #disposed = false;

  private constructor(
    private readonly context: PresentationContext,
    private readonly session: IdeSession,
    private readonly document: WalkthroughDocument,
    private readonly threads: WalkthroughThreads,
    private readonly agent: AgentChannel,
  ) {
    this.title = document.title ?? UNTITLED;
    this.#panel = new WalkthroughPanel(context.extensionUri, this.title, (m) => void this.#onMessage(m), () => this.#closed());
  }

  /**
   * Resolves and shows a walkthrough: opens the first placed comment's file, then the panel beside
   * it, then the threads. Rejects (showing nothing) when the walkthrough cannot be rendered.
   */
  static async present(context: PresentationContext, session: IdeSession, document: WalkthroughDocument, threads: WalkthroughThreads, agent: AgentChannel, signal: AbortSignal): Promise<Presentation> {
    const resolved = await resolveFor(session, document, new Map(), context.limits, signal);
    // Too large a walkthrough is refused before anything is shown.
    checkResolvedSize(resolved, context.limits);
    const first = resolved.comments.find((c) => c.resolution.status === 'resolved');
    const firstLocation = first?.resolution.status === 'resolved' ? first.resolution.location : undefined;
    if (firstLocation !== undefined) await showLocation(session, firstLocation.path, firstLocation.line, vscode.ViewColumn.One, false);
    const presentation = new Presentation(context, session, document, threads, agent);
    presentation.#opened = firstLocation !== undefined ? { path: firstLocation.path, line: firstLocation.line } : null;
    try {
      const rendered = presentation.#renderPage(resolved);
      for (const comment of rendered.json.comments) if (comment.status === 'ambiguous') presentation.#ambiguous.set(comment.id, comment);
      presentation.#show(rendered);
    } catch (error) {
      // No empty panel left behind: the presenter writes a page or reports the error.
      presentation.dispose();
      throw error;
    }
    return presentation;
  }

  /** The render this presentation shows. */
  get rendered(): RenderedWalkthrough {
    if (this.#rendered === undefined) throw new Error('the walkthrough has not been rendered');
    return this.#rendered;
  }

  /**
   * Whether a file is inside the walkthrough's folder (only those can move its comments). The
   * folder is a real path; the editor may name files through a symlinked folder, so the file's
   * folder is resolved too (it exists even when the file was just deleted).
   */
  covers(path: string): boolean {
    if (this.session.workspace.contains(path)) return true;
    try {
      return this.session.workspace.contains(join(realpathSync(dirname(path)), basename(path)));
    } catch {
      return false;
    }
  }

  /** What is shown now. */
  shown(): ShownWalkthrough {
    return { editor: this.context.editor, panel: this.title, revision: this.#revision, threads: this.threads.infos(), opened: this.#opened };
  }

  /**
   * Re-resolves every comment (with the reader's choices) and moves the threads; the panel is
   * re-rendered when a location changed. Called (debounced) when files change.
   */
  async refresh(signal?: AbortSignal): Promise<void> {
    if (this.#disposed) return;
    const rendered = this.#renderPage(await resolveFor(this.session, this.document, this.#chosen, this.context.limits, signal));
    if (this.#disposed) return;
    if (this.#rendered !== undefined && placements(this.#rendered) === placements(rendered)) return;
    this.#revision += 1;
    this.#show(rendered);
  }

  /** The comments the reader may (re)choose a place for, with their candidates. */
  ambiguous(): readonly CommentJson[] {
    return [...this.#ambiguous.values()];
  }

  /** Places an ambiguous comment at its `index`-th candidate (from the panel or the Quick Pick). */
  async choose(commentId: string, index: number, fromPage: boolean): Promise<void> {
    const comment = this.#ambiguous.get(commentId);
    const choice = comment?.choices?.[index];
    if (comment === undefined || choice === undefined) return;
    this.#chosen.set(commentId, { index, choice });
    this.#placeThread(comment, choice.location.path, choice.location.line, undefined);
    if (!fromPage) this.#panel.post({ type: 'placed', comment: commentId, choice: index });
    await showLocation(this.session, choice.location.path, choice.location.line, vscode.ViewColumn.One, true);
    this.#revision += 1;
  }

  /** Sends a reply to a comment to the agent, and shows it in the thread. */
  async reply(thread: vscode.CommentThread, text: string): Promise<Delivered | undefined> {
    const info = this.threads.commentOf(thread);
    if (info === undefined || text.trim() === '') return undefined;
    const delivered = await this.agent.deliver({
      kind: 'reply',
      walkthrough: this.document.title ?? null,
      'in-reply-to-comment-at': { file: info.path, start: { line: info.line }, end: { line: info.line }, comment: info.body },
      reply: text,
    });
    this.threads.addReply(thread, text, delivered.to === 'terminal' ? `sent to the agent (terminal ${delivered.terminal})` : 'copied for the agent');
    return delivered;
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.threads.clear();
    this.#panel.dispose();
  }

  get disposed(): boolean {
    return this.#disposed;
  }

  #renderPage(resolved: ResolvedWalkthrough): RenderedWalkthrough {
    return renderResolved(resolved, { limits: this.context.limits, nonce: createNonce(), webview: this.#panel.assets() });
  }

  /** Shows a render: the page, and a thread per placed comment. */
  #show(rendered: RenderedWalkthrough): void {
    const previous = this.#rendered;
    this.#rendered = rendered;
    this.#panel.show(this.title, rendered.html);
    for (const comment of rendered.json.comments) {
      const location = comment.locations[0];
      if (comment.status === 'resolved' && location !== undefined) {
        this.#placeThread(comment, location.path, location.line, undefined);
        continue;
      }
      const shownBefore = this.threads.infoOf(comment.id);
      if (shownBefore === undefined) continue;
      // Placed by the reader at a candidate no program selects: it stays where they put it.
      if (comment.status === 'ambiguous' && this.#chosen.has(comment.id)) continue;
      // It was on a line; the code moved away from its program: say so where the reader looks.
      const why = comment.status === 'ambiguous' ? `it now matches ${comment.locations.length} places` : (comment.error?.message ?? 'it no longer resolves');
      const note = `⚠ **This comment may no longer be on its code**: its location \`${comment.expression ?? ''}\` was last found here, but ${why}.`;
      this.#placeThread(comment, shownBefore.path, shownBefore.line, note);
    }
    if (previous !== undefined) this.context.log.info(`walkthrough "${this.title}" re-resolved (revision ${this.#revision})`);
  }

  #placeThread(comment: CommentJson, path: string, line: number, staleNote: string | undefined): void {
    const info: ThreadInfo = { comment: comment.id, path, line, state: staleNote === undefined ? 'placed' : 'stale', label: staleNote === undefined ? this.title : `${this.title} (stale)`, body: comment.content };
    this.threads.place(info, vscode.Uri.file(this.session.workspace.resolve(path)), comment.icon, staleNote);
  }

  async #onMessage(message: PageMessage): Promise<void> {
    try {
      switch (message.type) {
        case 'ready':
          // A reloaded page shows ambiguous comments unplaced: tell it what the reader chose.
          for (const [comment, chosen] of this.#chosen) this.#panel.post({ type: 'placed', comment, choice: chosen.index });
          return;
        case 'revealComment': {
          const info = this.threads.infoOf(message.comment);
          if (info === undefined) return;
          this.threads.expand(info.comment);
          await showLocation(this.session, info.path, info.line, vscode.ViewColumn.One, false);
          return;
        }
        case 'placeComment':
          await this.choose(message.comment, message.choice, true);
          return;
        case 'action': {
          const action = this.#rendered?.json.actions.find((a) => a.id === message.action);
          if (action !== undefined) await this.agent.deliver({ kind: 'action', walkthrough: this.document.title ?? null, button: action.button, message: action.message });
          return;
        }
        case 'openLocation':
          await showLocation(this.session, message.path, message.line ?? 1, vscode.ViewColumn.One, false);
          return;
      }
    } catch (error) {
      this.context.log.warn(`the walkthrough panel's ${message.type} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  #closed(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.threads.clear();
    this.context.onClose();
  }
}

/** Where every comment is (status and locations), as one comparable string. */
function placements(rendered: RenderedWalkthrough): string {
  return JSON.stringify(rendered.json.comments.map((c) => [c.status, c.locations.map((l) => [l.path, l.line])]));
}

/** Resolves a walkthrough; comments the reader placed are resolved with their choice's program. */
async function resolveFor(session: IdeSession, document: WalkthroughDocument, chosen: ReadonlyMap<string, Choice>, limits: WalkthroughLimits, signal?: AbortSignal): Promise<ResolvedWalkthrough> {
  const withChoices: WalkthroughDocument =
    chosen.size === 0
      ? document
      : { ...document, elements: document.elements.map((e) => (e.kind === 'comment' && chosen.get(e.id)?.choice.program !== undefined ? { ...e, location: chosen.get(e.id)?.choice.program } : e)) };
  const env = environmentFor({ workspace: session.workspace, evaluate: (program, options) => session.evaluate(program, { ...options, deadlineMs: EDITOR_LIMITS.walkthroughCommentMs }) });
  return resolveWalkthrough(withChoices, env, { limits, ...(signal !== undefined ? { signal } : {}) });
}

/** Opens a workspace file at a line (1-based) in `column`; paths outside the folder are refused. */
async function showLocation(session: IdeSession, path: string, line: number, column: vscode.ViewColumn, preserveFocus: boolean): Promise<void> {
  const uri = vscode.Uri.file(await session.workspace.resolveReal(path));
  const position = new vscode.Position(Math.max(0, line - 1), 0);
  const editor = await vscode.window.showTextDocument(uri, { viewColumn: column, preserveFocus, preview: false, selection: new vscode.Range(position, position) });
  editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}
