/**
 * `expand_reference`: stored references (arbitrary JSON an editor or host stored under an id, e.g.
 * the code a user selected) and the guidance documents, by name.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** Arbitrary JSON by id. Values are copied on store, so later changes by the caller do not leak in. */
export class ReferenceStore {
  readonly #values = new Map<string, unknown>();

  set(id: string, value: unknown): void {
    if (id.trim() === '') throw new Error('a reference id must not be empty');
    const copy: unknown = value === undefined ? null : JSON.parse(JSON.stringify(value));
    this.#values.set(id.trim(), copy);
  }

  get(id: string): unknown {
    return this.#values.get(id);
  }

  has(id: string): boolean {
    return this.#values.has(id);
  }

  delete(id: string): boolean {
    return this.#values.delete(id);
  }

  get size(): number {
    return this.#values.size;
  }
}

/** A guidance document: its name (also its id), resource URI, title and text. */
export interface GuidanceDocument {
  readonly name: string;
  readonly uri: string;
  readonly title: string;
  readonly description: string;
  readonly text: () => string;
}

/** The input of `expand_reference`. */
export const expandReferenceInputSchema = {
  id: z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? 'missing the argument "id": pass a reference id (the id="…" of a <dialect-ref/> tag) or a guidance name such as "walkthrough-format.md"'
          : '"id" must be a string: a reference id or a guidance name such as "walkthrough-format.md"',
    })
    .max(10_000)
    .describe('A stored reference id (the id attribute of a <dialect-ref id="…"/> tag) or a guidance document name: "walkthrough-format.md" or "dialect-reference.md".'),
};

/** The structured content of an `expand_reference` result. */
export const expandReferenceOutputSchema = z.object({
  id: z.string(),
  kind: z.enum(['reference', 'guidance']),
  value: z.unknown().optional().describe('kind "reference": the stored JSON'),
  text: z.string().optional().describe('kind "guidance": the markdown document'),
});

/** The id an agent meant: tolerates a whole `<dialect-ref id="…"/>` tag, quotes and blanks. */
export function normalizeId(raw: string): string {
  const tag = /\bid\s*=\s*["']([^"']*)["']/.exec(raw);
  const id = tag?.[1] ?? raw;
  return id.trim().replace(/^["'`]|["'`]$/g, '');
}

function guidanceFor(id: string, docs: readonly GuidanceDocument[]): GuidanceDocument | undefined {
  const lower = id.toLowerCase();
  return docs.find((d) => d.name === lower || d.uri.toLowerCase() === lower || d.name === `${lower}.md`);
}

/** Runs one `expand_reference` call: a stored reference or a guidance document by name. */
export function runExpandReference(store: ReferenceStore, docs: readonly GuidanceDocument[], rawId: string): CallToolResult {
  const id = normalizeId(rawId);
  if (store.has(id)) {
    const value = store.get(id);
    return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: { id, kind: 'reference', value } };
  }
  const doc = guidanceFor(id, docs);
  if (doc !== undefined) {
    const text = doc.text();
    return { content: [{ type: 'text', text }], structuredContent: { id: doc.name, kind: 'guidance', text } };
  }
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: `unknown reference id ${JSON.stringify(id)}: no stored reference has this id and it is not a guidance document. Guidance documents: ${docs.map((d) => d.name).join(', ')}. Stored references come from <dialect-ref id="…"/> tags in the conversation; pass the id exactly as written there.`,
      },
    ],
  };
}
