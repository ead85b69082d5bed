/**
 * Facts about the exported declarations of the product folders, read with the TypeScript parser:
 * which have no doc comment, and which no product module imports (dead code or test-only exports).
 * `scripts/test/exports.test.ts` keeps both lists empty.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The folders of product code (tests, fixtures and generated files aside). */
export const PRODUCT_FOLDERS = ['dialect', 'ide-adapter', 'walkthrough', 'mcp', 'cli', 'vscode'] as const;

/** One exported declaration: where it is and its name. */
export interface ExportedDeclaration {
  /** Repository-relative path with `/`. */
  readonly file: string;
  readonly name: string;
  readonly line: number;
}

/** Every product `.ts` file (no tests, no declaration files), repository-relative. */
export function productFiles(root: string): string[] {
  const out: string[] = [];
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'test' && entry.name !== 'node_modules') visit(path);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(relative(root, path).split('\\').join('/'));
    }
  };
  for (const folder of PRODUCT_FOLDERS) visit(join(root, folder));
  return out.sort();
}

function parse(root: string, file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
}

function isExported(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

function declaredNames(node: ts.Statement): string[] {
  if (ts.isVariableStatement(node)) return node.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []));
  const name = (node as ts.DeclarationStatement).name;
  return name !== undefined && ts.isIdentifier(name) ? [name.text] : [];
}

/** The exported declarations (not re-exports) of the product files. */
export function exportedDeclarations(root: string): (ExportedDeclaration & { readonly documented: boolean })[] {
  const out: (ExportedDeclaration & { readonly documented: boolean })[] = [];
  for (const file of productFiles(root)) {
    const source = parse(root, file);
    for (const statement of source.statements) {
      if (!isExported(statement)) continue;
      const comments = ts.getLeadingCommentRanges(source.text, statement.pos) ?? [];
      const documented = comments.some((c) => source.text.startsWith('/**', c.pos));
      const line = source.getLineAndCharacterOfPosition(statement.getStart(source)).line + 1;
      for (const name of declaredNames(statement)) out.push({ file, name, line, documented });
    }
  }
  return out;
}

/** Exported declarations without a `/**` doc comment right before them. */
export function undocumentedExports(root: string): ExportedDeclaration[] {
  return exportedDeclarations(root)
    .filter((d) => !d.documented)
    .map(({ file, name, line }) => ({ file, name, line }));
}

/**
 * Exported declarations that no other product module names: neither imported nor re-exported
 * (through an index) by a module that itself uses it. Names are matched per exporting file, so
 * two exports of one name in different files are told apart.
 */
export function unusedExports(root: string): ExportedDeclaration[] {
  const files = productFiles(root);
  const sources = new Map(files.map((f) => [f, parse(root, f)]));
  // (file, name) pairs some module imports or re-exports; re-exports are followed to the origin.
  const reexports = new Map<string, string>(); // `index.ts#name` → `origin.ts#name`
  const imported = new Set<string>();
  const target = (from: string, specifier: string): string | undefined => {
    if (!specifier.startsWith('.')) return undefined;
    const path = relative(root, resolve(root, dirname(from), specifier)).split('\\').join('/').replace(/\.js$/, '.ts');
    return sources.has(path) ? path : undefined;
  };
  for (const [file, source] of sources) {
    // `await import('./x.js')` (lazy loading keeps the CLI's start fast) uses all of x.
    for (const m of source.text.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g)) {
      const to = target(file, m[1] as string);
      if (to !== undefined) imported.add(`${to}#*`);
    }
    for (const statement of source.statements) {
      if ((ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier !== undefined && ts.isStringLiteral(statement.moduleSpecifier)) {
        const to = target(file, statement.moduleSpecifier.text);
        if (to === undefined) continue;
        if (ts.isImportDeclaration(statement)) {
          const bindings = statement.importClause?.namedBindings;
          if (bindings !== undefined && ts.isNamedImports(bindings)) for (const e of bindings.elements) imported.add(`${to}#${(e.propertyName ?? e.name).text}`);
          if (bindings !== undefined && ts.isNamespaceImport(bindings)) imported.add(`${to}#*`);
          if (statement.importClause?.name !== undefined) imported.add(`${to}#default`);
        } else if (statement.exportClause !== undefined && ts.isNamedExports(statement.exportClause)) {
          for (const e of statement.exportClause.elements) reexports.set(`${file}#${e.name.text}`, `${to}#${(e.propertyName ?? e.name).text}`);
        } else {
          imported.add(`${to}#*`); // export * from: keep them all
        }
      }
    }
  }
  const used = new Set<string>();
  for (let key of imported) {
    used.add(key);
    for (let hops = 0; reexports.has(key) && hops < 10; hops++) {
      key = reexports.get(key) as string;
      used.add(key);
    }
  }
  // An export its own file uses is alive (it is exported for documentation or for tests, not dead).
  const usedLocally = (file: string, name: string): boolean => {
    const text = sources.get(file)?.text ?? '';
    return (text.match(new RegExp(`\\b${name}\\b`, 'g')) ?? []).length > 1;
  };
  return exportedDeclarations(root)
    .filter((d) => !used.has(`${d.file}#${d.name}`) && !used.has(`${d.file}#*`) && !usedLocally(d.file, d.name))
    .map(({ file, name, line }) => ({ file, name, line }));
}
