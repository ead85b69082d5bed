/**
 * Rules find elements in rule order (blocks, then fences, then inline text), so ids and warnings
 * are put into document order afterwards: `comment-1` is the first comment a reader sees.
 */
import type { Token } from 'markdown-it';
import { isFileLinkMeta } from './links.js';
import type { FileLink, WalkthroughElement, WalkthroughWarning } from './model.js';
import { ELEMENT_TOKEN, WARNING_TOKEN, type ElementTokenMeta, type WarningTokenMeta } from './parse-env.js';

/** Elements, links and warnings with ids numbered in document order. */
export interface Numbered {
  readonly elements: WalkthroughElement[];
  readonly links: FileLink[];
  readonly warnings: WalkthroughWarning[];
  readonly tokens: Token[];
  readonly contentTokens: Map<string, readonly Token[]>;
}

/** Numbers the ids of elements (per kind), links and warnings in document order. */
export function renumber(input: Numbered): Numbered {
  const ids = new Map<string, string>();
  const counters = new Map<string, number>();
  const next = (kind: string): string => {
    const n = (counters.get(kind) ?? 0) + 1;
    counters.set(kind, n);
    return `${kind}-${n}`;
  };
  const byLine = <T extends { line?: number }>(items: readonly T[]): T[] =>
    items.map((item, i) => ({ item, i })).sort((a, b) => (a.item.line ?? 0) - (b.item.line ?? 0) || a.i - b.i).map(({ item }) => item);

  const elements = byLine(input.elements).map((e) => {
    const id = next(e.kind);
    ids.set(e.id, id);
    return { ...e, id };
  });
  const links = byLine(input.links).map((l) => {
    const id = next('link');
    ids.set(l.id, id);
    return { ...l, id };
  });
  const order = byLine(input.warnings.map((w, index) => ({ ...w, index })));
  const warningIndex = new Map(order.map((w, i) => [w.index, i]));
  const warnings = order.map(({ index: _index, ...w }) => (w.elementId !== undefined ? { ...w, elementId: ids.get(w.elementId) ?? w.elementId } : w));

  const visit = (tokens: readonly Token[]): void => {
    for (const token of tokens) {
      const meta: unknown = token.meta;
      if (token.type === ELEMENT_TOKEN) token.meta = { id: ids.get((meta as ElementTokenMeta).id) ?? '' } satisfies ElementTokenMeta;
      else if (token.type === WARNING_TOKEN || token.type === 'image') {
        const index = (meta as WarningTokenMeta | null)?.warning;
        if (index !== undefined) token.meta = { warning: warningIndex.get(index) ?? index } satisfies WarningTokenMeta;
      } else if (isFileLinkMeta(meta)) token.meta = { fileLink: ids.get(meta.fileLink) ?? meta.fileLink };
      if (token.children !== null) visit(token.children);
    }
  };
  visit(input.tokens);
  const contentTokens = new Map<string, readonly Token[]>();
  for (const [id, tokens] of input.contentTokens) {
    visit(tokens);
    contentTokens.set(ids.get(id) ?? id, tokens);
  }
  return { elements, links, warnings, tokens: input.tokens, contentTokens };
}
