/**
 * Generators of large workspaces for the scale benchmark and its CI-sized tests: a TypeScript
 * monorepo (packages with path aliases, with or without a root tsconfig that references every
 * package) and a many-crate Cargo workspace. Every size is a parameter; the names the benchmark
 * asks about are exported so tests and the benchmark agree on them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The class every TypeScript file uses (`packages/p0/src/widget.ts`), and the Rust struct every module uses. */
export const SHARED_TYPE = 'Widget';
/** A name defined once in each of the first `definitions` files (findDefinitions of many definitions). */
export const REPEATED_NAME = 'repeatedHandler';
/** A word in a comment of exactly one file (a rare search). */
export const RARE_WORD = 'zanzibarQuokka';
/** A word in every file (a common search). */
export const COMMON_WORD = 'value';

/** What a TypeScript monorepo looks like. */
export interface TsMonorepoOptions {
  /** Packages `packages/p0…`; p0 defines the shared class. */
  readonly packages: number;
  /** Source files per package (besides `index.ts`). */
  readonly filesPerPackage: number;
  /**
   * Whether the root has a `tsconfig.json` with the path aliases and a reference to every
   * package. Without it, each package's own tsconfig carries the aliases.
   */
  readonly rootTsconfig: boolean;
  /** How many files define `REPEATED_NAME` (default 50). */
  readonly definitions?: number;
}

/** What was generated: counts the tests and the benchmark compare answers with. */
export interface GeneratedWorkspace {
  readonly files: number;
  /** Uses of the shared type outside its own file (references). */
  readonly sharedUses: number;
  /** Definitions of `REPEATED_NAME`. */
  readonly definitions: number;
}

function write(path: string, text: string): void {
  writeFileSync(path, text);
}

/** Writes a TypeScript monorepo under `root` (created). Synchronous: it is set-up, not measured. */
export function generateTsMonorepo(root: string, options: TsMonorepoOptions): GeneratedWorkspace {
  const { packages, filesPerPackage, rootTsconfig } = options;
  const definitions = Math.min(options.definitions ?? 50, packages * filesPerPackage);
  let files = 0;
  let sharedUses = 0;
  let defined = 0;
  const paths = { '@scale/*': ['packages/*/src/index.ts'] };
  const compilerOptions = { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, composite: true, declaration: true, skipLibCheck: true };
  mkdirSync(root, { recursive: true });
  write(join(root, 'package.json'), JSON.stringify({ name: 'scale-monorepo', private: true, workspaces: ['packages/*'] }, null, 2));
  write(join(root, '.gitignore'), 'node_modules/\ndist/\n*.log\n');
  if (rootTsconfig) {
    write(
      join(root, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { ...compilerOptions, baseUrl: '.', paths }, files: [], references: Array.from({ length: packages }, (_, p) => ({ path: `packages/p${p}` })) }, null, 2),
    );
  }
  for (let p = 0; p < packages; p++) {
    const dir = join(root, 'packages', `p${p}`);
    mkdirSync(join(dir, 'src'), { recursive: true });
    write(join(dir, 'package.json'), JSON.stringify({ name: `@scale/p${p}`, version: '0.0.0', main: 'src/index.ts' }, null, 2));
    write(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { ...compilerOptions, baseUrl: '../..', paths, rootDir: '../..', outDir: 'dist' }, include: ['src'] }, null, 2),
    );
    const exports: string[] = [];
    if (p === 0) {
      write(
        join(dir, 'src', 'widget.ts'),
        `/** The class every file uses. */\nexport class ${SHARED_TYPE} {\n  constructor(readonly value: number) {}\n\n  /** Its size. */\n  size(): number {\n    return this.value;\n  }\n}\n`,
      );
      exports.push(`export { ${SHARED_TYPE} } from './widget';`);
      files++;
    }
    for (let f = 0; f < filesPerPackage; f++) {
      const name = `f${f}`;
      const lines = [
        p === 0 ? `import { ${SHARED_TYPE} } from './widget';` : `import { ${SHARED_TYPE} } from '@scale/p0';`,
        '',
        `/** Module ${f} of package ${p}.${p === packages - 1 && f === filesPerPackage - 1 ? ` ${RARE_WORD}` : ''} */`,
        `export function use_${p}_${f}(widget: ${SHARED_TYPE}): number {`,
        `  const value = widget.size() + ${f};`,
        '  return value;',
        '}',
        '',
        `export const make_${p}_${f} = (value: number): ${SHARED_TYPE} => new ${SHARED_TYPE}(value);`,
      ];
      sharedUses += 3;
      if (defined < definitions) {
        // The doc comment names the function, as real ones do: a comment is no second declaration.
        lines.push('', `/** ${REPEATED_NAME} number ${defined}: one of many definitions of the same name. */`, `export function ${REPEATED_NAME}(value: number): number {`, `  return value + ${defined};`, '}');
        defined++;
      }
      write(join(dir, 'src', `${name}.ts`), `${lines.join('\n')}\n`);
      exports.push(`export { use_${p}_${f}, make_${p}_${f} } from './${name}';`);
      files++;
    }
    write(join(dir, 'src', 'index.ts'), `${exports.join('\n')}\n`);
    files++;
  }
  return { files, sharedUses, definitions: defined };
}

/** What a Cargo workspace looks like. */
export interface RustWorkspaceOptions {
  /** Member crates `crates/c0…`; c0 defines the shared struct and the others depend on it. */
  readonly crates: number;
  /** Modules per crate. */
  readonly modulesPerCrate: number;
  /** How many modules define `repeated_handler` (default 50). */
  readonly definitions?: number;
}

/** The Rust spelling of the repeated name. */
export const RUST_REPEATED_NAME = 'repeated_handler';

/** Writes a Cargo workspace under `root` (created), every crate depending on `c0` by path. */
export function generateRustWorkspace(root: string, options: RustWorkspaceOptions): GeneratedWorkspace {
  const { crates, modulesPerCrate } = options;
  const definitions = Math.min(options.definitions ?? 50, crates * modulesPerCrate);
  let files = 0;
  let sharedUses = 0;
  let defined = 0;
  mkdirSync(root, { recursive: true });
  write(join(root, 'Cargo.toml'), `[workspace]\nmembers = [${Array.from({ length: crates }, (_, c) => `"crates/c${c}"`).join(', ')}]\nresolver = "2"\n`);
  write(join(root, '.gitignore'), '/target\n');
  for (let c = 0; c < crates; c++) {
    const dir = join(root, 'crates', `c${c}`);
    mkdirSync(join(dir, 'src'), { recursive: true });
    const deps = c === 0 ? '' : 'scale-c0 = { path = "../c0" }\n';
    write(join(dir, 'Cargo.toml'), `[package]\nname = "scale-c${c}"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n${deps}`);
    const mods: string[] = [];
    if (c === 0) {
      mods.push('pub mod widget;');
      write(join(dir, 'src', 'widget.rs'), `/// The struct every module uses.\npub struct ${SHARED_TYPE} {\n    pub value: u64,\n}\n\nimpl ${SHARED_TYPE} {\n    /// Its size.\n    pub fn size(&self) -> u64 {\n        self.value\n    }\n}\n`);
      files++;
    }
    const use = c === 0 ? `use crate::widget::${SHARED_TYPE};` : `use scale_c0::widget::${SHARED_TYPE};`;
    for (let m = 0; m < modulesPerCrate; m++) {
      mods.push(`pub mod m${m};`);
      const lines = [use, '', `/// Module ${m} of crate ${c}.${c === crates - 1 && m === modulesPerCrate - 1 ? ` ${RARE_WORD}` : ''}`, `pub fn use_${c}_${m}(widget: &${SHARED_TYPE}) -> u64 {`, `    let value = widget.size() + ${m};`, '    value', '}'];
      sharedUses += 1;
      if (defined < definitions) {
        lines.push('', `/// \`${RUST_REPEATED_NAME}\` number ${defined}: one of many definitions of the same name.`, `pub fn ${RUST_REPEATED_NAME}(value: u64) -> u64 {`, `    value + ${defined}`, '}');
        defined++;
      }
      write(join(dir, 'src', `m${m}.rs`), `${lines.join('\n')}\n`);
      files++;
    }
    write(join(dir, 'src', 'lib.rs'), `${mods.join('\n')}\n`);
    files++;
  }
  return { files, sharedUses, definitions: defined };
}
