/**
 * The documentation of every code: the core's, the IDE adapter's and the walkthrough layer's
 * records joined. This is the outermost layer that sees every `DialectCodeSets` augmentation, so
 * the type below forces the join to be complete: a code added anywhere without a doc line fails
 * to compile. The dialect reference (`dialect-reference.md`) lists them for agents.
 */
import { CORE_CODE_DOCS, type CodeDocs, type DialectCode } from '../dialect/index.js';
import { IDE_CODE_DOCS } from '../ide-adapter/index.js';
import { WALKTHROUGH_CODE_DOCS } from '../walkthrough/index.js';

/** One line per code: what it means and what to do. */
export const CODE_DOCS: CodeDocs<DialectCode> = { ...CORE_CODE_DOCS, ...IDE_CODE_DOCS, ...WALKTHROUGH_CODE_DOCS };

/** The codes as a markdown section: the language's first, then the IDE adapter's and the walkthrough layer's. */
export function codesMarkdown(): string {
  return [
    '## Codes',
    '',
    'Every error (`error.code` of an outcome) and walkthrough warning has one of these stable codes.',
    '',
    ...Object.entries(CODE_DOCS).map(([code, doc]) => `- \`${code}\`: ${doc}`),
    '',
  ].join('\n');
}
