/**
 * A walkthrough's comments in the editor: one comment thread per placed comment, on the line its
 * location names (where the name is, not the whole declaration), expanded, labelled with the
 * walkthrough's title, open for replies. The threads belong to one comment controller of the
 * window; a new walkthrough clears the previous one's threads first.
 */
import * as vscode from 'vscode';
import type { ThreadInfo } from '../../../walkthrough/editor-protocol.js';
import { iconSvg, pageIcon } from '../../../walkthrough/index.js';

/** The comment controller's id (`commentController == …` in package.json's menus). */
export const COMMENT_CONTROLLER_ID = 'dialect.walkthrough';
/** The name the walkthrough's comments are shown under (the seeds' "AI Agent"). */
const AGENT_AUTHOR = 'AI agent';
/** The name the reader's own replies are shown under. */
const READER_AUTHOR = 'You';
/** The colour of comment icons beside the author's name (an image cannot take the theme's text colour). */
const ICON_COLOUR = '#3794ff';

/** One comment of a thread. */
class ThreadComment implements vscode.Comment {
  mode = vscode.CommentMode.Preview;
  constructor(
    public body: vscode.MarkdownString,
    public author: vscode.CommentAuthorInformation,
    public label?: string,
  ) {}
}

/** A comment's thread and what it shows. */
interface PlacedThread {
  readonly thread: vscode.CommentThread;
  info: ThreadInfo;
}

/** The threads of the walkthrough shown now. */
export class WalkthroughThreads implements vscode.Disposable {
  readonly #controller: vscode.CommentController;
  readonly #threads = new Map<string, PlacedThread>();

  constructor() {
    this.#controller = vscode.comments.createCommentController(COMMENT_CONTROLLER_ID, 'Dialect walkthrough');
  }

  /**
   * Shows `info` (a comment at `uri`, 1-based line): a new thread, or the comment's thread moved
   * and rewritten when it is already shown. `note` goes above the comment's own text (why it is stale).
   */
  place(info: ThreadInfo, uri: vscode.Uri, icon: string, note?: string): void {
    const range = new vscode.Range(info.line - 1, 0, info.line - 1, 0);
    const body = markdown(note !== undefined ? `${note}\n\n---\n\n${info.body}` : info.body);
    const existing = this.#threads.get(info.comment);
    if (existing !== undefined && existing.thread.uri.toString() === uri.toString()) {
      existing.thread.range = range;
      const [first, ...replies] = existing.thread.comments;
      if (first !== undefined) existing.thread.comments = [new ThreadComment(body, first.author), ...replies];
      existing.thread.label = info.label;
      existing.info = info;
      return;
    }
    existing?.thread.dispose();
    const thread = this.#controller.createCommentThread(uri, range, [new ThreadComment(body, { name: AGENT_AUTHOR, iconPath: authorIcon(icon) })]);
    thread.label = info.label;
    thread.canReply = true;
    thread.contextValue = info.comment;
    thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
    this.#threads.set(info.comment, { thread, info });
  }

  /** Removes a comment's thread (it has no place any more). */
  remove(comment: string): void {
    this.#threads.get(comment)?.thread.dispose();
    this.#threads.delete(comment);
  }

  /** Expands a comment's thread (the reader clicked its location in the panel). */
  expand(comment: string): void {
    const placed = this.#threads.get(comment);
    if (placed !== undefined) placed.thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
  }

  /** The comment a thread shows, when it is one of ours. */
  commentOf(thread: vscode.CommentThread): ThreadInfo | undefined {
    for (const placed of this.#threads.values()) if (placed.thread === thread) return placed.info;
    return undefined;
  }

  /** Adds the reader's reply to its thread, labelled with where it went. */
  addReply(thread: vscode.CommentThread, text: string, where: string): void {
    thread.comments = [...thread.comments, new ThreadComment(markdown(text), { name: READER_AUTHOR }, where)];
  }

  /** What a comment's thread shows, when it has one. */
  infoOf(comment: string): ThreadInfo | undefined {
    return this.#threads.get(comment)?.info;
  }

  /** What is shown, in the order comments were placed. */
  infos(): ThreadInfo[] {
    return [...this.#threads.values()].map((p) => p.info);
  }

  /** Removes every thread. */
  clear(): void {
    for (const placed of this.#threads.values()) placed.thread.dispose();
    this.#threads.clear();
  }

  dispose(): void {
    this.clear();
    this.#controller.dispose();
  }
}

/** A comment's icon (the page's drawing) as an image beside the author's name. */
function authorIcon(icon: string): vscode.Uri {
  const svg = iconSvg(pageIcon(icon).drawing).replace('<svg ', '<svg xmlns="http://www.w3.org/2000/svg" ').replaceAll('currentColor', ICON_COLOUR);
  return vscode.Uri.parse(`data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`);
}

/** Markdown from a walkthrough: no command links, no HTML (it came from an agent). */
function markdown(text: string): vscode.MarkdownString {
  const value = new vscode.MarkdownString(text);
  value.isTrusted = false;
  value.supportHtml = false;
  return value;
}
