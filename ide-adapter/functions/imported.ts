/**
 * Why a name the workspace does not define was not found, when the workspace imports it: the
 * module and the import's place, and — when the server could not resolve that import (Python
 * without the project's environment) — its message and the fix. Asked only after a lookup failed.
 */
import type { CallContext } from '../../dialect/index.js';
import type { IdeHost } from './host.js';
import { splitQualifiedName } from './qualified.js';

/** The sentence to add to a not-found message, and the hint that replaces the generic one. */
export interface ImportExplanation {
  readonly message: string;
  readonly hint: string;
}

/** Where a not-found name is imported from, or `undefined` when no import of it is found. */
export async function importExplanation(ctx: Pick<CallContext<IdeHost>, 'host' | 'signal'>, name: string): Promise<ImportExplanation | undefined> {
  const { backend } = ctx.host;
  if (backend.importOf === undefined) return undefined;
  const last = splitQualifiedName(name).name;
  const found = await backend.importOf(last, { signal: ctx.signal }).catch(() => undefined);
  if (found === undefined) return undefined;
  const where = `${found.at.path}:${found.at.start.line}`;
  if (found.problem !== undefined) {
    return { message: `it is imported from ${found.module} (${where}), which the language server could not resolve: ${found.problem}`, hint: found.fix ?? 'install the package where the language server looks' };
  }
  return {
    message: `it is imported from ${found.module} (${where}) and defined outside the workspace`,
    hint: `lines(${JSON.stringify(found.at.path)}, ${found.at.start.line}) shows the import; definitions outside the workspace are not followed`,
  };
}
