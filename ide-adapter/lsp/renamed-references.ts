/**
 * References written under another name, checked. tsgo lists, among the references of a module's
 * default export that another module re-exports by name (`export {default as Heap} from
 * './heap.js'`), the uses of the re-exporting module's own default export (`import Pool from
 * './index.js'`, `new Pool()`): another symbol. A reference whose identifier is the asked name is
 * the server's to vouch for; one written under another name (a renamed import, `default`, or a
 * foreign symbol) is kept when go-to-definition there leads to the asked symbol. One request per
 * file and name (an import and its uses in a file share their binding), at most
 * {@link MAX_RENAMED_CHECKS}; the rest are kept unchecked.
 */
import type { Location, Position } from '../model.js';

/** Distinct (file, name) pairs of renamed references checked at most per answer. */
export const MAX_RENAMED_CHECKS = 200;

/** Checks in flight at once. */
const CHECK_CONCURRENCY = 8;

/** The identifier at a 1-based column (in code points) of a line, if one is there. */
export function nameAt(line: string, column: number): string | undefined {
  const chars = Array.from(line);
  let start = column - 1;
  if (start < 0 || start >= chars.length) return undefined;
  while (start > 0 && /[\w$]/.test(chars[start - 1] as string)) start--;
  let end = column - 1;
  while (end < chars.length && /[\w$]/.test(chars[end] as string)) end++;
  const name = chars.slice(start, end).join('');
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : undefined;
}

/**
 * `references` without those written under another name than `name` whose go-to-definition
 * leads elsewhere than the asked place or where the asked place's own definition is.
 */
export async function withoutForeignRenamed(
  references: readonly Location[],
  name: string,
  asked: { readonly path: string; readonly position: Position },
  definition: (path: string, position: Position) => Promise<readonly Location[]>,
): Promise<{ kept: Location[]; dropped: number }> {
  const isAsked = (l: Location): boolean => l.path === asked.path && l.start.line === asked.position.line && l.start.column === asked.position.column;
  const groups = new Map<string, Location[]>();
  for (const l of references) {
    const written = nameAt(l.content, l.start.column);
    if (written === undefined || written === name || isAsked(l)) continue;
    const key = `${l.path}\u0000${written}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [l]);
    else group.push(l);
  }
  if (groups.size === 0) return { kept: [...references], dropped: 0 };
  const targets: { path: string; line: number }[] = [
    { path: asked.path, line: asked.position.line },
    ...(await definition(asked.path, asked.position)).map((t) => ({ path: t.path, line: t.start.line })),
  ];
  const leadsHere = (found: readonly Location[]): boolean =>
    found.length === 0 || found.some((d) => targets.some((t) => t.path === d.path && d.start.line <= t.line && t.line <= d.end.line));
  const checked = [...groups.values()].slice(0, MAX_RENAMED_CHECKS);
  const foreign = new Set<Location>();
  for (let i = 0; i < checked.length; i += CHECK_CONCURRENCY) {
    const batch = checked.slice(i, i + CHECK_CONCURRENCY);
    const answers = await Promise.all(batch.map((g) => definition((g[0] as Location).path, (g[0] as Location).start).catch(() => [] as Location[])));
    for (const [j, g] of batch.entries()) if (!leadsHere(answers[j] ?? [])) for (const l of g) foreign.add(l);
  }
  return { kept: references.filter((l) => !foreign.has(l)), dropped: foreign.size };
}
