/**
 * What this gopls cannot relate: its `textDocument/implementation` compares method sets without
 * type parameters, so a generic interface, a generic type or a method of either has no
 * implementations in its answer (golang/go#59224; newer gopls releases unify type parameters
 * and find them). An empty answer there says so instead of reading as "none".
 */

/** Lines read at most upwards from a method to the interface or type that declares it. */
const MAX_LINES_TO_OWNER = 400;

/** `type Name[T any] …`: a type declaration with type parameters. */
const GENERIC_TYPE = /^\s*(?:type\s+)?[A-Za-z_]\w*\s*\[\s*[A-Za-z_]\w*\s+[^\]]/;
/**
 * `func (s *Stack[T]) Push(`: a method of a generic type. The blanks after the `*` are its own
 * (`\*?\s*` shared the receiver name's blanks: quadratic in a long run of them).
 */
const GENERIC_RECEIVER = /^\s*func\s*\(\s*(?:[A-Za-z_]\w*\s+)?(?:\*\s*)?[A-Za-z_]\w*\s*\[/;
/** A line at the top level of a file (the end of any declaration's body). */
const TOP_LEVEL = /^\S/;

/** Whether the symbol declared on `line` (1-based) is generic: a generic type, its method, or a method of a generic interface. */
export function declaresGeneric(lines: readonly string[], line: number): boolean {
  const text = lines[line - 1] ?? '';
  if (/^\s*type\b/.test(text) || /^\s*[A-Za-z_]\w*\s*\[/.test(text)) return GENERIC_TYPE.test(text.replace(/^\s*type\s+/, ''));
  if (/^\s*func\b/.test(text)) return GENERIC_RECEIVER.test(text);
  // An interface's method: the interface is the nearest declaration above at the top level.
  for (let i = line - 2; i >= Math.max(0, line - 1 - MAX_LINES_TO_OWNER); i--) {
    const above = lines[i] ?? '';
    if (!TOP_LEVEL.test(above)) continue;
    return /^type\s/.test(above) && /\binterface\s*\{/.test(above) && GENERIC_TYPE.test(above.replace(/^type\s+/, ''));
  }
  return false;
}

/** gopls's `implementationsGap`: the one line an empty answer for a generic declaration carries. */
export function genericImplementationsGap(lines: readonly string[], line: number): string | undefined {
  return declaresGeneric(lines, line) ? 'finds no implementations of generic types and interfaces (golang/go#59224; newer gopls releases do): an empty answer for one may miss some' : undefined;
}
