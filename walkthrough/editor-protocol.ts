/**
 * The walkthrough methods an editor serves beside the IDE backend, on the same socket and
 * connection (`ide-adapter/remote`; the Dialect extension for VS Code serves them):
 *
 * - `dialect/presentWalkthrough` (client → editor): the editor resolves the walkthrough with its
 *   own language features, shows it in a panel beside the code, places each comment as a thread
 *   on its line, and keeps the comments on their code as files change. The answer is the same
 *   JSON and agent summary a page gives, plus where everything was shown.
 * - `dialect/walkthroughStatus` (client → editor): what is shown now (threads and their lines).
 * - `dialect/deliverToAgent` (editor → client): a reader's reply to a comment, or an action's
 *   message, for the agent that presented the walkthrough. The client keeps it and answers with
 *   the reference id the editor types into the agent's terminal (`<dialect-ref id="…"/>`).
 *
 * Both sides validate what they receive with these schemas.
 */
import { z } from 'zod';

/** The method names. */
export const WalkthroughMethod = {
  Present: 'dialect/presentWalkthrough',
  Status: 'dialect/walkthroughStatus',
  Deliver: 'dialect/deliverToAgent',
} as const;

/** Most process ids an agent lists (its own and its ancestors'). */
export const MAX_AGENT_PIDS = 64;

/** Who presents: the processes the editor can match against its terminals to find the agent's. */
export const AgentSchema = z.object({
  /** The presenting process and its ancestors, nearest first. */
  pids: z.array(z.number().int().positive()).max(MAX_AGENT_PIDS),
});
/** See {@link AgentSchema}. */
export type AgentInfo = z.infer<typeof AgentSchema>;

/** The params of `dialect/presentWalkthrough`. */
export const PresentParamsSchema = z.object({
  markdown: z.string(),
  /** The absolute folder the walkthrough's paths are relative to (the editor's folder or one inside it). */
  folder: z.string().min(1),
  agent: AgentSchema.optional(),
});
/** See {@link PresentParamsSchema}. */
export type PresentParams = z.infer<typeof PresentParamsSchema>;

/** One comment thread the editor shows. */
export const ThreadInfoSchema = z.object({
  /** The comment (`comment-2`). */
  comment: z.string(),
  /** Relative to the walkthrough's folder. */
  path: z.string(),
  /** 1-based: the line the comment sits on. */
  line: z.number().int().positive(),
  /** `placed`: on the line its program resolves to; `stale`: its program no longer resolves (the thread says so). */
  state: z.enum(['placed', 'stale']),
  label: z.string(),
  /** The thread's first comment as markdown. */
  body: z.string(),
});
/** See {@link ThreadInfoSchema}. */
export type ThreadInfo = z.infer<typeof ThreadInfoSchema>;

/** What the editor shows: the panel and the threads. */
export const ShownSchema = z.object({
  /** The editor (`code-server 1.139.1`). */
  editor: z.string(),
  /** The panel's title. */
  panel: z.string(),
  /** Counts up with every re-resolution that changed something. */
  revision: z.number().int().nonnegative(),
  threads: z.array(ThreadInfoSchema),
  /** The file opened beside the panel (the first placed comment's), if any. */
  opened: z.object({ path: z.string(), line: z.number().int().positive() }).nullable(),
});
/** See {@link ShownSchema}. */
export type ShownWalkthrough = z.infer<typeof ShownSchema>;

/** The result of `dialect/presentWalkthrough`: where it is shown, the walkthrough JSON and the agent summary. */
export const PresentResultSchema = z.object({
  shown: ShownSchema,
  /** `WalkthroughJson` (json.ts); checked for its counts and comments here, typed by the caller. */
  json: z.looseObject({
    title: z.string().nullable(),
    counts: z.looseObject({ comments: z.number(), resolved: z.number(), ambiguous: z.number(), unresolved: z.number() }),
    comments: z.array(z.looseObject({ id: z.string(), status: z.enum(['resolved', 'ambiguous', 'unresolved']) })),
    warnings: z.array(z.looseObject({ code: z.string(), message: z.string() })),
  }),
  summary: z.string(),
  /** Whether the editor's language features had finished indexing (`ide-adapter/indexing.ts`). */
  indexing: z.object({ complete: z.boolean(), pending: z.array(z.string()), servers: z.array(z.string()), stillIndexing: z.boolean(), backend: z.enum(['vscode', 'spawned']) }),
});
/** See {@link PresentResultSchema}. */
export type PresentResult = z.infer<typeof PresentResultSchema>;

/** The result of `dialect/walkthroughStatus`: what is shown now, or null. */
export const StatusResultSchema = z.object({ shown: ShownSchema.nullable() });
/** See {@link StatusResultSchema}. */
export type StatusResult = z.infer<typeof StatusResultSchema>;

/** A reader's reply to a comment: the seeds' `in-reply-to-comment-at`, plus what the reader wrote. */
export const ReplySchema = z.object({
  kind: z.literal('reply'),
  walkthrough: z.string().nullable(),
  'in-reply-to-comment-at': z.object({
    file: z.string(),
    start: z.object({ line: z.number().int().positive() }),
    end: z.object({ line: z.number().int().positive() }),
    comment: z.string(),
  }),
  reply: z.string(),
});

/** An action button the reader pressed: its message is for the agent. */
export const ActionSchema = z.object({
  kind: z.literal('action'),
  walkthrough: z.string().nullable(),
  button: z.string(),
  message: z.string(),
});

/** The params of `dialect/deliverToAgent`. */
export const DeliverParamsSchema = z.discriminatedUnion('kind', [ReplySchema, ActionSchema]);
/** See {@link DeliverParamsSchema}. */
export type AgentMessage = z.infer<typeof DeliverParamsSchema>;

/** The result of `dialect/deliverToAgent`: the reference id the agent expands. */
export const DeliverResultSchema = z.object({ id: z.string().min(1) });

/** The tag the agent reads in its input and expands with `expand_reference`. */
export function referenceTag(id: string): string {
  return `<dialect-ref id="${id.replace(/["<>&]/g, '')}"/>`;
}
