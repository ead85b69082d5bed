/**
 * Code the preprocessor may leave out. clangd analyses only the branches of `#if`/`#ifdef`/
 * `#ifndef`/`#elif`/`#else` its configuration takes: a use of a name in another branch is no
 * reference in its answers. This module finds, in one pass over a file's lines, where a name is
 * written inside such a conditional (an include guard is not one), so that an answer can say it
 * may have missed those places.
 */

import { wordPattern } from '../../regexp-text.js';

/** `#if…`, `#el…`, `#endif`: the directive's word. */
const DIRECTIVE = /^\s*#\s*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b(.*)$/;

/** The lines (1-based) of `text` inside a preprocessor conditional (not an include guard) where `name` is written as a word, outside comments. */
export function conditionalMentions(text: string, name: string): number[] {
  // Most files open no conditional but their include guard: one native scan of the text spares
  // them the line-by-line pass below (a references answer asks this of every file it names).
  if (!opensConditional(text)) return [];
  const lines = text.split(/\r\n|\n|\r/);
  const out: number[] = [];
  // One entry per open conditional: whether it is an include guard (its lines are always compiled).
  const open: boolean[] = [];
  let guarded = 0;
  let inComment = false;
  const word = wordPattern(name);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    // Comments are no code: `/* … */` across lines, `// …`.
    let code = '';
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
      } else code += raw[j];
    }
    const directive = DIRECTIVE.exec(code);
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
    if (open.length > guarded && word.test(code)) out.push(i + 1);
  }
  return out;
}

/** An opening `#if…` directive at a line's start. */
const OPENING = /^[ \t]*#[ \t]*if(?:n?def)?\b/gm;

/** An include guard: `#ifndef NAME` and, on the next line, `#define NAME`. */
const GUARD = /^[ \t]*#[ \t]*ifndef[ \t]+(\w+)[ \t]*\r?\n[ \t]*#[ \t]*define[ \t]+\1\b/m;

/**
 * Whether `text` opens a conditional other than its include guard (one in a comment counts: it
 * only costs the full pass). Native scans of the text: no line is made a string.
 */
function opensConditional(text: string): boolean {
  const openings = text.match(OPENING)?.length ?? 0;
  return openings > 1 || (openings === 1 && !GUARD.test(text));
}

/** `#ifndef NAME` followed by `#define NAME`: an include guard. */
function isGuard(macro: string, next: string): boolean {
  return /^\w+$/.test(macro) && new RegExp(`^\\s*#\\s*define\\s+${macro}\\b`).test(next);
}
