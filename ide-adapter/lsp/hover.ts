/**
 * Hover text as servers write it, turned into the port's `HoverInfo`: which code block is the
 * signature (a server's own layout, declared by its definition: `hoverSignature`), the rest as
 * documentation, and `file://` links into the workspace as `path:line:column`.
 */
import type { HoverInfo } from '../backend.js';
import { uriToPath } from './uris.js';

/**
 * Which fenced code block of a hover is the signature. rust-analyzer puts the module path first
 * and the signature last; the default is the last block too, the layout the built-in servers share.
 */
export type HoverSignature = 'first-code-block' | 'last-code-block';

/** A fenced code block, its language tag left out. */
const CODE_BLOCK = /```[a-zA-Z0-9_-]*\n([\s\S]*?)```/g;

/** A `file://` link with an optional `#L12`, `#12:3` or `#L12,3` position. */
const FILE_LINK = /file:\/\/[^\s)#]+(?:#L?(\d+)(?:[,:](\d+))?[^\s)]*)?/g;

/**
 * Splits hover Markdown into the signature (one code block, chosen by `layout`) and the
 * documentation (everything else, horizontal rules dropped); undefined parts are left out.
 */
export function hoverInfo(markdown: string, layout: HoverSignature = 'last-code-block'): HoverInfo {
  if (markdown.trim() === '') return {};
  const blocks = [...markdown.matchAll(CODE_BLOCK)].map((m) => (m[1] ?? '').trim());
  const rest = markdown.replace(CODE_BLOCK, '').replace(/^\s*---\s*$/gm, '').trim();
  const signature = layout === 'first-code-block' ? blocks[0] : blocks[blocks.length - 1];
  return { ...(signature !== undefined ? { signature } : {}), ...(rest !== '' ? { documentation: rest } : {}) };
}

/**
 * Rewrites `file://` links (hover docs have them) as `path:line:column` when `toWorkspacePath`
 * maps the file into the workspace; other links stay as they are.
 */
export function workspaceLinks(markdown: string, toWorkspacePath: (absPath: string) => string | undefined): string {
  return markdown.replace(FILE_LINK, (uri: string, line?: string, column?: string) => {
    const abs = uriToPath(uri.replace(/#.*$/, ''));
    const path = abs === undefined ? undefined : toWorkspacePath(abs);
    if (path === undefined) return uri;
    return `${path}${line !== undefined ? `:${line}${column !== undefined ? `:${column}` : ''}` : ''}`;
  });
}
