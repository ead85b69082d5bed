/**
 * The editor's selection: `selection()` (a location, so `findReferences(symbolAt(selection()))`
 * asks about what the user selected) and `readSelection`, the one way every caller (the function,
 * MCP's `get_selection`) reads it and gets the same `no-editor` / `no-active-editor` errors.
 */
import { DialectError, type Registry } from '../../dialect/index.js';
import { noEditor, SelectionCode, type IdeBackend } from '../backend.js';
import type { Location } from '../model.js';
import type { IdeHost } from './host.js';

/**
 * The active editor's selection (`content` is the selected text). Throws `no-editor` when no
 * editor answers the workspace, `no-active-editor` when the editor shows no workspace file.
 */
export async function readSelection(backend: IdeBackend, signal?: AbortSignal): Promise<Location> {
  if (backend.selection === undefined) throw noEditor('Dialect answers with its own language servers');
  const selection = await backend.selection(signal !== undefined ? { signal } : {});
  if (selection === undefined) {
    throw new DialectError({
      code: SelectionCode.NoActiveEditor,
      message: `the editor has no active tab showing a file of ${backend.workspace.root}, so there is no selection`,
      hint: 'open a file of the workspace in the editor, select text (or place the cursor), and ask again',
    });
  }
  return selection;
}

/** Registers `selection`. */
export function registerSelectionFunctions(registry: Registry<IdeHost>): void {
  registry.registerFunction({
    name: 'selection',
    aliases: ['getSelection', 'selected'],
    description:
      "The active editor's selection (VS Code with the Dialect extension) as a location; its `content` is the selected text. Compose it: findReferences(symbolAt(selection())). Fails with no-editor when no editor answers.",
    category: 'navigation',
    // The editor's backend, not its index: the selection is there at once.
    requires: 'editor',
    parameters: [],
    returns: 'location',
    examples: [{ program: 'selection()' }, { program: 'findReferences(symbolAt(selection()))', description: 'every use of the selected symbol' }],
    implementation: (_args, ctx) => readSelection(ctx.host.backend, ctx.signal),
  });
}
