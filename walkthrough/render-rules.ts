/**
 * markdown-it renderer rules for our tokens: elements, in-place warnings, file links and images.
 * Each render passes its resolved data in `env.render` (see `render-context.ts`).
 */
import type { MarkdownIt, Renderer, Token } from 'markdown-it';
import { showControls } from '../dialect/display.js';
import { attributes, escapeHtml } from './html.js';
import { iconSvg } from './icons.js';
import { isFileLinkMeta, type ImageMeta } from './links.js';
import type { ResolvedLink, WalkthroughWarning } from './model.js';
import { ELEMENT_TOKEN, WARNING_TOKEN, type ElementTokenMeta, type WarningTokenMeta } from './parse-env.js';
import { renderAction, renderComment, renderDiff, renderMermaid, renderWarning, type ElementRenderContext } from './render-elements.js';

/** What the rules read from `env.render`. */
export interface RulesContext extends ElementRenderContext {
  /** Renders element `id` (undefined if the context does not know it). */
  element(id: string): string | undefined;
  link(id: string): ResolvedLink | undefined;
  /** A warning of the document, by the index warning tokens carry. */
  documentWarning(index: number): WalkthroughWarning | undefined;
}

const contextOf = (env: unknown): RulesContext | undefined => (env as { render?: RulesContext } | undefined)?.render;

/** Installs the render rules of walkthrough tokens on a markdown-it instance. */
export function installRenderRules(md: MarkdownIt): void {
  const rules = md.renderer.rules;
  // The prose's own text is shown as all of the page's text is (`escapeHtml`: hidden and control
  // characters visible); markdown-it's rules escape markup only.
  rules['text'] = (tokens, idx) => escapeHtml(tokens[idx]?.content ?? '');
  for (const name of ['code_inline', 'code_block', 'fence'] as const) {
    const base = rules[name];
    if (base === undefined) continue;
    rules[name] = (tokens, idx, options, env, self) => withShownContent(tokens, idx, () => base(tokens, idx, options, env, self));
  }
  rules[ELEMENT_TOKEN] = (tokens, idx, _options, env) => {
    const id = (tokens[idx]?.meta as ElementTokenMeta | undefined)?.id ?? '';
    return contextOf(env)?.element(id) ?? `<span class="wt-warning">${iconSvg('warning')} ${escapeHtml(id)} was not resolved</span>`;
  };
  rules[WARNING_TOKEN] = (tokens, idx, _options, env) => renderWarning(contextOf(env)?.documentWarning((tokens[idx]?.meta as WarningTokenMeta | undefined)?.warning ?? -1), true);
  rules['link_open'] = (tokens, idx, options, env, self) => renderLinkOpen(tokens, idx, env, self, options);
  rules['link_close'] = (tokens, idx, _options, env) => {
    const meta: unknown = tokens[idx]?.meta;
    if (!isFileLinkMeta(meta)) return '</a>';
    const error = contextOf(env)?.link(meta.fileLink)?.error;
    const ctx = contextOf(env);
    const warning = error !== undefined ? ctx?.warningsFor(meta.fileLink)[0] : undefined;
    return `</a>${warning !== undefined ? renderWarning(warning) : ''}`;
  };
  rules['image'] = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const alt = token?.children !== null && token?.children !== undefined ? self.renderInlineAsText(token.children, options, env) : '';
    const warning = contextOf(env)?.documentWarning((token?.meta as ImageMeta | undefined)?.warning ?? -1);
    return `<span class="wt-image" role="img"${attributes({ 'aria-label': alt })}>${iconSvg('image')} ${escapeHtml(alt)}</span>${renderWarning(warning)}`;
  };
}

/**
 * Renders token `idx` by markdown-it's own rule with its content shown (`showControls`; the rule
 * escapes the markup), the token given back as it was: a parse's tokens render again on every
 * re-resolution.
 */
function withShownContent(tokens: Token[], idx: number, render: () => string): string {
  const token = tokens[idx];
  if (token === undefined) return render();
  const content = token.content;
  token.content = showControls(content);
  try {
    return render();
  } finally {
    token.content = content;
  }
}

function renderLinkOpen(tokens: Token[], idx: number, env: unknown, self: Renderer, options: Parameters<Renderer['renderToken']>[2]): string {
  const token = tokens[idx];
  const meta: unknown = token?.meta;
  if (token === undefined) return '';
  if (!isFileLinkMeta(meta)) {
    // markdown-it has already refused javascript:, vbscript:, file: and data: URLs.
    const href = String(token.attrGet('href') ?? '');
    const title = token.attrGet('title');
    return `<a${attributes({ href, title: title === null ? undefined : String(title), rel: 'noopener noreferrer', target: '_blank', class: 'wt-external' })}>`;
  }
  const resolved = contextOf(env)?.link(meta.fileLink);
  if (resolved === undefined) return self.renderToken(tokens, idx, options);
  const { link } = resolved;
  const line = resolved.line ?? link.startLine;
  const where = line !== undefined ? `${link.path}:${line}` : link.path;
  const title = resolved.error !== undefined ? `${where} (broken: ${resolved.error})` : resolved.text !== undefined ? `${where}: ${resolved.text.trim()}` : where;
  return `<a${attributes({
    class: `wt-file-link${resolved.error !== undefined ? ' wt-broken' : ''}`,
    role: 'link',
    tabindex: '0',
    'data-link': link.id,
    'data-path': link.path,
    'data-line': line,
    'data-end-line': link.endLine,
    'data-column': link.column,
    title,
  })}>`;
}


export { renderAction, renderComment, renderDiff, renderMermaid };
