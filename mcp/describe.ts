/**
 * Texts generated from the registry: the `ide_operation` tool description (a few lines teaching the
 * language, then every function with its signature and one example) and the `dialect-reference.md`
 * document. Nothing here lists functions by hand, so a function added to the registry shows up in
 * both without anyone editing this folder.
 */
import { firstSentence, referenceMarkdown, type Registry } from '../dialect/index.js';
import { codesMarkdown } from './codes.js';
import { readGuidance } from './guidance.js';

const FUNCTIONS_PLACEHOLDER = '{{FUNCTIONS}}';

/** One entry per function: its signature, its first sentence, and its first example. */
export function functionCatalog<Host>(registry: Registry<Host>): string {
  return registry.functions
    .map((fn) => {
      const example = fn.examples[0]?.program ?? `${fn.name}()`;
      return `- ${registry.signature(fn)}\n  ${firstSentence(fn.description)} Example: ${example}`;
    })
    .join('\n');
}

/** The description of the `ide_operation` tool. */
export function ideOperationDescription<Host>(registry: Registry<Host>): string {
  const template = readGuidance('ide-operation.md');
  if (!template.includes(FUNCTIONS_PLACEHOLDER)) throw new Error(`mcp/guidance/ide-operation.md lost its ${FUNCTIONS_PLACEHOLDER} placeholder`);
  return template.replace(FUNCTIONS_PLACEHOLDER, () => functionCatalog(registry)).trim();
}

/** `dialect-reference.md`: the language (hand-written), every function and every code (generated). */
export function dialectReference<Host>(registry: Registry<Host>): string {
  return `${referenceMarkdown(registry, readGuidance('dialect-language.md'))}\n${codesMarkdown()}`;
}
