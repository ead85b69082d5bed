/**
 * C and C++ names and kinds as their users write them. clangd names a method defined outside its
 * class by the path written there (`Circle::area` in `double Circle::area() const {…}`): the name
 * is `area`, and `Circle` an owner of it. Files add nothing to a name (`geo::Circle::area`, never
 * `src/shape::…`), and kinds are C++'s words (`class`, `struct`, `union`, `enumerator`,
 * `constructor`, `destructor`, `type alias`, `template parameter`, `macro`).
 */
import type { ModulePathOf } from '../../lsp/module-paths.js';
import type { KindWord, LspKindName } from '../../kinds.js';
import { escapeRegExp } from '../../regexp-text.js';

/** A file contributes nothing to a C/C++ name: namespaces and classes do (from the outline). */
export const cppModulePath: ModulePathOf = () => Promise.resolve([]);

/** `Circle::area` → `area` owned by `Circle`; `ns::Outer::Inner::f` → `f` owned by ns, Outer, Inner. */
export function splitCppOutlineName(name: string): { readonly name: string; readonly owners: readonly string[] } {
  // `operator::` cannot occur; template arguments may hold `::` (`Box<std::string>::get`).
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (c === '<') depth++;
    else if (c === '>' && depth > 0) depth--;
    else if (c === ':' && depth === 0 && name[i + 1] === ':') {
      parts.push(name.slice(start, i));
      start = i + 2;
      i++;
    }
  }
  parts.push(name.slice(start));
  const bare = parts.pop() as string;
  const owners = parts.map((p) => withoutTrailingArguments(p).trim()).filter((p) => p !== '');
  return { name: bare, owners };
}

/**
 * `Box<T>` → `Box`: from the first `<` on when the part ends with `>` (what `/<.*>$/s` removes,
 * without retrying the rest of the text from every `<`).
 */
function withoutTrailingArguments(part: string): string {
  const open = part.indexOf('<');
  return open >= 0 && part.endsWith('>') ? part.slice(0, open) : part;
}

/**
 * The longest C++ attribute (`[[nodiscard]]`) or array bound (`[N]`) the kind patterns read: a
 * fixed length, so a bracket left open on a long line is not rescanned from every keyword.
 */
const MAX_BRACKETED_CHARS = 256;

/** The kind of a C/C++ symbol from clangd's LSP kind and the line declaring it. */
export function cppKind(lspKind: LspKindName, line: string, name: string): KindWord {
  // One space for each run of blanks: the patterns' neighbouring `\s*` then never share a long
  // run (they did, quadratic in it), and no pattern below tells one blank from several.
  const declarationLine = line.replace(/\s+/g, ' ');
  const declares = (keyword: string): boolean => new RegExp(`(^|[^A-Za-z0-9_])${keyword}\\s+(?:\\[\\[[^\\]]{0,${MAX_BRACKETED_CHARS}}\\]\\]\\s*)?(?:[A-Za-z_][A-Za-z0-9_]*\\s+)?${escapeRegExp(name)}(?![A-Za-z0-9_])`).test(declarationLine);
  switch (lspKind) {
    case 'class':
    case 'struct': {
      // clangd reports aliases (`using X = …`, `typedef … X;`, `} X;` ending a typedef) and unions as classes.
      const name_ = escapeRegExp(name);
      const alias =
        new RegExp(`(^|[^A-Za-z0-9_])using\\s+${name_}\\s*=`).test(declarationLine) ||
        (/(^|[^A-Za-z0-9_])typedef\b/.test(declarationLine) && new RegExp(`(^|[^A-Za-z0-9_])${name_}\\s*(\\[[^\\]]{0,${MAX_BRACKETED_CHARS}}\\]\\s*)?[;,)]`).test(declarationLine)) ||
        new RegExp(`^\\s*}\\s*(?:[A-Za-z_][A-Za-z0-9_]*\\s*,\\s*)*\\*?\\s*${name_}\\s*[;,]`).test(declarationLine);
      if (alias) return 'type alias';
      if (declares('union')) return 'union';
      if (declares('struct')) return 'struct';
      if (declares('class')) return 'class';
      return lspKind;
    }
    case 'enummember':
      return 'enumerator';
    case 'constructor':
      return name.startsWith('~') ? 'destructor' : 'constructor';
    case 'typeparameter':
      return 'template parameter';
    case 'property':
      return 'field';
    // clangd reports macros as strings.
    case 'string':
      return 'macro';
    case 'enum':
      return 'enum';
    default:
      return lspKind;
  }
}

/**
 * clangd's hover documentation without its title (`### function \`scale\``) and `provided by`
 * line; the type, parameters and the doc comment stay.
 */
export function tidyClangdHover(documentation: string): string {
  return documentation
    .replace(/^### [^\n]*\n/, '')
    .replace(/^provided by [^\n]*\n/m, '')
    .replace(/ {2}$/gm, '')
    .trim();
}
