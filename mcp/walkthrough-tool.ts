/**
 * The `present_walkthrough` tool: parses the walkthrough markdown, resolves every comment's
 * location with the IDE session of `baseUri` — the server's workspace or a folder inside it (the
 * server's own session for its workspace, else a cached session for that subfolder, whose paths
 * are relative to it); nothing outside the workspace is ever read — renders the HTML page into the output folder
 * and answers with the page's path and URI plus every comment that did not resolve or was
 * ambiguous (with the programs that fix it), so the agent can correct and present it again.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { DialectError } from '../dialect/index.js';
import { statusLine } from '../ide-adapter/index.js';
import { writeFileSafelySync } from '../ide-adapter/safe-write.js';
import { environmentFor, renderWalkthrough, WalkthroughError, WalkthroughErrorCode, type WalkthroughJson, type WalkthroughLimits } from '../walkthrough/index.js';
import { indexingLine, indexingSchema, indexingState, type IndexingState } from './ide-operation.js';
import type { PresentResult } from '../walkthrough/editor-protocol.js';
import type { EditorPresenter } from './editor-presenter.js';
import { progressReporter, type ToolExtra } from './progress.js';
import { ToolInputError, type SessionCache } from './sessions.js';

/** The arguments of `present_walkthrough`; `content` longer than `maxLength` is refused by the schema. */
export function presentWalkthroughInputSchema(maxLength: number) {
  return {
    content: z
      .string({
        error: (issue) =>
          issue.input === undefined
            ? 'missing the argument "content": pass the walkthrough as markdown (see the resource walkthrough-format.md)'
            : '"content" must be a string of markdown (see the resource walkthrough-format.md)',
      })
      .max(maxLength, { error: `the walkthrough is longer than ${maxLength} characters (the limit maxMarkdownChars); split it into several walkthroughs (one per topic, module or change) and present them one after another` })
      .describe('The walkthrough: markdown with <comment location="…">, <action button="…">, <mermaid> and <gitdiff range="…"> elements (or their ```comment / ```action / ```mermaid / ```gitdiff fenced forms). See walkthrough-format.md.'),
    baseUri: z
      .string({
        error: (issue) =>
          issue.input === undefined
            ? 'missing the argument "baseUri": pass the absolute path (or file:// URI) of the workspace folder the walkthrough is about'
            : '"baseUri" must be a string: the absolute path (or file:// URI) of the workspace folder',
      })
      .describe("The folder the walkthrough is about (absolute path or file:// URI): the server's workspace or a folder inside it; paths in the walkthrough are relative to it."),
  };
}

const problemSchema = z.object({
  id: z.string().describe('the comment, e.g. comment-2'),
  line: z.number().describe('the line of the walkthrough it starts on'),
  status: z.enum(['ambiguous', 'unresolved']),
  location: z.string().nullable().describe('the location expression as written'),
  message: z.string(),
  choices: z
    .array(z.object({ label: z.string(), where: z.string(), program: z.string().optional().describe('put this in location= to select this place') }))
    .optional(),
  error: z.string().optional().describe('the error text (with a caret under the problem)'),
});

/** The structured content of a `present_walkthrough` result. */
export const presentWalkthroughOutputSchema = z.object({
  shownIn: z
    .object({
      editor: z.string().describe('the editor window that shows it, e.g. "code-server 1.139.1"'),
      panel: z.string().describe("the panel's title"),
      threads: z.array(z.object({ comment: z.string(), path: z.string(), line: z.number() })).describe('each comment placed as a comment thread in the editor, on its line'),
      opened: z.object({ path: z.string(), line: z.number() }).nullable().describe('the file opened beside the panel'),
    })
    .nullable()
    .describe('where the editor shows the walkthrough (a panel beside the code, comments as threads on their lines); null when it was written as a page instead'),
  path: z.string().nullable().describe('the HTML page written (null when the editor shows it)'),
  uri: z.string().nullable().describe('the page as a file:// URI (null when the editor shows it)'),
  title: z.string().nullable(),
  workspace: z.string().describe('the folder locations were resolved in'),
  counts: z.object({
    comments: z.number(),
    resolved: z.number(),
    ambiguous: z.number(),
    unresolved: z.number(),
    actions: z.number(),
    diagrams: z.number(),
    diffs: z.number(),
    failedDiffs: z.number(),
    warnings: z.number(),
  }),
  problems: z.array(problemSchema).describe('every comment that is ambiguous or did not resolve'),
  warnings: z.array(z.object({ code: z.string(), message: z.string(), line: z.number().optional() })),
  indexing: indexingSchema,
});

/** The structured content of a `present_walkthrough` result (the type of its schema). */
export type PresentWalkthroughResult = z.infer<typeof presentWalkthroughOutputSchema>;

/** What one `present_walkthrough` call runs with. */
export interface WalkthroughToolContext {
  /** The server's workspaces: the one a `baseUri` is in, with its sessions (`workspaces.ts`). */
  readonly workspaces: { folder(baseUri: string): Promise<{ readonly folder: string; readonly sessions: SessionCache }> };
  /** The folder pages are written to (created on first use). */
  readonly outputDir: () => Promise<string>;
  /** Longest one comment's location may take to evaluate; the whole walkthrough gets twice that. */
  readonly deadlineMs: number;
  /** How much work one walkthrough may cause. */
  readonly limits: WalkthroughLimits;
  readonly log: (line: string) => void;
  /** Shows walkthroughs in the editor that has their folder open; without it, pages are written. */
  readonly editor?: EditorPresenter;
}

let pageCounter = 0;

/** Runs one `present_walkthrough` call. */
export async function runPresentWalkthrough(ctx: WalkthroughToolContext, content: string, baseUri: string, extra: ToolExtra): Promise<CallToolResult> {
  const progress = progressReporter(extra);
  const overall = AbortSignal.timeout(2 * ctx.deadlineMs);
  const signal = AbortSignal.any([extra.signal, overall]);
  let unsubscribe: (() => void) | undefined;
  try {
    const { folder: root, sessions } = await ctx.workspaces.folder(baseUri);
    // The editor that has the folder open shows it beside the code; otherwise, a page.
    const inEditor = ctx.editor !== undefined ? await ctx.editor.present(content, root, signal) : undefined;
    if (inEditor?.shown === true) return editorResult(inEditor.result, root);
    const session = await sessions.sessionFor(root);
    progress.report(`resolving the walkthrough's locations in ${root}`);
    if (progress.enabled) unsubscribe = session.backend.onStatus((status) => progress.report(statusLine(status)));
    // Each location gets the ide_operation deadline: one slow query becomes one unresolved comment.
    const env = environmentFor({ workspace: session.workspace, evaluate: (program, options) => session.evaluate(program, { ...options, deadlineMs: ctx.deadlineMs }) });
    const rendered = await renderWalkthrough(content, env, { signal, limits: ctx.limits });
    const dir = await ctx.outputDir();
    pageCounter += 1;
    // Servers share the pages folder: the time, the process and a counter make the name unique,
    // and the safe writer never replaces anything (another server's page, a link) at the name.
    const path = join(dir, `${fileStem(rendered.json.title)}-${Date.now().toString(36)}${process.pid.toString(36)}-${pageCounter}.html`);
    writeFileSafelySync(path, rendered.html, { replace: { kind: 'never' } });
    const uri = pathToFileURL(path).href;
    const indexing = indexingState(session);
    const structured: PresentWalkthroughResult = { shownIn: null, path, uri, title: rendered.json.title, workspace: root, counts: countsOf(rendered.json), problems: problemsOf(rendered.json), warnings: warningsOf(rendered.json), indexing };
    const notShown = inEditor !== undefined && inEditor.shown === false && inEditor.tried ? [`(No editor showed it: ${inEditor.reason})`] : [];
    const text = [`The walkthrough page is written to ${path}`, `Open it: ${uri}`, ...notShown, '', rendered.summary + fixHint(structured.problems.length), ...incompleteLines(indexing)].join('\n');
    return { content: [{ type: 'text', text }], structuredContent: structured };
  } catch (error) {
    if (error instanceof ToolInputError) return toolError(error.message);
    // A walkthrough over a limit (or otherwise refused) is the caller's to fix: the message says how.
    if (error instanceof WalkthroughError && error.code !== WalkthroughErrorCode.Cancelled) return toolError(error.message);
    if (error instanceof DialectError) return toolError(`${error.message}${error.hint !== undefined ? ` (${error.hint})` : ''}`);
    if (extra.signal.aborted) return toolError('present_walkthrough was cancelled');
    if (overall.aborted) return toolError(`present_walkthrough did not finish within ${(2 * ctx.deadlineMs) / 1000} s; the language servers may still be indexing — try again shortly, or use fewer comments`);
    ctx.log(`present_walkthrough failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return toolError(`present_walkthrough failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    unsubscribe?.();
    progress.dispose();
  }
}

/**
 * The servers' state in the text only when it matters: a walkthrough made while they were not
 * complete says so in one line; a complete one says nothing (its `indexing` carries the state), so
 * an agent presenting again and again does not read the same line each time.
 */
function incompleteLines(indexing: IndexingState): string[] {
  return indexing.complete ? [] : ['', indexingLine(indexing)];
}

/** What to do about problems, for the text of a result. */
function fixHint(problems: number): string {
  return problems > 0
    ? `\n\nFix the comments above and call present_walkthrough again with the whole walkthrough. A program with "double quotes" goes as is into a \`\`\`comment block's location: line, or into a single-quoted attribute: location='findDefinition("name", file: "src/a.rs")'.`
    : '';
}

/** The result of a walkthrough the editor shows. */
function editorResult(result: PresentResult, root: string): CallToolResult {
  const json = result.json as unknown as WalkthroughJson;
  const { shown } = result;
  const structured: PresentWalkthroughResult = {
    shownIn: { editor: shown.editor, panel: shown.panel, threads: shown.threads.map((t) => ({ comment: t.comment, path: t.path, line: t.line })), opened: shown.opened },
    path: null,
    uri: null,
    title: json.title,
    workspace: root,
    counts: countsOf(json),
    problems: problemsOf(json),
    warnings: warningsOf(json),
    indexing: result.indexing,
  };
  const placed = shown.threads.length;
  const text = [
    `The walkthrough is shown in ${shown.editor}: the panel "${shown.panel}" beside the code, with ${placed} comment${placed === 1 ? '' : 's'} placed as comment threads on their lines${shown.opened !== null ? ` (${shown.opened.path}:${shown.opened.line} is open beside it)` : ''}. Replies the reader writes in a thread and action buttons come back to you as <dialect-ref id="…"/> tags: read them with expand_reference.`,
    '',
    result.summary + fixHint(structured.problems.length),
    ...incompleteLines(result.indexing),
  ].join('\n');
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

function countsOf(json: WalkthroughJson): PresentWalkthroughResult['counts'] {
  const c = json.counts;
  return { comments: c.comments, resolved: c.resolved, ambiguous: c.ambiguous, unresolved: c.unresolved, actions: c.actions, diagrams: c.diagrams, diffs: c.diffs, failedDiffs: c.failedDiffs, warnings: c.warnings };
}

function problemsOf(json: WalkthroughJson): PresentWalkthroughResult['problems'] {
  return json.comments.flatMap((c): PresentWalkthroughResult['problems'] => {
    if (c.status === 'resolved') return [];
    if (c.status === 'ambiguous') {
      const choices = (c.choices ?? []).map((ch) => ({ label: ch.label, where: `${ch.location.path}:${ch.location.line}`, ...(ch.program !== undefined ? { program: ch.program } : {}) }));
      const more = c.omitted ?? 0;
      const message = `${c.ambiguity ?? 'several locations match'}${more > 0 ? `; only the first ${choices.length} are listed (${more} more)` : ''}`;
      return [{ id: c.id, line: c.line, status: 'ambiguous', location: c.expression, message, choices }];
    }
    return [{ id: c.id, line: c.line, status: 'unresolved', location: c.expression, message: c.error?.message ?? 'the location did not resolve', ...(c.error !== undefined ? { error: c.error.text } : {}) }];
  });
}

function warningsOf(json: WalkthroughJson): PresentWalkthroughResult['warnings'] {
  return json.warnings.map((w) => ({ code: w.code, message: w.message, ...(w.line !== undefined ? { line: w.line } : {}) }));
}

function toolError(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/** A file-name-safe stem from the walkthrough's title. */
function fileStem(title: string | null): string {
  const slug = (title ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  return slug === '' ? 'walkthrough' : `walkthrough-${slug}`;
}

/** Makes (once) the folder pages go to. */
export function outputDirectory(preferred: string | undefined, fallback: () => Promise<string>): () => Promise<string> {
  let dir: Promise<string> | undefined;
  return () => {
    dir ??= (async () => {
      const target = preferred ?? (await fallback());
      await mkdir(target, { recursive: true });
      return target;
    })();
    dir.catch(() => (dir = undefined)); // a failure is retried on the next call
    return dir;
  };
}
