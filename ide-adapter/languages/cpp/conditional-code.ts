/**
 * Code the preprocessor may leave out. clangd analyses only the branches of `#if`/`#ifdef`/
 * `#ifndef`/`#elif`/`#else` its configuration takes: a use of a name in another branch is no
 * reference in its answers. This module finds, in one pass over a file's lines, where a name is
 * written inside such a conditional (an include guard is not one), so that an answer can say it
 * may have missed those places.
 */

/** `#if…`, `#el…`, `#endif`: the directive's word. */
const DIRECTIVE = /^\s*#\s*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b(.*)$/;

/** The lines (1-based) of `lines` inside a preprocessor conditional (not an include guard) where `name` is written as a word, outside comments. */
export function conditionalMentions(lines: readonly string[], name: string): number[] {
  const out: number[] = [];
  // One entry per open conditional: whether it is an include guard (its lines are always compiled).
  const open: boolean[] = [];
  let guarded = 0;
  let inComment = false;
  const word = new RegExp(`(?<![\\w$])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$])`);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    // Comments are no code: `/* … */` across lines, `// …`.
    let text = '';
    for (let j = 0; j < raw.length; j++) {
      if (inComment) {
        const end = raw.indexOf('*/', j);
        if (end < 0) break;
        inComment = false;
        j = end + 1;
      } else if (raw.startsWith('//', j)) break;
      else if (raw.startsWith('/*', j)) {
        inComment = true;
        j++;
      } else text += raw[j];
    }
    const directive = DIRECTIVE.exec(text);
    if (directive !== null) {
      const [, keyword, rest] = directive;
      if (keyword === 'if' || keyword === 'ifdef' || keyword === 'ifndef') {
        const guard = keyword === 'ifndef' && isGuard((rest ?? '').trim(), lines[i + 1] ?? '');
        open.push(guard);
        if (guard) guarded++;
      } else if (keyword === 'endif') {
        if (open.pop() === true) guarded--;
      }
      continue;
    }
    if (open.length > guarded && word.test(text)) out.push(i + 1);
  }
  return out;
}

/** `#ifndef NAME` followed by `#define NAME`: an include guard. */
function isGuard(macro: string, next: string): boolean {
  return /^\w+$/.test(macro) && new RegExp(`^\\s*#\\s*define\\s+${macro}\\b`).test(next);
}
