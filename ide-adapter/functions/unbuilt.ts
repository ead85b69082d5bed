/**
 * The declarations of a looked-up name in files the workspace's build leaves out on this machine
 * (`IdeBackend.unbuiltDeclarations`: Go files for another system), which no server reads: the
 * answer says where they are in one line, so one platform's definition does not read as the only
 * one (fsnotify's `newBackend`: five files, one per platform, gopls on Linux reads one).
 */
import type { CallContext } from '../../dialect/index.js';
import type { IdeHost } from './host.js';
import { splitQualifiedName } from './qualified.js';
import { fileMatches } from './symbols.js';

/** Places named in the note; the rest are counted. */
const MAX_NAMED_PLACES = 3;
/** A constraint longer than this is left out of the note (the file's first lines show it). */
const MAX_CONSTRAINT_CHARS = 40;

/**
 * The note for `name` (optionally only in files matching `file`), or undefined when the build
 * leaves out no file declaring it (or the backend cannot tell).
 */
export async function unbuiltNote(ctx: Pick<CallContext<IdeHost>, 'host' | 'signal'>, name: string, file?: string): Promise<string | undefined> {
  const { backend } = ctx.host;
  if (backend.unbuiltDeclarations === undefined) return undefined;
  const { qualifiers, name: last } = splitQualifiedName(name.trim());
  const found = await backend.unbuiltDeclarations(last, qualifiers, { signal: ctx.signal }).catch(() => []);
  const places = found.filter((d) => file === undefined || fileMatches(d.at.path, file));
  if (places.length === 0) return undefined;
  const named = places.slice(0, MAX_NAMED_PLACES).map((d) => `${d.at.path}:${d.at.start.line}${d.why.length <= MAX_CONSTRAINT_CHARS ? ` (${d.why})` : ''}`);
  const more = places.length > MAX_NAMED_PLACES ? ` and ${places.length - MAX_NAMED_PLACES} more` : '';
  const count = places.length === 1 ? 'a file' : `${places.length} files`;
  return `${last} is also declared in ${count} this machine's build leaves out, which no server reads: ${named.join(', ')}${more}`;
}
