/**
 * `parseWalkthrough`: markdown with our elements → a document (body tokens, elements, file links,
 * warnings). Never throws on any input.
 */
import type { Token } from 'markdown-it';
import { WarningCode } from './errors.js';
import { markdown } from './markdown.js';
import type { WalkthroughDocument, WalkthroughWarning } from './model.js';
import { MAX_LISTED_WARNINGS, ParseCollector, type ParseEnv } from './parse-env.js';
import { renumber } from './renumber.js';

/** Parses a walkthrough. Problems in the markdown become warnings, never exceptions. */
export function parseWalkthrough(source: string): WalkthroughDocument {
  const text = typeof source === 'string' ? source : String(source);
  const collector = new ParseCollector();
  try {
    const env: ParseEnv = { collector, lineOffset: 0 };
    const tokens = markdown.parse(text, env);
    const contentTokens = new Map<string, readonly Token[]>();
    for (const pending of collector.pending) {
      const nested: ParseEnv = { collector, lineOffset: pending.lineOffset, nestedIn: { kind: pending.kind, id: pending.id }, ...(env.references !== undefined ? { references: env.references } : {}) };
      contentTokens.set(pending.id, pending.mode === 'block' ? markdown.parse(pending.markdown, nested) : markdown.parseInline(pending.markdown, nested));
    }
    const warnings = collector.unlisted === 0 ? collector.warnings : [...collector.warnings, unlistedWarning(collector.unlisted)];
    const numbered = renumber({ elements: collector.elements, links: collector.links, warnings, tokens, contentTokens });
    return { source: text, title: titleOf(tokens), ...numbered };
  } catch (error) {
    // A bug in a rule must not cost the reader the walkthrough: show the source as text.
    const fallback = new ParseCollector();
    fallback.warn({ code: WarningCode.InternalError, message: `the walkthrough could not be parsed (${error instanceof Error ? error.message : String(error)}); it is shown as plain text` });
    return { source: text, title: undefined, elements: [], links: [], warnings: fallback.warnings, tokens: markdown.parse(`\`\`\`\`\`\`\`\`\n${text.replace(/`{8,}/g, '')}\n\`\`\`\`\`\`\`\`\n`, {}), contentTokens: new Map() };
  }
}

/** The one warning that counts those not listed (it has no line, so it is listed first). */
function unlistedWarning(count: number): WalkthroughWarning {
  return {
    code: WarningCode.TooManyWarnings,
    message: `${count.toLocaleString('en-US')} more warning${count === 1 ? '' : 's'} not listed (only the first ${MAX_LISTED_WARNINGS} are); fix those and render again`,
  };
}

/** The text of the first heading. */
function titleOf(tokens: readonly Token[]): string | undefined {
  const index = tokens.findIndex((t) => t.type === 'heading_open');
  const inline = index >= 0 ? tokens[index + 1] : undefined;
  const text = inline?.children?.filter((c) => c.type === 'text' || c.type === 'code_inline').map((c) => c.content).join('').trim();
  return text === undefined || text === '' ? undefined : text;
}
