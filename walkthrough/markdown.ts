/**
 * The markdown-it instance of walkthroughs: CommonMark plus GFM tables and strikethrough, with
 * `html` off (raw HTML is shown as text), and our rules for elements, fenced elements and file
 * links. One instance serves every parse and render (markdown-it is re-entrant).
 */
import MarkdownIt, { type MarkdownIt as Markdown, type StateCore } from 'markdown-it';
import { elementBlockRule } from './block-rule.js';
import { fenceCoreRule } from './fence-rule.js';
import { elementInlineRule } from './inline-rule.js';
import { fileReferenceRule, linkCoreRule } from './links.js';
import { parseEnv } from './parse-env.js';
import { installRenderRules } from './render-rules.js';

/** A new markdown-it configured for walkthroughs, with our parse and render rules. */
export function createMarkdown(): Markdown {
  const md = new MarkdownIt('commonmark', { html: false, linkify: false, typographer: false });
  md.enable(['table', 'strikethrough']);
  md.block.ruler.before('html_block', 'wt_element', elementBlockRule, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
  md.inline.ruler.before('html_inline', 'wt_element', elementInlineRule);
  md.inline.ruler.before('link', 'wt_file_reference', fileReferenceRule);
  md.core.ruler.after('block', 'wt_fences', fenceCoreRule);
  md.core.ruler.at('inline', inlineWithLines);
  md.core.ruler.after('inline', 'wt_links', linkCoreRule);
  installRenderRules(md);
  return md;
}

/** The shared instance (rules are stateless; all state lives in each parse's and render's env). */
export const markdown = createMarkdown();

/** markdown-it's core `inline` rule, also telling our inline rules which line each text starts on. */
function inlineWithLines(state: StateCore): void {
  const env = parseEnv(state.env);
  for (const token of state.tokens) {
    if (token.type !== 'inline') continue;
    env.currentLine = token.map?.[0] ?? 0;
    state.md.inline.parse(token.content, state.md, state.env, token.children ?? (token.children = []));
  }
  env.currentLine = undefined;
}
