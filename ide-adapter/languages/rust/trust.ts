/**
 * What rust-analyzer may do in an UNTRUSTED workspace (its definition's `untrusted` hook; applied
 * by `lsp/untrusted.ts`, the one place that applies trust). No program the workspace configures
 * may run:
 *
 * - rust-analyzer runs without build scripts, proc macros and `cargo check` (settings), and every
 *   cargo/rustc it starts is Dialect's shim (`untrusted-toolchain/`), which runs the real tool from
 *   `/`: cargo then never reads the workspace's `.cargo/config.toml` (`build.rustc-wrapper`,
 *   `build.rustc`, `[env]`, rustflags, credential providers), and no rustup proxy reads its
 *   `rust-toolchain.toml` (a `path =` toolchain would run programs from the repository). The shims
 *   are made rust-analyzer's sysroot (`cargo.sysroot`), because rust-analyzer runs cargo through
 *   `$CARGO_HOME/bin/cargo` with `RUSTUP_TOOLCHAIN=<sysroot>` and rustc as `<sysroot>/bin/rustc`;
 *   the standard library comes from the real sysroot (`cargo.sysrootSrc`);
 * - rustup proxies are not used as the rust-analyzer binary (they read `rust-toolchain.toml` in
 *   the workspace, where the server runs);
 * - a workspace `rust-analyzer.toml` outranks the client's settings in rust-analyzer (it can set
 *   `cargo.buildScripts.overrideCommand`, `check.overrideCommand`, `cargo.sysroot`,
 *   `cargo.extraEnv`…) and cannot be switched off, and a `rust-project.json` names its own sysroot
 *   (whose `bin/rustc` rust-analyzer runs), so rust-analyzer is not started when one exists;
 * - `Cargo.toml` files may not lead out of the workspace (`confineProjectFiles`).
 *
 * {@link rustAnalyzerRestrictions} is a pure function of (trusted, toolchain paths).
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, dirname, join, parse } from 'node:path';
import { packageFile } from '../../package-files.js';
import { resolveCandidate } from '../../lsp/discovery.js';
import { confineProjectFiles } from '../../lsp/project-files.js';
import { withSettings, type ServerDefinition } from '../../lsp/servers.js';
import { trustCommand } from '../../trust.js';
import { searchPathFolders } from '../../search-path.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The cargo and rustc to run for a workspace (absolute paths of the real tools, not rustup proxies). */
export interface ToolchainPaths {
  readonly cargo?: string;
  readonly rustc?: string;
  /** The standard library sources; default `<rustc>/../../lib/rustlib/src/rust/library`. */
  readonly sysrootSrc?: string;
}

/** What rust-analyzer gets on top of its definition. */
export interface ServerRestrictions {
  /** Merged into the server's settings section (and its initializationOptions). */
  readonly settings: Readonly<Record<string, unknown>>;
  /** Environment of the server process. */
  readonly env: Readonly<Record<string, string>>;
}

/** The variables the shims read; also the rust-analyzer process environment keys we set. */
export const UNTRUSTED_ENV = {
  cargo: 'DIALECT_UNTRUSTED_CARGO',
  rustc: 'DIALECT_UNTRUSTED_RUSTC',
  sysroot: 'DIALECT_UNTRUSTED_SYSROOT',
} as const;

/** The one-line limitation an untrusted workspace's note names for a running rust-analyzer. */
export const RUST_UNTRUSTED_LIMITS = 'rust-analyzer runs without build scripts, proc macros and cargo check';

/**
 * Workspace files rust-analyzer obeys over its client: `rust-analyzer.toml` (settings such as
 * `cargo.buildScripts.overrideCommand`, `cargo.sysroot`) and `rust-project.json` (a `sysroot` whose
 * `bin/rustc` rust-analyzer runs).
 */
export const RUST_ANALYZER_PROJECT_FILES = ['rust-analyzer.toml', 'rust-project.json', '.rust-project.json'] as const;

/** The shim sysroot folder (with `bin/cargo` and `bin/rustc`): the package's `ide-adapter/languages/rust/untrusted-toolchain/`. */
export function untrustedToolchainDir(): string {
  const dir = packageFile('ide-adapter', 'languages', 'rust', 'untrusted-toolchain');
  if (!existsSync(join(dir, 'bin', 'cargo'))) throw new Error(`Dialect's untrusted toolchain shims are missing (looked in ${dir})`);
  return dir;
}

/** The standard library sources of a toolchain: given, or next to its rustc. */
function sysrootSources(toolchain: ToolchainPaths): string | undefined {
  return toolchain.sysrootSrc ?? (toolchain.rustc !== undefined ? join(dirname(dirname(toolchain.rustc)), 'lib', 'rustlib', 'src', 'rust', 'library') : undefined);
}

/**
 * Settings and environment for rust-analyzer; `undefined` when trusted (everything as configured).
 * Pure: the shim folder is part of this package.
 */
export function rustAnalyzerRestrictions(trusted: boolean, toolchain: ToolchainPaths = {}): ServerRestrictions | undefined {
  if (trusted) return undefined;
  const shims = untrustedToolchainDir();
  const sysrootSrc = sysrootSources(toolchain);
  const env: Record<string, string> = {
    [UNTRUSTED_ENV.sysroot]: shims,
    // Without a sysroot rust-analyzer asks $CARGO and $RUSTC (and rustup's proxies): the shims too.
    CARGO: join(shims, 'bin', 'cargo'),
    RUSTC: join(shims, 'bin', 'rustc'),
  };
  if (toolchain.cargo !== undefined) env[UNTRUSTED_ENV.cargo] = toolchain.cargo;
  if (toolchain.rustc !== undefined) env[UNTRUSTED_ENV.rustc] = toolchain.rustc;
  return {
    settings: {
      cargo: { buildScripts: { enable: false }, sysroot: shims, ...(sysrootSrc !== undefined ? { sysrootSrc } : {}) },
      procMacro: { enable: false },
      checkOnSave: false,
    },
    env,
  };
}

/** Whether an executable is a rustup proxy (a link to, or copy named like, `rustup`). */
export function isRustupProxy(path: string): boolean {
  try {
    return /^rustup(-init)?(\.exe)?$/.test(basename(realpathSync(path)));
  } catch {
    return false;
  }
}

/** The first `name` on PATH that is a real tool, not a rustup proxy (followed to its real path). */
function realToolOnPath(name: string, env: Env): string | undefined {
  for (const dir of searchPathFolders(env['PATH'])) {
    const path = resolveCandidate(join(dir, name), env);
    if (path !== undefined && !isRustupProxy(path)) return realpathSync(path);
  }
  return undefined;
}

/**
 * A default toolchain: the first real cargo and rustc on PATH. (Toolchain discovery proper is
 * `prepare`'s, whose finds win; this is the fallback and the standard library's location.)
 */
export function defaultRustToolchain(env: Env = process.env): ToolchainPaths {
  const cargo = realToolOnPath('cargo', env);
  const rustc = realToolOnPath('rustc', env);
  return { ...(cargo !== undefined ? { cargo } : {}), ...(rustc !== undefined ? { rustc } : {}) };
}

/**
 * The {@link RUST_ANALYZER_PROJECT_FILES} rust-analyzer would obey: in the root, in its direct
 * subfolders (rust-analyzer looks for projects there too), and in ancestors holding a Cargo.toml
 * (a Cargo workspace root above the folder).
 */
export async function workspaceRustAnalyzerConfigs(root: string): Promise<string[]> {
  const isFile = (path: string): boolean => {
    try {
      return statSync(path).isFile();
    } catch {
      return false;
    }
  };
  const inDir = (dir: string): string[] => RUST_ANALYZER_PROJECT_FILES.map((f) => join(dir, f)).filter(isFile);
  const found = inDir(root);
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) if (entry.isDirectory()) found.push(...inDir(join(root, entry.name)));
  for (let dir = dirname(root); dir !== parse(dir).root && dir !== dirname(dir); dir = dirname(dir)) {
    if (isFile(join(dir, 'Cargo.toml'))) found.push(...inDir(dir));
  }
  return found;
}

/**
 * rust-analyzer's definition for an untrusted workspace (its `untrusted` hook): the
 * {@link rustAnalyzerRestrictions}, never a rustup proxy as the server, no start next to a
 * workspace `rust-analyzer.toml`, and confined project files. `toolchain` names the cargo and
 * rustc the shims run when `prepare` finds none; default: the first real ones on the PATH
 * `prepare` is given.
 */
export function untrustedRustAnalyzer(definition: ServerDefinition, toolchain?: ToolchainPaths): ServerDefinition {
  const restrictions = rustAnalyzerRestrictions(false, toolchain ?? {}) as ServerRestrictions;
  const section = 'rust-analyzer';
  const restricted = withSettings(definition, section, restrictions.settings);
  return confineProjectFiles({
    ...restricted,
    env: { ...(definition.env ?? {}), ...restrictions.env },
    candidates: (env) => {
      const all = definition.candidates(env);
      // The user's explicit override is theirs to choose; found binaries must not be rustup proxies.
      const override = definition.overrideVar !== undefined ? (env ?? process.env)[definition.overrideVar] : undefined;
      if (override !== undefined && override.trim() !== '') return all;
      return all.filter((candidate) => {
        const path = resolveCandidate(candidate, env ?? process.env);
        return path === undefined || !isRustupProxy(path);
      });
    },
    installHint: `${definition.installHint}; in an untrusted workspace rustup's rust-analyzer proxy is not used (the workspace's rust-toolchain.toml could redirect it): set ${definition.overrideVar ?? 'DIALECT_RUST_ANALYZER'} to the output of \`rustup which rust-analyzer\``,
    // The workspace's own tools run from a neutral folder, and the restrictions have the last word
    // over the toolchain `prepare` finds (its CARGO/RUSTC must not replace the shims).
    ...(definition.prepare !== undefined
      ? {
          prepare: async (root: string, env: Readonly<Record<string, string | undefined>>) => {
            // Found without the shims in the environment (the finder honours $CARGO), so the shims
            // never end up running themselves.
            const withoutShims = Object.fromEntries(Object.entries(env).filter(([name]) => !(name in restrictions.env)));
            const prepared = await (definition.prepare as NonNullable<ServerDefinition['prepare']>)(root, withoutShims, { untrusted: true });
            const fallback = toolchain ?? defaultRustToolchain(withoutShims);
            // The shims run the working toolchain `prepare` found (else the fallback), from a neutral folder.
            const found = prepared.env ?? {};
            const cargo = found['CARGO'] ?? fallback.cargo;
            const rustc = found['RUSTC'] ?? fallback.rustc;
            const real = {
              ...(cargo !== undefined ? { [UNTRUSTED_ENV.cargo]: cargo } : {}),
              ...(rustc !== undefined ? { [UNTRUSTED_ENV.rustc]: rustc } : {}),
            };
            // The standard library from the real sysroot (the shims are rust-analyzer's sysroot).
            const sysrootSrc = toolchain === undefined ? sysrootSources(fallback) : undefined;
            const settings =
              sysrootSrc === undefined
                ? prepared.settings
                : prepared.settings === undefined || prepared.settings.section === section
                  ? { section, patch: { ...(prepared.settings?.patch ?? {}), cargo: { ...(asRecord(prepared.settings?.patch['cargo']) ?? {}), sysrootSrc } } }
                  : prepared.settings;
            return { ...prepared, ...(settings !== undefined ? { settings } : {}), env: { ...found, ...restrictions.env, ...real } };
          },
        }
      : {}),
    preflight: async (root) => {
      const configs = await workspaceRustAnalyzerConfigs(root);
      if (configs.length === 0) return definition.preflight?.(root);
      return (
        `rust-analyzer was not started: this untrusted workspace has ${configs.join(', ')}, which rust-analyzer ` +
        `obeys over Dialect's settings and which can make it run programs. Trust the workspace to use it: ${trustCommand(root)}`
      );
    },
  });
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
