/**
 * Delivers what a reader sends the agent — a reply in a comment thread, an action button's
 * message — as the seeds do: the agent that presented the walkthrough keeps the message under a
 * reference id (`dialect/deliverToAgent` on its connection), and `<dialect-ref id="…"/>` is typed
 * into the terminal the agent runs in (found by matching the terminals' shell processes against
 * the agent's process and its ancestors), without pressing Enter, so the reader can add to it.
 * With no such terminal, or when the agent is gone, the message is copied to the clipboard and a
 * notice says so.
 */
import * as vscode from 'vscode';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { DeliverResultSchema, referenceTag, WalkthroughMethod, type AgentInfo, type AgentMessage } from '../../../walkthrough/editor-protocol.js';
import { withDeadline } from '../commands.js';

/** How long the agent may take to keep a message before it is copied instead. */
const STORE_TIMEOUT_MS = 5_000;
/** How long a terminal may take to tell its process id. */
const PROCESS_ID_TIMEOUT_MS = 2_000;

/** Where a message went. */
export type Delivered =
  | { readonly to: 'terminal'; readonly terminal: string; readonly text: string }
  | { readonly to: 'clipboard'; readonly text: string; readonly why: string };

/** The agent a walkthrough came from: its connection (while open) and its processes. */
export class AgentChannel {
  #open = true;

  constructor(
    private readonly connection: MessageConnection,
    private readonly agent: AgentInfo | undefined,
  ) {
    connection.onClose(() => (this.#open = false));
  }

  /** Sends `message` to the agent (see the module comment) and tells the reader where it went. */
  async deliver(message: AgentMessage): Promise<Delivered> {
    const id = this.#open ? await this.#store(message) : undefined;
    const terminal = await this.#agentTerminal();
    if (id !== undefined && terminal !== undefined) {
      const text = referenceTag(id);
      terminal.show(false);
      // No Enter: the reader sees what goes to the agent and may add to it.
      terminal.sendText(`${text} `, false);
      return { to: 'terminal', terminal: terminal.name, text };
    }
    const text = id !== undefined ? referenceTag(id) : readable(message);
    const why = id === undefined ? 'the agent that presented this walkthrough is no longer connected' : 'the agent does not run in one of this window\'s terminals';
    try {
      await vscode.env.clipboard.writeText(text);
      void vscode.window.showInformationMessage(`Dialect: copied to the clipboard (${why}); paste it into your agent's chat.`);
    } catch {
      // A browser may refuse the clipboard: the notice then carries the text itself.
      void vscode.window.showInformationMessage(`Dialect: ${why}; give your agent this: ${text}`);
    }
    return { to: 'clipboard', text, why };
  }

  async #store(message: AgentMessage): Promise<string | undefined> {
    try {
      const raw = await withDeadline(this.connection.sendRequest(WalkthroughMethod.Deliver, message), STORE_TIMEOUT_MS);
      const parsed = DeliverResultSchema.safeParse(raw);
      return parsed.success ? parsed.data.id : undefined;
    } catch {
      return undefined;
    }
  }

  /** The terminal whose shell is the agent's process or an ancestor of it (the nearest wins). */
  async #agentTerminal(): Promise<vscode.Terminal | undefined> {
    const pids = this.agent?.pids ?? [];
    if (pids.length === 0) return undefined;
    const withPids = await Promise.all(vscode.window.terminals.map(async (t) => ({ terminal: t, pid: await withDeadline(t.processId, PROCESS_ID_TIMEOUT_MS) })));
    let best: { terminal: vscode.Terminal; rank: number } | undefined;
    for (const { terminal, pid } of withPids) {
      const rank = pid === undefined ? -1 : pids.indexOf(pid);
      if (rank >= 0 && (best === undefined || rank < best.rank)) best = { terminal, rank };
    }
    return best?.terminal;
  }
}

/** The message as text a person can paste (when no reference could be kept). */
function readable(message: AgentMessage): string {
  if (message.kind === 'action') return message.message;
  const at = message['in-reply-to-comment-at'];
  return `In reply to the walkthrough comment at ${at.file}:${at.start.line}${at.end.line !== at.start.line ? `-${at.end.line}` : ''} ("${at.comment}"): ${message.reply}`;
}
