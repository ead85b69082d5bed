/**
 * MCP progress notifications for one tool call: only when the client asked for them (its request
 * carried `_meta.progressToken`), with increasing `progress` values, identical consecutive
 * messages dropped, at most one message per `intervalMs` (the latest wins), and nothing after the
 * call has finished.
 */
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

/** What the MCP SDK passes a tool handler besides its arguments. */
export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Reports progress of one call; a no-op when the client gave no progress token. */
export interface ProgressReporter {
  /** Whether the client asked for progress. */
  readonly enabled: boolean;
  report(message: string): void;
  /** Stops reporting (call when the tool call ends); pending throttled messages are dropped. */
  dispose(): void;
}

/** Progress notifications for one call: throttled, and only when the client asked for them. */
export function progressReporter(extra: ToolExtra, options: { intervalMs?: number; onError?: (error: unknown) => void } = {}): ProgressReporter {
  const token = extra._meta?.progressToken;
  if (token === undefined) return { enabled: false, report: () => undefined, dispose: () => undefined };
  const intervalMs = options.intervalMs ?? 200;
  let count = 0;
  let lastMessage: string | undefined;
  let lastSentAt = 0;
  let pending: string | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;

  const send = (message: string): void => {
    if (disposed || message === lastMessage) return;
    lastMessage = message;
    lastSentAt = Date.now();
    count += 1;
    extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: count, message } }).catch((error: unknown) => options.onError?.(error));
  };

  return {
    enabled: true,
    report(message: string): void {
      if (disposed) return;
      const wait = lastSentAt + intervalMs - Date.now();
      if (wait <= 0 && timer === undefined) {
        send(message);
        return;
      }
      pending = message;
      timer ??= setTimeout(
        () => {
          timer = undefined;
          const next = pending;
          pending = undefined;
          if (next !== undefined) send(next);
        },
        Math.max(0, wait),
      );
    },
    dispose(): void {
      disposed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      pending = undefined;
    },
  };
}
