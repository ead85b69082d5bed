/**
 * Preparing rust-analyzer for a Cargo workspace before it starts: find a working toolchain, check
 * that cargo can resolve the workspace offline, and when it cannot, give rust-analyzer a generated
 * project description instead (in its settings; nothing is written into the user's tree). Also the
 * warnings that say what a degraded load affects.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { lockedPackages, packageFromManifest, type LockedPackage } from './cargo-manifest.js';
import { cargoErrorLine, findRustToolchain, runCargo, rustcCfg, SYSROOT_SRC_RELATIVE, toolchainEnv, type RustToolchain, type ToolEnv } from './toolchain.js';
import { platformMatches, projectFromMetadata, sysrootProject, type CargoMetadata, type CargoPackage, type SysrootProject } from './project.js';
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
 * - with that description, std's crate graph too ({@link describeSysroot}), so rust-analyzer never
 *   runs `cargo metadata` on std's own workspace (offline it fails, and costs seconds);
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
  // What std needs does not depend on the workspace: asked while cargo reads the workspace (both
  // take a few hundred ms; cached per toolchain), and used unless cargo resolves a workspace that
  // rust-analyzer then loads itself.
  void stdMetadataWorksOffline(toolchain, runEnv);
  void describeSysroot(toolchain, runEnv);
  // So is the workspace's own `--no-deps` reading (tens of ms), which answers when the full one fails.
  const noDepsRun = runCargo(toolchain, [...metadataArgs, '--no-deps'], { cwd, env: runEnv, rustc, timeoutMs: CARGO_METADATA_TIMEOUT_MS });
  const full = await runCargo(toolchain, metadataArgs, { cwd, env: runEnv, rustc, timeoutMs: CARGO_METADATA_TIMEOUT_MS });
  // Untrusted, no crate from a folder the workspace names outside itself is loaded (its text
  // would be shown: docs, constant values): the crates inside are described instead.
  const outside = context.untrusted === true && full.ok ? outsidePathPackages(root, parseMetadata(full.stdout)).map((p) => p.name) : [];
  if (full.ok && outside.length === 0) {
    // cargo resolves everything from disk, but rust-analyzer also runs `cargo metadata` on std's
    // own workspace, which needs crates.io: offline it fails after seconds of retries and leaves
    // the server degraded. A workspace of path crates only is described exactly (std's graph with
    // it) when that would happen; otherwise rust-analyzer loads it as usual.
    const described = await pathWorkspaceDescription(parseMetadata(full.stdout), toolchain, runEnv, untrusted);
    return described !== undefined ? { ...base, ...described, env: { ...base.env, ...described.env } } : base;
  }
  const stdGraph = describeSysroot(toolchain, runEnv);
  const noDeps = await noDepsRun;
  let metadata = noDeps.ok ? parseMetadata(noDeps.stdout) : undefined;
  if (metadata === undefined) return base; // the manifests themselves are broken: rust-analyzer reports it
  if (context.untrusted === true) {
    // Members of an enclosing Cargo workspace outside the folder are left out too.
    const away = new Set(outsidePathPackages(root, metadata));
    metadata = { ...metadata, packages: metadata.packages.filter((p) => !away.has(p)) };
  }
  const std = await stdGraph;
  const { project, missing } = projectFromMetadata(metadata, {
    ...(toolchain.sysroot !== undefined ? { sysroot: toolchain.sysroot } : {}),
    ...(toolchain.sysrootSrc !== undefined ? { sysrootSrc: toolchain.sysrootSrc } : {}),
    ...(std !== undefined ? { crates: std.crates } : {}),
  });
  const stdWarnings = std !== undefined && std.missing.length > 0 ? [{ key: RustProblemKey.Std, text: stdPartlyDescribedWarning(std.missing) }] : [];
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
        ...stdWarnings,
      ],
    };
  }
  const why = cargoErrorLine(full, CARGO_METADATA_TIMEOUT_MS);
  const members = project.crates.filter((c) => c.is_workspace_member).length;
  const crates = members === 1 ? 'one crate' : `${members} crates`;
  const described = { ...base, settings: { section: 'rust-analyzer', patch: { linkedProjects: [project] } }, env: { ...base.env, CARGO_NET_OFFLINE: 'true' } };
  if (untrusted && /cannot create the lock file|--locked was passed/.test(full.stderr)) {
    // Failed only because no lock file may be written (none, or a stale one): the description is complete unless a dependency is not on disk.
    if (missing.length === 0) return { ...described, ...(stdWarnings.length > 0 ? { warnings: stdWarnings } : {}) };
    return {
      ...described,
      warnings: [
        {
          key: RustProblemKey.Generated,
          text:
            `this untrusted workspace has no up-to-date Cargo.lock and Dialect writes none into it, so cargo cannot resolve its dependencies; Dialect described its ${crates} to rust-analyzer from their manifests: ` +
            `definitions and references across the workspace's ${members === 1 ? 'crate' : 'crates'} are complete, but items of ${missing.join(', ')} are unknown. ` +
            'Fix: trust the workspace (the untrusted note names the command), or run `cargo generate-lockfile` in it yourself, then restart.',
        },
        ...stdWarnings,
      ],
    };
  }
  return {
    ...described,
    warnings: [
      {
        key: RustProblemKey.Generated,
        text:
          `cargo cannot resolve this workspace's dependencies offline (${why}), so Dialect described its ${crates} to rust-analyzer from their manifests: ` +
          // Never "complete": whether an answer is complete depends on the rest of the load (the
          // standard library too), which the answer's own notes say; this says only what is left out.
          `${members === 1 ? 'the crate is' : 'the crates and the links between them are'} loaded, but items of ${missing.length > 0 ? missing.join(', ') : 'dependencies that are not on disk'} are unknown, so answers that go through them can miss uses. ` +
          'Fix: run `cargo fetch` once with network access, then restart.',
      },
      ...stdWarnings,
    ],
  };
}

/**
 * The description of a workspace cargo resolved offline (`metadata`, with dependencies), when
 * Dialect's is as good as rust-analyzer's own load and rust-analyzer's own would stall on std:
 * every package is a path package (nothing from a registry or git, whose build the description
 * would leave out); trusted, no package has a build script or a proc macro (rust-analyzer runs
 * them, the description does not; untrusted, neither runs anyway); std's own `cargo metadata
 * --offline` fails (it would fail for rust-analyzer too); and std's graph is described with
 * nothing missing. `undefined` otherwise: rust-analyzer loads the workspace itself, as before.
 */
async function pathWorkspaceDescription(
  metadata: CargoMetadata | undefined,
  toolchain: RustToolchain,
  env: ToolEnv,
  untrusted: boolean,
): Promise<Pick<ServerPreparation, 'settings' | 'env'> | undefined> {
  if (metadata === undefined || metadata.packages.length === 0) return undefined;
  if (metadata.packages.some((p) => (p.source ?? null) !== null)) return undefined;
  const runs = (kind: string) => metadata.packages.some((p) => p.targets.some((t) => t.kind.includes(kind)));
  if (!untrusted && (runs('custom-build') || runs('proc-macro'))) return undefined;
  const [stdLoads, std] = await Promise.all([stdMetadataWorksOffline(toolchain, env), describeSysroot(toolchain, env)]);
  if (stdLoads || std === undefined || std.missing.length > 0) return undefined;
  const { project, missing } = projectFromMetadata(metadata, {
    ...(toolchain.sysroot !== undefined ? { sysroot: toolchain.sysroot } : {}),
    ...(toolchain.sysrootSrc !== undefined ? { sysrootSrc: toolchain.sysrootSrc } : {}),
    crates: std.crates,
  });
  if (missing.length > 0) return undefined;
  return { settings: { section: 'rust-analyzer', patch: { linkedProjects: [project] } }, env: { CARGO_NET_OFFLINE: 'true' } };
}

const stdMetadataRuns = new Map<string, Promise<boolean>>();

/**
 * Whether `cargo metadata --offline` of std's own workspace works (std's crates.io dependencies
 * are in cargo's cache or replaced by a local source): then rust-analyzer loads std itself, as
 * it does with network access. `--locked`: nothing is written into the toolchain. Cached like
 * {@link describeSysroot}.
 */
function stdMetadataWorksOffline(toolchain: RustToolchain, env: ToolEnv): Promise<boolean> {
  const src = toolchain.sysrootSrc;
  if (src === undefined) return Promise.resolve(false);
  const key = JSON.stringify([src, toolchain.cargo.path, toolchain.rustc.path, env.CARGO_HOME ?? '', env.HOME ?? '']);
  let works = stdMetadataRuns.get(key);
  if (works === undefined) {
    const metadataEnv = { ...env, __CARGO_TEST_CHANNEL_OVERRIDE_DO_NOT_USE_THIS: 'nightly', CARGO_NET_OFFLINE: 'true' };
    const args = ['metadata', '--format-version', '1', '--offline', '--locked', '--manifest-path', join(src, 'Cargo.toml')];
    works = runCargo(toolchain, args, { cwd: NEUTRAL_CWD, env: metadataEnv, timeoutMs: CARGO_METADATA_TIMEOUT_MS }).then((run) => run.ok);
    stdMetadataRuns.set(key, works);
  }
  return works;
}

/** `cargo metadata` output, or undefined when it is not JSON. */
function parseMetadata(stdout: string): CargoMetadata | undefined {
  try {
    return JSON.parse(stdout) as CargoMetadata;
  } catch {
    return undefined;
  }
}

/** The warning when std's graph was described without some of its own dependencies. */
export function stdPartlyDescribedWarning(missing: readonly string[]): string {
  return (
    `the standard library is loaded, but ${missing.length === 1 ? 'one of its own dependencies is' : 'some of its own dependencies are'} not on disk (${missing.join(', ')}), ` +
    'so what std builds on them is unknown (e.g. HashMap is built on hashbrown): answers that go through those types can miss uses. ' +
    "Fix: let cargo reach crates.io once (the download is cached), or install the toolchain's sources with their vendored crates (Debian: rust-web-src)."
  );
}

/** Where the sources of a registry crate `name-version` can be, in order: vendored next to std, then cargo's cache. */
async function registryDirs(src: string, env: ToolEnv): Promise<{ dirOf: (locked: LockedPackage) => string | undefined; vendored: Map<string, LockedPackage[]> }> {
  const cache = join(env.CARGO_HOME ?? join(env.HOME ?? homedir(), '.cargo'), 'registry', 'src');
  const vendor = join(src, 'vendor');
  const [registries, inVendor] = await Promise.all([readdir(cache).catch(() => [] as string[]), readdir(vendor).catch(() => [] as string[])]);
  const roots = [vendor, ...registries.sort().map((r) => join(cache, r))];
  // The vendored crates by name (`hashbrown-0.16.1`): a lockfile may leave some out.
  const vendored = new Map<string, LockedPackage[]>();
  for (const entry of inVendor) {
    const match = /^(.+?)-(\d+\..*)$/.exec(entry);
    if (match !== null) vendored.set(match[1] as string, [...(vendored.get(match[1] as string) ?? []), { name: match[1] as string, version: match[2] as string }]);
  }
  return { dirOf: (locked) => roots.map((root) => join(root, `${locked.name}-${locked.version}`)).find((dir) => existsSync(join(dir, 'Cargo.toml'))), vendored };
}

/** How many registry crates of std's lockfile we read at most (std's has about 30). */
const MAX_STD_REGISTRY_CRATES = 256;

const sysrootGraphs = new Map<string, Promise<SysrootProject | undefined>>();

/**
 * std's crate graph for the toolchain, for a `sysroot_project` ({@link sysrootProject}): std's
 * workspace from `cargo metadata --no-deps --offline` of its manifest (it resolves nothing, so it
 * works offline), its registry crates from its `Cargo.lock` and their manifests where they are on
 * disk (vendored with the sources, or in cargo's cache), the platform from `rustc --print cfg`.
 * Reads only the toolchain's files; cargo runs from a neutral folder. Cached per toolchain for
 * the process. `undefined` when the sources or any of those steps are missing: rust-analyzer
 * then loads std itself, as before.
 */
export function describeSysroot(toolchain: RustToolchain, env: ToolEnv): Promise<SysrootProject | undefined> {
  const src = toolchain.sysrootSrc;
  if (src === undefined) return Promise.resolve(undefined);
  const key = JSON.stringify([src, toolchain.cargo.path, toolchain.rustc.path, env.CARGO_HOME ?? '', env.HOME ?? '']);
  let graph = sysrootGraphs.get(key);
  if (graph === undefined) {
    graph = readSysroot(toolchain, src, env).catch(() => undefined);
    sysrootGraphs.set(key, graph);
  }
  return graph;
}

async function readSysroot(toolchain: RustToolchain, src: string, env: ToolEnv): Promise<SysrootProject | undefined> {
  const manifest = join(src, 'Cargo.toml');
  if (!existsSync(manifest)) return undefined;
  // std's manifests use unstable cargo features: cargo reads them only as a nightly (rust-analyzer passes the same variable).
  const metadataEnv = { ...env, __CARGO_TEST_CHANNEL_OVERRIDE_DO_NOT_USE_THIS: 'nightly', CARGO_NET_OFFLINE: 'true' };
  const [run, lockText, cfg, { dirOf, vendored }] = await Promise.all([
    runCargo(toolchain, ['metadata', '--format-version', '1', '--no-deps', '--offline', '--manifest-path', manifest], { cwd: NEUTRAL_CWD, env: metadataEnv, timeoutMs: CARGO_METADATA_TIMEOUT_MS }),
    readFile(join(src, 'Cargo.lock'), 'utf8').catch(() => ''),
    rustcCfg(toolchain.rustc.path, env),
    registryDirs(src, env),
  ]);
  const library = run.ok ? parseMetadata(run.stdout) : undefined;
  if (library === undefined || cfg === undefined) return undefined;
  const platform = new Set(cfg);
  const locked = new Map<string, LockedPackage[]>();
  for (const p of lockedPackages(lockText)) if (p.source?.startsWith('registry+') === true) locked.set(p.name, [...(locked.get(p.name) ?? []), p]);
  // The registry crates std's crates use on this platform, and the ones those use, as far as they are on disk.
  const registry: CargoPackage[] = [];
  const seen = new Set<string>();
  const pending = [...library.packages];
  for (let next = 0; next < pending.length && seen.size < MAX_STD_REGISTRY_CRATES; next++) {
    const pkg = pending[next] as CargoPackage;
    for (const dep of pkg.dependencies) {
      if ((dep.kind ?? null) !== null || dep.path !== undefined || (dep.target != null && !platformMatches(dep.target, platform))) continue;
      for (const candidate of locked.get(dep.name) ?? vendored.get(dep.name) ?? []) {
        const id = `${candidate.name}-${candidate.version}`;
        if (seen.has(id)) continue;
        seen.add(id);
        const dir = dirOf(candidate);
        if (dir === undefined) continue;
        const text = await readFile(join(dir, 'Cargo.toml'), 'utf8').catch(() => undefined);
        let read: CargoPackage | undefined;
        try {
          read = text !== undefined ? packageFromManifest(text, dir) : undefined;
        } catch {
          read = undefined; // a manifest we cannot read counts as not on disk
        }
        if (read === undefined) continue;
        registry.push(read);
        pending.push(read);
      }
    }
  }
  return sysrootProject({ library, registry, cfg });
}
