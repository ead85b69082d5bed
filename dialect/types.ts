/**
 * Type expressions of the registry: what a parameter accepts and what a function returns.
 *
 *     type   = member { "|" member }
 *     member = name { "[]" } | "(" type ")" { "[]" }
 *
 * Names refer to registered types (`string`, `number`, `symbol`, …); `any` accepts everything.
 */

export type TypeExpr =
  | { readonly kind: 'named'; readonly name: string }
  | { readonly kind: 'array'; readonly element: TypeExpr }
  | { readonly kind: 'union'; readonly members: readonly TypeExpr[] };

/** Thrown at registration time for a malformed type expression. */
export class TypeSyntaxError extends Error {
  override readonly name = 'TypeSyntaxError';
}

/** Parses a type expression such as `string | symbol[]`. */
export function parseType(text: string): TypeExpr {
  let i = 0;
  const skip = (): void => {
    while (text[i] === ' ') i++;
  };
  const union = (): TypeExpr => {
    const members = [member()];
    skip();
    while (text[i] === '|') {
      i++;
      members.push(member());
      skip();
    }
    return members.length === 1 ? (members[0] as TypeExpr) : { kind: 'union', members };
  };
  const member = (): TypeExpr => {
    skip();
    let t: TypeExpr;
    if (text[i] === '(') {
      i++;
      t = union();
      skip();
      if (text[i] !== ')') throw new TypeSyntaxError(`expected ')' in type "${text}"`);
      i++;
    } else {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i));
      if (m === null) throw new TypeSyntaxError(`expected a type name at position ${i} in "${text}"`);
      i += m[0].length;
      t = { kind: 'named', name: m[0].toLowerCase() };
    }
    while (text.startsWith('[]', i)) {
      i += 2;
      t = { kind: 'array', element: t };
    }
    return t;
  };
  const result = union();
  skip();
  if (i !== text.length) throw new TypeSyntaxError(`unexpected "${text.slice(i)}" in type "${text}"`);
  return result;
}

/** Canonical text of a type expression. */
export function formatType(t: TypeExpr): string {
  switch (t.kind) {
    case 'named':
      return t.name;
    case 'array':
      return t.element.kind === 'union' ? `(${formatType(t.element)})[]` : `${formatType(t.element)}[]`;
    case 'union':
      return t.members.map(formatType).join(' | ');
  }
}

/** Every type name a type expression mentions. */
export function typeNames(t: TypeExpr): string[] {
  switch (t.kind) {
    case 'named':
      return [t.name];
    case 'array':
      return typeNames(t.element);
    case 'union':
      return t.members.flatMap(typeNames);
  }
}
