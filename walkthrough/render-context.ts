/**
 * The resolved data one render looks up by id, handed to the markdown-it renderer rules as
 * `env.render`, and the body / content HTML rendered with it.
 */
import type { Token } from 'markdown-it';
import { markdown } from './markdown.js';
import type { ResolvedComment, ResolvedDiff, ResolvedLink, ResolvedWalkthrough, WalkthroughElement, WalkthroughWarning } from './model.js';
import { renderAction, renderComment, renderDiff, renderMermaid, type RulesContext } from './render-rules.js';

/** What the render rules need of a resolved walkthrough: each element by id, its resolution and its numbering. */
export class RenderContext implements RulesContext {
  readonly #elements = new Map<string, WalkthroughElement>();
  readonly #comments = new Map<string, ResolvedComment>();
  readonly #diffs = new Map<string, ResolvedDiff>();
  readonly #links = new Map<string, ResolvedLink>();
  readonly #warnings = new Map<string, WalkthroughWarning[]>();
  readonly #content = new Map<string, string>();

  constructor(readonly resolved: ResolvedWalkthrough) {
    for (const e of resolved.document.elements) this.#elements.set(e.id, e);
    for (const c of resolved.comments) this.#comments.set(c.element.id, c);
    for (const d of resolved.diffs) this.#diffs.set(d.element.id, d);
    for (const l of resolved.links) this.#links.set(l.link.id, l);
    for (const w of resolved.warnings) {
      if (w.elementId === undefined) continue;
      const list = this.#warnings.get(w.elementId) ?? [];
      list.push(w);
      this.#warnings.set(w.elementId, list);
    }
  }

  /** The HTML of the whole body. */
  bodyHtml(): string {
    return this.#render(this.resolved.document.tokens);
  }

  /** The HTML of a comment's or action's content. */
  contentHtml(id: string): string {
    let html = this.#content.get(id);
    if (html === undefined) {
      const tokens = this.resolved.document.contentTokens.get(id);
      html = tokens === undefined ? '' : this.#render(tokens);
      this.#content.set(id, html);
    }
    return html;
  }

  element(id: string): string | undefined {
    const element = this.#elements.get(id);
    switch (element?.kind) {
      case 'comment': {
        const comment = this.#comments.get(id);
        return comment === undefined ? undefined : renderComment(comment, this);
      }
      case 'action':
        return renderAction(element, this);
      case 'mermaid':
        return renderMermaid(element, this);
      case 'gitdiff': {
        const diff = this.#diffs.get(id);
        return diff === undefined ? undefined : renderDiff(diff, this);
      }
      case undefined:
        return undefined;
    }
  }

  link(id: string): ResolvedLink | undefined {
    return this.#links.get(id);
  }

  warningsFor(id: string): readonly WalkthroughWarning[] {
    return this.#warnings.get(id) ?? [];
  }

  documentWarning(index: number): WalkthroughWarning | undefined {
    return this.resolved.document.warnings[index];
  }

  #render(tokens: readonly Token[]): string {
    return markdown.renderer.render(tokens as Token[], markdown.options, { render: this });
  }
}
