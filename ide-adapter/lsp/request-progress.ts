/**
 * The progress a request of ours reports is that request's, not the server's indexing. Without a
 * token of ours, a server creates its own (`window/workDoneProgress/create`) for a long request —
 * pyright's "Finding references" — and that work reads as the server indexing: answers made while
 * (or just before) it ends said "still indexing, ask again shortly" on a ready server. Requests
 * that take a `workDoneToken` are sent with one of ours, and progress on our tokens is the
 * request's own (the status and readiness never see it).
 */

/** The requests whose params take a `workDoneToken` (`WorkDoneProgressParams` in the protocol). */
const REQUESTS_WITH_PROGRESS: ReadonlySet<string> = new Set([
  'textDocument/references',
  'textDocument/definition',
  'textDocument/declaration',
  'textDocument/typeDefinition',
  'textDocument/implementation',
  'textDocument/hover',
  'textDocument/documentSymbol',
  'workspace/symbol',
  'textDocument/prepareCallHierarchy',
  'callHierarchy/incomingCalls',
  'callHierarchy/outgoingCalls',
  'textDocument/prepareTypeHierarchy',
  'typeHierarchy/supertypes',
  'typeHierarchy/subtypes',
]);

/** What every token of ours begins with. */
const TOKEN_PREFIX = 'dialect-request-';

let nextToken = 0;

/** The params with a fresh token of ours, for a request that takes one (and has none); else the params as they are. */
export function withRequestToken(method: string, params: unknown): unknown {
  if (!REQUESTS_WITH_PROGRESS.has(method) || typeof params !== 'object' || params === null || Array.isArray(params) || 'workDoneToken' in params) return params;
  nextToken++;
  return { ...params, workDoneToken: `${TOKEN_PREFIX}${nextToken}` };
}

/** Whether a `$/progress` token is one of ours (a request's own progress). */
export function isRequestToken(token: unknown): boolean {
  return typeof token === 'string' && token.startsWith(TOKEN_PREFIX);
}
