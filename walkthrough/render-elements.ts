/**
 * HTML of our elements. Only phrasing markup (`span`, `button`, `code`) inside the outer element,
 * so inline forms can sit in a paragraph; the outer element is a `div` for block forms. Every
 * text is escaped; behaviour comes from the page script via classes and `data-*` attributes.
 */
import { showFieldControls } from '../dialect/display.js';
import { formatCodeLocation } from './locations.js';
import { attributes, escapeField, escapeHtml } from './html.js';
import { iconSvg, pageIcon } from './icons.js';
import type { ActionElement, CodeLocation, MermaidElement, ResolvedComment, ResolvedDiff, WalkthroughWarning } from './model.js';
import { renderDiffBody } from './render-diff.js';

/** What element renderers need from the render context. */
export interface ElementRenderContext {
  contentHtml(id: string): string;
  warningsFor(id: string): readonly WalkthroughWarning[];
}

const wrapper = (form: string): 'div' | 'span' => (form === 'inline' ? 'span' : 'div');

/**
 * A warning where it happened. `brief` shows only the first sentence (the full text is in the
 * tooltip and in the warnings list at the top), so a stray tag does not drown the paragraph.
 */
export function renderWarning(warning: WalkthroughWarning | undefined, brief = false): string {
  if (warning === undefined) return '';
  const where = warning.line !== undefined ? `line ${warning.line}: ` : '';
  const sentence = /^.*?[.!?](?=\s|$)/s.exec(warning.message)?.[0];
  const text = brief && sentence !== undefined ? sentence : warning.message;
  return `<span class="wt-warning" role="note"${attributes({ 'data-code': warning.code, title: `${where}[${warning.code}] ${warning.message}` })}>${iconSvg('warning')} ${escapeHtml(text)}</span>`;
}

function renderWarnings(warnings: readonly WalkthroughWarning[]): string {
  return warnings.length === 0 ? '' : `<span class="wt-element-warnings">${warnings.map((w) => renderWarning(w)).join('')}</span>`;
}

/** The HTML of a comment: its text and the code it points at. */
export function renderComment(comment: ResolvedComment, ctx: ElementRenderContext): string {
  const { element, resolution } = comment;
  const tag = wrapper(element.form);
  const body = ctx.contentHtml(element.id);
  const bodyHtml = element.form === 'inline' ? `<span class="wt-comment-body">${body}</span>` : `<div class="wt-comment-body">${body}</div>`;
  // Drawn, not an emoji (an empty box without an emoji font); the name is there for screen readers.
  const { drawing, label } = pageIcon(element.icon);
  const icon = `<span class="wt-icon">${iconSvg(drawing)}<span class="wt-sr-only">${escapeHtml(label)}</span></span>`;
  const expression = element.location !== undefined ? `<code class="wt-expr" title="location expression">${escapeHtml(element.location)}</code>` : '';
  let head: string;
  let details = '';
  switch (resolution.status) {
    case 'resolved':
      head = locationButton(resolution.location, undefined, false);
      details = renderContext(resolution.location, element.location, undefined);
      break;
    case 'ambiguous': {
      const { choices } = resolution;
      head =
        `<span class="wt-badge wt-badge-ambiguous">${choices.length} possible locations</span>` +
        choices.map((c, i) => locationButton(c.location, i, true)).join('') +
        `<button type="button" class="wt-magnifier" hidden title="Choose another location" aria-label="Choose another location">${iconSvg('magnifier')}</button>`;
      const list = choices
        .map(
          (c, i) =>
            `<button type="button" class="wt-choice"${attributes({ 'data-choice': i })}><span class="wt-choice-label">${escapeField(c.label)}</span>` +
            ` <span class="wt-loc-path">${escapeField(formatCodeLocation(c.location))}</span> <code class="wt-loc-text">${escapeHtml(c.location.text.trim())}</code></button>`,
        )
        .join('');
      details =
        `<span class="wt-choices" role="group" aria-label="Choose where this comment belongs"><span class="wt-choices-title">${escapeHtml(resolution.message)}: choose where this comment belongs.${shownOf(choices.length, resolution.omitted)}</span>${list}</span>` +
        choices.map((c, i) => renderContext(c.location, c.program ?? element.location, i)).join('');
      break;
    }
    case 'unresolved':
      head = `<span class="wt-badge wt-badge-unresolved">location not found</span>${expression}`;
      details = `<span class="wt-error" role="note"><span class="wt-error-text">${escapeHtml(resolution.error.text)}</span></span>`;
      break;
  }
  const open = `<${tag} class="wt-comment wt-${resolution.status}${element.form === 'inline' ? ' wt-inline' : ''}"${attributes({ id: `wt-${element.id}`, 'data-comment': element.id })}>`;
  // Inline comments read as text: icon, what the comment says, then where.
  const inner =
    element.form === 'inline'
      ? `${icon}${bodyHtml}<span class="wt-comment-head">${head}</span>${details}`
      : `<span class="wt-comment-head">${icon}${head}</span>${bodyHtml}${details}`;
  // The evaluation's notes are for the agent: the summary and the page footer carry them, not the comment.
  return `${open}${inner}${renderWarnings(ctx.warningsFor(element.id))}</${tag}>`;
}

/** For a choice list cut at the limit, how much of it is shown (the reader's part of the resolver's note). */
function shownOf(shown: number, omitted: number | undefined): string {
  return omitted !== undefined && omitted > 0 ? ` The first ${shown} of ${shown + omitted} places are listed.` : '';
}

function locationButton(location: CodeLocation, choice: number | undefined, hidden: boolean): string {
  return (
    `<button type="button" class="wt-loc"${attributes({ 'data-choice': choice, hidden, 'aria-expanded': 'false', title: `Show the code around ${showFieldControls(formatCodeLocation(location))}` })}>` +
    `<span class="wt-loc-path">${escapeField(formatCodeLocation(location))}</span><code class="wt-loc-text">${escapeHtml(location.text.trim())}</code></button>`
  );
}

function renderContext(location: CodeLocation, program: string | undefined, choice: number | undefined): string {
  const { startLine, lines } = location.context;
  const head = `<span class="wt-context-head"><span class="wt-loc-path">${escapeField(formatCodeLocation(location))}</span>${program !== undefined ? ` <code class="wt-expr">${escapeHtml(program)}</code>` : ''}</span>`;
  const last = Math.max(location.line, location.endLine);
  const body =
    lines.length === 0
      ? `<span class="wt-context-empty">The source of ${escapeField(location.path)} could not be read.</span>`
      : `<span class="wt-code-block">${lines
          .map((text, i) => {
            const n = startLine + i;
            const target = n >= location.line && n <= last ? ' wt-target' : '';
            return `<span class="wt-code-line${target}"><span class="wt-ln">${n}</span><span class="wt-code">${escapeHtml(text)}</span></span>`;
          })
          .join('')}</span>`;
  return `<span class="wt-context"${attributes({ 'data-choice': choice, hidden: true })}>${head}${body}</span>`;
}

/** The HTML of an action button. */
export function renderAction(action: ActionElement, ctx: ElementRenderContext): string {
  const tag = wrapper(action.form);
  const message = ctx.contentHtml(action.id);
  const button = `<button type="button" class="wt-action-button"${attributes({ 'data-action': action.id, title: action.form === 'inline' ? action.message : undefined })}><span aria-hidden="true">▶</span> ${escapeHtml(action.button)}</button>`;
  const messageHtml = action.form === 'inline' ? '' : `<div class="wt-action-message">${message}</div>`;
  const toast = `<span class="wt-toast" role="status" aria-live="polite" hidden></span>`;
  return `<${tag} class="wt-action${action.form === 'inline' ? ' wt-inline' : ''}"${attributes({ id: `wt-${action.id}` })}>${button}${toast}${messageHtml}${renderWarnings(ctx.warningsFor(action.id))}</${tag}>`;
}

/** The HTML of a mermaid diagram (rendered in the page). */
export function renderMermaid(diagram: MermaidElement, ctx: ElementRenderContext): string {
  const tag = wrapper(diagram.form);
  return (
    `<${tag} class="wt-mermaid${diagram.form === 'inline' ? ' wt-inline' : ''}"${attributes({ id: `wt-${diagram.id}`, 'data-diagram': diagram.id })}>` +
    `<span class="wt-mermaid-output"></span><code class="wt-mermaid-source">${escapeHtml(diagram.source)}</code>${renderWarnings(ctx.warningsFor(diagram.id))}</${tag}>`
  );
}

/** The HTML of a `<gitdiff>` element. */
export function renderDiff(diff: ResolvedDiff, ctx: ElementRenderContext): string {
  const tag = wrapper(diff.element.form);
  return (
    `<${tag} class="wt-gitdiff${diff.error !== undefined ? ' wt-failed' : ''}${diff.element.form === 'inline' ? ' wt-inline' : ''}"${attributes({ id: `wt-${diff.element.id}` })}>` +
    `${renderDiffBody(diff)}${renderWarnings(ctx.warningsFor(diff.element.id))}</${tag}>`
  );
}
