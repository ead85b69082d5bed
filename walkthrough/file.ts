/**
 * One call from markdown (a string or a file) to everything a caller shows: the page, the JSON
 * model and the agent summary. This is what `dialect walkthrough render FILE.md` uses.
 */
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { WalkthroughEnvironment } from './environment-types.js';
import { WalkthroughError, WalkthroughErrorCode } from './errors.js';
import { walkthroughToJson, type WalkthroughJson } from './json.js';
import type { ResolvedWalkthrough } from './model.js';
import { parseWalkthrough } from './parse.js';
import { RenderContext } from './render-context.js';
import { renderWalkthroughHtml, type RenderHtmlOptions } from './render-html.js';
import { resolveWalkthrough, type ResolveOptions } from './resolve.js';
import { summarizeWalkthrough } from './summary.js';

export interface RenderWalkthroughOptions extends RenderHtmlOptions, ResolveOptions {}

/** A rendered walkthrough in every form. */
export interface RenderedWalkthrough {
  readonly resolved: ResolvedWalkthrough;
  readonly html: string;
  readonly json: WalkthroughJson;
  /** For agents: what did not resolve and how to fix it. */
  readonly summary: string;
}

/** Parses, resolves and renders walkthrough markdown. */
export async function renderWalkthrough(markdown: string, env: WalkthroughEnvironment, options: RenderWalkthroughOptions = {}): Promise<RenderedWalkthrough> {
  const resolved = await resolveWalkthrough(parseWalkthrough(markdown), env, options);
  return {
    resolved,
    html: renderWalkthroughHtml(resolved, options),
    json: walkthroughToJson(resolved, new RenderContext(resolved)),
    summary: summarizeWalkthrough(resolved),
  };
}

/** Reads a walkthrough file and renders it; the title defaults to its first heading, else the file name. */
export async function renderWalkthroughFile(path: string, env: WalkthroughEnvironment, options: RenderWalkthroughOptions = {}): Promise<RenderedWalkthrough> {
  let markdown: string;
  try {
    markdown = await readFile(path, 'utf8');
  } catch (error) {
    throw new WalkthroughError(WalkthroughErrorCode.ReadFailed, `cannot read the walkthrough ${path}: ${(error as Error).message}`, { cause: error });
  }
  const fallbackTitle = basename(path, extname(path));
  const title = options.title ?? parseTitle(markdown) ?? fallbackTitle;
  return renderWalkthrough(markdown, env, { ...options, title });
}

function parseTitle(markdown: string): string | undefined {
  return /^#\s+(.+?)\s*#*\s*$/m.exec(markdown)?.[1];
}
