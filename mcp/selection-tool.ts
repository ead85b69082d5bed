/**
 * `get_selection`: the active editor's selection as `{selectedText, path, start, end}`
 * (workspace-relative path, 1-based lines, code-point columns, end exclusive), or `selection: null`
 * with the reason and its code when no editor is connected or none is active — a normal answer,
 * not a tool error: "nothing is selected" is something an agent acts on.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { readSelection, SelectionCode, type IdeSession } from '../ide-adapter/index.js';

const PositionSchema = z.object({ line: z.number().int().describe('from 1'), column: z.number().int().describe('from 1, in characters (code points)') });

/** The structured content of a `get_selection` result. */
export const getSelectionOutputSchema = z.object({
  selection: z
    .object({
      selectedText: z.string(),
      path: z.string().describe('relative to the workspace root'),
      start: PositionSchema,
      end: PositionSchema.describe('exclusive'),
    })
    .nullable(),
  reason: z.string().optional().describe('why selection is null'),
  code: z.enum([SelectionCode.NoEditor, SelectionCode.NoActiveEditor]).optional().describe('why selection is null, as a code'),
});

/** The codes that mean "no selection" rather than a failure. */
const NO_SELECTION: ReadonlySet<string> = new Set(Object.values(SelectionCode));

/** Answers `get_selection` from the session's backend (the editor's, when one is connected). */
export async function runGetSelection(session: IdeSession, signal?: AbortSignal): Promise<CallToolResult> {
  try {
    const s = await readSelection(session.backend, signal);
    const selection = { selectedText: s.content, path: s.path, start: s.start, end: s.end };
    return { content: [{ type: 'text', text: JSON.stringify(selection) }], structuredContent: { selection } };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (!(error instanceof Error) || typeof code !== 'string' || !NO_SELECTION.has(code)) throw error;
    const hint = (error as { hint?: unknown }).hint;
    const reason = typeof hint === 'string' ? `${error.message} (${hint})` : error.message;
    return { content: [{ type: 'text', text: `no selection: ${reason}` }], structuredContent: { selection: null, reason, code } };
  }
}
