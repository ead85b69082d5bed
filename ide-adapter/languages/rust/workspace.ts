/**
 * Preparing rust-analyzer for a Cargo workspace before it starts: find a working toolchain, check
 * that cargo can resolve the workspace offline, and when it cannot, give rust-analyzer a generated
 * project description instead (in its settings; nothing is written into the user's tree). Also the
 * warnings that say what a degraded load affects.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cargoErrorLine, findRustToolchain, runCargo, SYSROOT_SRC_RELATIVE, toolchainEnv, type ToolEnv } from './toolchain.js';
import { projectFromMetadata, type CargoMetadata } from './project.js';
import type { KnownProblem, PrepareContext, ServerPreparation } from '../../lsp/servers.js';
import { NEUTRAL_CWD } from '../../lsp/discovery.js';
import { outsidePathPackages } from './outside-packages.js';

/** How long `cargo metadata --offline` may take before we stop waiting for it (it reads only local files). */
export const CARGO_METADATA_TIMEOUT_MS = 15_000;
/** Where Debian's `rust-web-src` installs the std sources (the sysroot of `/usr/bin/rustc` is `/usr`). */
export const DEBIAN_STD_SOURCES = `/usr/${SYSROOT_SRC_RELATIVE}`;
/** Keys of the rust-analyzer warnings, so a warning is shown once however often it is seen. */
export const RustProblemKey = {
  Std: 'rust-std',
  WorkspaceMetadata: 'rust-workspace-metadata',
  Toolchain: 'rust-toolchain',
  Generated: 'rust-generated-project',
  OutsidePaths: 'rust-outside-path-dependencies',
} as const;

/**
 * The one-time warning about the standard library. It names what is affected, and advises
 * installing the sources only when they are missing.
 */
export function stdLibraryWarning(sourcesDir: string | undefined): string {
  // Measured: without std, even references to the workspace's own items go missing when the
  // receiver's type comes from std or the call sits inside a std macro.
  const affected =
    'so std types (String, Vec, Option, iterators, …) are unknown, and so is everything typed through them: references through std traits ' +
    '(a method called only via Iterator, Display, From, …), and even uses of your own items when the value comes from std ' +
    '(`accounts.iter().find(..)?.total()`) or the call sits inside a std macro (`println!`, `format!`, `vec!`). References and definitions may be incomplete.';
  return sourcesDir !== undefined
    ? `rust-analyzer could not fully load the Rust standard library: its sources are installed (${sourcesDir}), but loading them needs std's own dependencies from crates.io, which could not be reached; ${affected} Fix: let rust-analyzer reach crates.io once (the download is cached).`
    : `rust-analyzer could not load the Rust standard library: its sources are not installed; ${affected} Fix: apt-get install -y rust-web-src, or rustup component add rust-src.`;
}

/** rust-analyzer's messages that mean a degraded load, with warnings that say what is affected. */
export function rustKnownProblems(stdSources: string | undefined): KnownProblem[] {
  return [
    {
      key: RustProblemKey.Std,
      // Line by line: the sysroot's failure lines say "sysroot"; the workspace's do not.
      pattern: /sysroot|can't load standard library/i,
      warning: stdLibraryWarning(stdSources),
    },
    {
      key: RustProblemKey.WorkspaceMetadata,
      pattern: /Failed to read Cargo metadata with dependencies for `/,
      warning:
        'rust-analyzer could not run `cargo metadata` for this workspace (its dependencies cannot be resolved), so it loaded each package without its ' +
        'dependencies: references and definitions across the workspace\'s crates can be missing. Fix: run `cargo fetch` once with network access.',
    },
  ];
}

/** The std sources the default toolchain would use, for the static definition. */
export function defaultStdSources(): string | undefined {
  return existsSync(DEBIAN_STD_SOURCES) ? DEBIAN_STD_SOURCES : undefined;
}

/**
 * What rust-analyzer needs for the workspace at `root`, given the environment it will run in:
 *
 * - a working cargo/rustc (`CARGO`, `RUSTC`, PATH), skipping broken rustup proxies;
 * - when `cargo metadata --offline` fails but `--no-deps` works (registry dependencies that are
 *   not on disk), a generated project description as `linkedProjects`, `CARGO_NET_OFFLINE` so no
 *   cargo run spends seconds retrying the network, and a warning naming what is left out;
 * - std warnings that match the toolchain's sysroot.
 *
 * Never throws: without a working cargo it returns a warning saying so, and rust-analyzer reports
 * the workspace as not loaded.
 */
export async function prepareRustWorkspace(root: string, env: ToolEnv, context: PrepareContext = {}): Promise<ServerPreparation> {
  const { toolchain, failed } = await findRustToolchain(env);
  if (toolchain === undefined) {
    const tried = failed.map((p) => `${p.path ?? p.candidate} (${p.reason ?? 'failed'})`).join('; ');
    return {
      warnings: [
        {
          key: RustProblemKey.Toolchain,
          text: `no working cargo was found, so rust-analyzer cannot load this Cargo workspace. Tried: ${tried || 'nothing'}. Fix: install a Rust toolchain (apt-get install -y cargo, or rustup default stable), or set CARGO to a working cargo.`,
        },
      ],
    };
  }
  // Untrusted, RUSTC is pinned too (the shims run it); trusted, the workspace's build.rustc stays in force.
  const rustc = context.untrusted === true;
  const runEnv = { ...env, ...toolchainEnv(toolchain, env, { rustc }) };
  const base: ServerPreparation = { env: toolchainEnv(toolchain, env, { rustc }), knownProblems: rustKnownProblems(toolchain.sysrootSrc) };
  const manifest = join(root, 'Cargo.toml');
  if (!existsSync(manifest)) return base; // crates in subfolders: rust-analyzer finds and loads them
  // Untrusted, cargo must not write into the workspace: without --locked, `cargo metadata` creates a
  // Cargo.lock when there is none (measured with cargo 1.95: --offline alone writes it, --no-deps
  // never resolves and writes nothing). With --locked it fails instead, and the workspace is
  // described from --no-deps below; the shims add --locked to rust-analyzer's own `cargo metadata`.
  const untrusted = context.untrusted === true;
  const metadataArgs = ['metadata', '--format-version', '1', '--offline', ...(untrusted ? ['--locked'] : []), '--manifest-path', manifest];
  // Untrusted, cargo runs from a folder the workspace does not control, so it reads no
  // `.cargo/config.toml` (rustc-wrapper, [env]) and rustup no `rust-toolchain.toml` of the workspace.
  const cwd = context.untrusted === true ? NEUTRAL_CWD : root;
  const full = await runCargo(toolchain, metadataArgs, { cwd, env: runEnv, rustc, timeoutMs: CARGO_METADATA_TIMEOUT_MS });
  // Untrusted, no crate from a folder the workspace names outside itself is loaded (its text
  // would be shown: docs, constant values): the crates inside are described instead.
  const outside = context.untrusted === true && full.ok ? outsidePathPackages(root, parseMetadata(full.stdout)).map((p) => p.name) : [];
  if (full.ok && outside.length === 0) return base; // cargo resolves everything from disk: rust-analyzer loads it as usual
  const noDeps = await runCargo(toolchain, [...metadataArgs, '--no-deps'], { cwd, env: runEnv, rustc, timeoutMs: CARGO_METADATA_TIMEOUT_MS });
  let metadata = noDeps.ok ? parseMetadata(noDeps.stdout) : undefined;
  if (metadata === undefined) return base; // the manifests themselves are broken: rust-analyzer reports it
  if (context.untrusted === true) {
    // Members of an enclosing Cargo workspace outside the folder are left out too.
    const away = new Set(outsidePathPackages(root, metadata));
    metadata = { ...metadata, packages: metadata.packages.filter((p) => !away.has(p)) };
  }
  const { project, missing } = projectFromMetadata(metadata, toolchain);
  if (full.ok) {
    return {
      ...base,
      settings: { section: 'rust-analyzer', patch: { linkedProjects: [project] } },
      env: { ...base.env, CARGO_NET_OFFLINE: 'true' },
      warnings: [
        {
          key: RustProblemKey.OutsidePaths,
          text:
            `this untrusted workspace depends on crates in folders outside it (${outside.join(', ')}), which are not loaded, so nothing of theirs is shown; ` +
            `Dialect described the workspace's own crates to rust-analyzer, so items of ${missing.length > 0 ? missing.join(', ') : 'those crates'} are unknown. Trust the workspace to load them.`,
        },
      ],
    };
  }
  const why = cargoErrorLine(full, CARGO_METADATA_TIMEOUT_MS);
  const crates = project.crates.filter((c) => c.is_workspace_member).length;
  const described = { ...base, settings: { section: 'rust-analyzer', patch: { linkedProjects: [project] } }, env: { ...base.env, CARGO_NET_OFFLINE: 'true' } };
  if (untrusted && /cannot create the lock file|--locked was passed/.test(full.stderr)) {
    // Failed only because no lock file may be written (none, or a stale one): the description is complete unless a dependency is not on disk.
    if (missing.length === 0) return described;
    return {
      ...described,
      warnings: [
        {
          key: RustProblemKey.Generated,
          text:
            `this untrusted workspace has no up-to-date Cargo.lock and Dialect writes none into it, so cargo cannot resolve its dependencies; Dialect described its ${crates} crates to rust-analyzer from their manifests: ` +
            `definitions and references across the workspace's crates are complete, but items of ${missing.join(', ')} are unknown. ` +
            'Fix: trust the workspace (the untrusted note names the command), or run `cargo generate-lockfile` in it yourself, then restart.',
        },
      ],
    };
  }
  return {
    ...described,
    warnings: [
      {
        key: RustProblemKey.Generated,
        text:
          `cargo cannot resolve this workspace's dependencies offline (${why}), so Dialect described its ${crates} crates to rust-analyzer from their manifests: ` +
          // Never "complete": whether an answer is complete depends on the rest of the load (the
          // standard library too), which the answer's own notes say; this says only what is left out.
          `the crates and the links between them are loaded, but items of ${missing.length > 0 ? missing.join(', ') : 'dependencies that are not on disk'} are unknown, so answers that go through them can miss uses. ` +
          'Fix: run `cargo fetch` once with network access, then restart.',
      },
    ],
  };
}

/** `cargo metadata` output, or undefined when it is not JSON. */
function parseMetadata(stdout: string): CargoMetadata | undefined {
  try {
    return JSON.parse(stdout) as CargoMetadata;
  } catch {
    return undefined;
  }
}
