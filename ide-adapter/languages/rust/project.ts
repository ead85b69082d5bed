/**
 * A rust-analyzer project description (the `rust-project.json` format) generated from
 * `cargo metadata --offline --no-deps`: workspace crates and their targets, editions, path
 * dependencies (renames included), enabled features as cfgs, and the sysroot. Pure: no I/O.
 *
 * Why: when cargo cannot resolve a workspace's registry dependencies (offline, no lockfile, no
 * cache), rust-analyzer loads each package without its dependencies and references across the
 * workspace's own crates go missing. The description links the crates that ARE on disk.
 */
import { withoutTrailingSlashes } from '../../confine.js';

/** The subset of `cargo metadata --format-version 1` we read. */
export interface CargoMetadata {
  readonly packages: readonly CargoPackage[];
  readonly workspace_members: readonly string[];
  readonly workspace_root?: string;
}

/** One package of `cargo metadata`. */
export interface CargoPackage {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  /** `null` for a path package (a workspace member or a path dependency), e.g. `registry+https://…` otherwise. */
  readonly source?: string | null;
  readonly edition?: string;
  readonly manifest_path: string;
  readonly dependencies: readonly CargoDependency[];
  readonly targets: readonly CargoTarget[];
  readonly features?: Readonly<Record<string, readonly string[]>>;
}

/** One dependency declaration of a package. */
export interface CargoDependency {
  readonly name: string;
  /** `null` for path dependencies (which carry `path`), e.g. `registry+https://…` otherwise. */
  readonly source?: string | null;
  /** `null` (normal), `dev` or `build`. */
  readonly kind?: string | null;
  readonly rename?: string | null;
  readonly optional?: boolean;
  readonly uses_default_features?: boolean;
  readonly features?: readonly string[];
  readonly path?: string;
  /** The platform it applies to: `cfg(…)` or a target triple; `null`/absent for every platform. */
  readonly target?: string | null;
  /** Its version requirement, e.g. `^0.16.1`. */
  readonly req?: string;
}

/** One target (lib, bin, test, …) of a package. */
export interface CargoTarget {
  readonly name: string;
  readonly kind: readonly string[];
  readonly src_path: string;
  readonly edition?: string;
}

/** A dependency edge of a crate: the index of the crate it uses and the name code uses for it. */
export interface RustProjectDep {
  readonly crate: number;
  readonly name: string;
}

/** One crate of a rust-project.json. */
export interface RustProjectCrate {
  readonly display_name: string;
  readonly root_module: string;
  readonly edition: string;
  readonly version: string;
  readonly deps: RustProjectDep[];
  readonly cfg: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly is_workspace_member: boolean;
  readonly is_proc_macro: boolean;
}

/** A rust-project.json document, passed inline in rust-analyzer's `linkedProjects` setting. */
export interface RustProjectJson {
  readonly sysroot?: string;
  readonly sysroot_src?: string;
  /** The standard library's own crates: given, rust-analyzer never runs `cargo metadata` on std. */
  readonly sysroot_project?: { readonly crates: readonly RustProjectCrate[] };
  readonly crates: readonly RustProjectCrate[];
}

/** What {@link projectFromMetadata} links to: the sysroot, and std's crate graph when it was described. */
export interface ProjectSysroot {
  readonly sysroot?: string;
  readonly sysrootSrc?: string;
  /** std's crates ({@link sysrootProject}); absent, rust-analyzer loads std itself. */
  readonly crates?: readonly RustProjectCrate[];
}

/** The generated project plus what it had to leave out. */
export interface GeneratedProject {
  readonly project: RustProjectJson;
  /** Dependencies that are not on disk (registry, git, or outside the workspace), e.g. `serde (of ws-core)`. */
  readonly missing: readonly string[];
}

/** Target kinds that make a package's library (what dependents link against). */
const LIB_KINDS = new Set(['lib', 'rlib', 'dylib', 'cdylib', 'staticlib', 'proc-macro']);
/** Targets built with the package's dev-dependencies and its library. */
const OTHER_KINDS = new Set(['bin', 'example', 'test', 'bench']);
/** Edition of targets and packages that do not say (cargo's default). */
const DEFAULT_EDITION = '2015';
/** cfgs a `cargo check`/`cargo test` of a workspace member sees (rust-analyzer sets `test` for members too). */
const MEMBER_CFGS = ['debug_assertions', 'test'];

/** Code refers to a crate by its target name with `-` as `_`. */
function crateName(name: string): string {
  return name.replace(/-/g, '_');
}

function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i > 0 ? path.slice(0, i) : path;
}

/**
 * Generates the project from `cargo metadata --no-deps` output. Each package's library becomes a
 * crate that its dependents link (under the name they use, `rename` included); bins, examples,
 * tests and benches become crates depending on the library, normal and dev-dependencies.
 * Features: every member's `default` features plus those its path dependents ask for, propagated
 * through `feature = [...]` lists (`dep:x`, `x/feat`, `x?/feat`). Build scripts are left out.
 */
export function projectFromMetadata(metadata: CargoMetadata, sysroot: ProjectSysroot = {}): GeneratedProject {
  const { crates, missing } = cratesFromMetadata(metadata, { libsOnly: false });
  return {
    project: {
      ...(sysroot.sysroot !== undefined ? { sysroot: sysroot.sysroot } : {}),
      ...(sysroot.sysrootSrc !== undefined ? { sysroot_src: sysroot.sysrootSrc } : {}),
      ...(sysroot.crates !== undefined ? { sysroot_project: { crates: sysroot.crates } } : {}),
      crates,
    },
    missing,
  };
}

/** The standard library's sources as read from disk, for {@link sysrootProject}. */
export interface SysrootSources {
  /** `cargo metadata --no-deps` of std's own workspace (`<sysroot_src>/Cargo.toml`): std, core, alloc, proc_macro, test, … */
  readonly library: CargoMetadata;
  /** std's registry dependencies found on disk (vendored with the sources, or in cargo's cache), read from their manifests. */
  readonly registry: readonly CargoPackage[];
  /** The target's cfgs as `rustc --print cfg` prints them: `unix`, `target_os="linux"`, … */
  readonly cfg: readonly string[];
}

/** std's crate graph for a rust-project.json `sysroot_project`, plus what it had to leave out. */
export interface SysrootProject {
  readonly crates: readonly RustProjectCrate[];
  /** Dependencies std's crates use on this platform that are not on disk, e.g. `hashbrown (of std)`. */
  readonly missing: readonly string[];
}

/** The stand-ins std's workspace uses for its own crates (`rustc-std-workspace-core` re-exports `core`). */
const STD_WORKSPACE_STAND_IN = /^rustc-std-workspace-(core|alloc|std)$/;

/**
 * std's crate graph the way `cargo metadata` of std's workspace would give it to rust-analyzer,
 * without cargo resolving anything (offline it cannot: std depends on crates.io crates): the
 * library's path crates, its registry dependencies from `sources.registry` (the version its
 * requirement asks for), only the dependencies of this platform (`cfg(…)` evaluated against the
 * target's cfgs; a dependency for another target triple is left out), the `rustc-std-workspace-*`
 * stand-ins replaced by the crates they stand for (as rust-analyzer does), and features as cargo
 * enables them from the workspace members' defaults.
 */
export function sysrootProject(sources: SysrootSources): SysrootProject {
  const cfg = new Set(sources.cfg.map((atom) => atom.trim()).filter((atom) => atom !== ''));
  const library = new Map(sources.library.packages.map((p) => [p.name, p]));
  const registry = new Map<string, CargoPackage[]>();
  for (const p of sources.registry) registry.set(p.name, [...(registry.get(p.name) ?? []), p]);
  const resolve = (dep: CargoDependency): CargoDependency => {
    const standIn = STD_WORKSPACE_STAND_IN.exec(dep.name);
    const real = standIn !== null ? library.get(standIn[1] as string) : undefined;
    // Code keeps the name it uses (`rustc_std_workspace_core` unless renamed); the crate is the real one.
    if (real !== undefined) return { ...dep, path: dirOf(real.manifest_path), rename: dep.rename ?? dep.name };
    if (dep.path !== undefined) return dep;
    const used = versionFor(registry.get(dep.name) ?? [], dep.req);
    return used !== undefined ? { ...dep, path: dirOf(used.manifest_path) } : dep;
  };
  const packages = [...sources.library.packages.filter((p) => !STD_WORKSPACE_STAND_IN.test(p.name)), ...sources.registry].map((p) => ({
    ...p,
    dependencies: p.dependencies.filter((d) => d.target === undefined || d.target === null || platformMatches(d.target, cfg)).map(resolve),
  }));
  const members = new Set(sources.library.workspace_members);
  const { crates, missing } = cratesFromMetadata(
    { packages, workspace_members: sources.library.workspace_members },
    { libsOnly: true, roots: members, missing: 'enabled' },
  );
  return { crates, missing };
}

/** The package among same-named ones whose version `req` asks for (same major, or minor for 0.x); the only one when there is one. */
function versionFor(candidates: readonly CargoPackage[], req: string | undefined): CargoPackage | undefined {
  if (candidates.length <= 1) return candidates[0];
  const wanted = /(\d+)(?:\.(\d+))?/.exec(req ?? '');
  if (wanted === null) return candidates[0];
  const [, major, minor] = wanted;
  return candidates.find((c) => {
    const [cMajor, cMinor] = c.version.split('.');
    return cMajor === major && (major !== '0' || minor === undefined || cMinor === minor);
  });
}

/** Nesting of `all`/`any`/`not` followed in a cfg expression. */
const MAX_CFG_DEPTH = 64;

/**
 * Whether a dependency's platform applies: `cfg(expr)` evaluated against `cfg` (atoms as
 * `rustc --print cfg` prints them: `unix`, `target_os="linux"`). A bare target triple, or a
 * malformed expression, does not apply (the target's own triple is not among the cfgs).
 */
export function platformMatches(platform: string, cfg: ReadonlySet<string>): boolean {
  const text = platform.trim();
  if (!text.startsWith('cfg(') || !text.endsWith(')')) return false;
  const tokens = text.slice(4, -1).match(/"(?:[^"\\]|\\.)*"|[A-Za-z_][A-Za-z0-9_]*|[(),=]|\S/g) ?? [];
  let i = 0;
  const predicate = (depth: number): boolean => {
    if (depth > MAX_CFG_DEPTH) throw new Error('cfg nested too deeply');
    const name = tokens[i++];
    if (name === undefined || !/^[A-Za-z_]/.test(name)) throw new Error('expected a cfg name');
    if (tokens[i] === '=') {
      const value = tokens[i + 1];
      if (value === undefined || !value.startsWith('"')) throw new Error('expected a string');
      i += 2;
      return cfg.has(`${name}=${value}`);
    }
    if (tokens[i] !== '(') return cfg.has(name);
    i++;
    const args: boolean[] = [];
    while (tokens[i] !== ')') {
      args.push(predicate(depth + 1));
      if (tokens[i] === ',') i++;
      else if (tokens[i] !== ')') throw new Error('expected , or )');
    }
    i++;
    if (name === 'all') return args.every(Boolean);
    if (name === 'any') return args.some(Boolean);
    if (name === 'not' && args.length === 1) return !args[0];
    throw new Error(`unknown cfg operator ${name}`);
  };
  try {
    const result = predicate(0);
    return i === tokens.length && result;
  } catch {
    return false;
  }
}

/** How {@link cratesFromMetadata} treats the packages. */
interface CrateOptions {
  /** Only libraries, none a workspace member, no member cfgs (the standard library's crates). */
  readonly libsOnly: boolean;
  /** Packages whose default features are on whoever depends on them; default every package (a workspace's own). */
  readonly roots?: ReadonlySet<string>;
  /** Dependencies reported missing: `declared` (every one not on disk) or `enabled` (normal, and on). */
  readonly missing?: 'declared' | 'enabled';
}

function cratesFromMetadata(metadata: CargoMetadata, options: CrateOptions): { crates: RustProjectCrate[]; missing: string[] } {
  const members = new Set(options.libsOnly ? [] : metadata.workspace_members);
  const byDir = new Map<string, CargoPackage>();
  for (const pkg of metadata.packages) byDir.set(dirOf(pkg.manifest_path), pkg);
  const missing = new Set<string>();
  /** The package a dependency resolves to, when it is on disk in the metadata. */
  const target = (dep: CargoDependency): CargoPackage | undefined => (dep.path !== undefined ? byDir.get(withoutTrailingSlashes(dep.path)) : undefined);
  for (const pkg of metadata.packages) {
    for (const dep of pkg.dependencies) {
      if (dep.kind !== 'build' && target(dep) === undefined) missing.add(`${dep.name} (of ${pkg.name})`);
    }
  }

  const features = enabledFeatures(metadata.packages, target, options.roots);
  if (options.missing === 'enabled') {
    // Only what the roots really use: normal dependencies that are on, followed from the roots.
    missing.clear();
    const used = metadata.packages.filter((p) => options.roots === undefined || options.roots.has(p.id));
    const reached = new Set(used.map((p) => p.id));
    for (let next = 0; next < used.length; next++) {
      const pkg = used[next] as CargoPackage;
      const enabled = features.get(pkg.id)?.deps;
      for (const dep of pkg.dependencies) {
        if ((dep.kind ?? null) !== null || (dep.optional === true && enabled?.has(dep.rename ?? dep.name) !== true)) continue;
        const to = target(dep);
        if (to === undefined) missing.add(`${dep.name} (of ${pkg.name})`);
        else if (!reached.has(to.id)) {
          reached.add(to.id);
          used.push(to);
        }
      }
    }
  }
  const crates: RustProjectCrate[] = [];
  const libIndex = new Map<string, number>();
  const libName = new Map<string, string>();
  const deps = (pkg: CargoPackage, kinds: readonly (string | null)[]): RustProjectDep[] => {
    const out: RustProjectDep[] = [];
    const enabled = features.get(pkg.id)?.deps ?? new Set<string>();
    for (const dep of pkg.dependencies) {
      if (!kinds.includes(dep.kind ?? null)) continue;
      if (dep.optional === true && !enabled.has(dep.rename ?? dep.name)) continue;
      const used = target(dep);
      const index = used !== undefined ? libIndex.get(used.id) : undefined;
      if (used === undefined || index === undefined) continue;
      out.push({ crate: index, name: crateName(dep.rename ?? libName.get(used.id) ?? used.name) });
    }
    return out;
  };
  const crateFor = (pkg: CargoPackage, t: CargoTarget): RustProjectCrate => {
    const [major = '0', minor = '0', patch = '0'] = pkg.version.split(/[.+-]/);
    const manifestDir = dirOf(pkg.manifest_path);
    return {
      display_name: t.name,
      root_module: t.src_path,
      edition: t.edition ?? pkg.edition ?? DEFAULT_EDITION,
      version: pkg.version,
      deps: [],
      cfg: [...(members.has(pkg.id) ? MEMBER_CFGS : []), ...[...(features.get(pkg.id)?.features ?? [])].sort().map((f) => `feature="${f}"`)],
      // What `env!`/`option_env!` see under cargo; the manifest dir also anchors `include_str!`.
      env: {
        CARGO_MANIFEST_DIR: manifestDir,
        CARGO_PKG_NAME: pkg.name,
        CARGO_PKG_VERSION: pkg.version,
        CARGO_PKG_VERSION_MAJOR: major,
        CARGO_PKG_VERSION_MINOR: minor,
        CARGO_PKG_VERSION_PATCH: patch,
        CARGO_CRATE_NAME: crateName(t.name),
      },
      is_workspace_member: members.has(pkg.id),
      is_proc_macro: t.kind.includes('proc-macro'),
    };
  };

  // Libraries first, dependencies before dependents (normal dependencies cannot form cycles).
  const ordered: CargoPackage[] = [];
  const visiting = new Set<string>();
  const visit = (pkg: CargoPackage): void => {
    if (visiting.has(pkg.id)) return;
    visiting.add(pkg.id);
    for (const dep of pkg.dependencies) {
      const used = dep.kind === null || dep.kind === undefined ? target(dep) : undefined;
      if (used !== undefined) visit(used);
    }
    ordered.push(pkg);
  };
  for (const pkg of metadata.packages) visit(pkg);
  for (const pkg of ordered) {
    const lib = pkg.targets.find((t) => t.kind.some((k) => LIB_KINDS.has(k)));
    if (lib === undefined) continue;
    const crate = crateFor(pkg, lib);
    crate.deps.push(...deps(pkg, [null]));
    libIndex.set(pkg.id, crates.length);
    libName.set(pkg.id, lib.name);
    crates.push(crate);
  }
  for (const pkg of options.libsOnly ? [] : ordered) {
    for (const t of pkg.targets) {
      if (!t.kind.some((k) => OTHER_KINDS.has(k))) continue;
      const crate = crateFor(pkg, t);
      const lib = libIndex.get(pkg.id);
      if (lib !== undefined) crate.deps.push({ crate: lib, name: crateName(libName.get(pkg.id) ?? pkg.name) });
      crate.deps.push(...deps(pkg, [null, 'dev']));
      crates.push(crate);
    }
  }
  return { crates, missing: [...missing].sort() };
}

/** Per package: enabled features and enabled optional dependencies (by the name code uses). */
function enabledFeatures(
  packages: readonly CargoPackage[],
  target: (dep: CargoDependency) => CargoPackage | undefined,
  roots?: ReadonlySet<string>,
): Map<string, { features: Set<string>; deps: Set<string> }> {
  const state = new Map<string, { features: Set<string>; deps: Set<string> }>();
  for (const pkg of packages) state.set(pkg.id, { features: new Set(), deps: new Set() });
  const queue: [CargoPackage, string][] = [];
  const depNamed = (pkg: CargoPackage, name: string) => pkg.dependencies.find((d) => (d.rename ?? d.name) === name && d.kind !== 'build');
  const enableDep = (pkg: CargoPackage, name: string): void => {
    const s = state.get(pkg.id);
    const dep = depNamed(pkg, name);
    if (s === undefined || dep === undefined || s.deps.has(name)) return;
    s.deps.add(name);
    requestFrom(dep);
  };
  /** A dependency asks its package for its listed features (and `default`). */
  const requestFrom = (dep: CargoDependency): void => {
    const used = target(dep);
    if (used === undefined) return;
    if (dep.uses_default_features !== false) queue.push([used, 'default']);
    for (const f of dep.features ?? []) queue.push([used, f]);
  };
  for (const pkg of packages) {
    const root = roots === undefined || roots.has(pkg.id);
    if (root) queue.push([pkg, 'default']);
    // A dependency's own dev-dependencies are never built: they ask nothing of anyone.
    for (const dep of pkg.dependencies) if (dep.optional !== true && (root || dep.kind !== 'dev')) requestFrom(dep);
  }
  // An index, not shift(): each request is read once, so the walk stays linear in the requests.
  for (let next = 0; next < queue.length; next++) {
    const [pkg, feature] = queue[next] as [CargoPackage, string];
    const s = state.get(pkg.id);
    if (s === undefined || s.features.has(feature)) continue;
    const listed = pkg.features?.[feature];
    if (listed === undefined) {
      // An optional dependency's implicit feature.
      if (depNamed(pkg, feature)?.optional === true) {
        s.features.add(feature);
        enableDep(pkg, feature);
      }
      continue;
    }
    s.features.add(feature);
    for (const entry of listed) {
      if (entry.startsWith('dep:')) {
        enableDep(pkg, entry.slice('dep:'.length));
        continue;
      }
      const slash = entry.indexOf('/');
      if (slash < 0) {
        queue.push([pkg, entry]);
        continue;
      }
      const weak = entry[slash - 1] === '?';
      const name = entry.slice(0, weak ? slash - 1 : slash);
      const dep = depNamed(pkg, name);
      if (dep === undefined) continue;
      if (!weak && dep.optional === true) enableDep(pkg, name);
      if (dep.optional !== true || s.deps.has(name)) {
        const used = target(dep);
        if (used !== undefined) queue.push([used, entry.slice(slash + 1)]);
      }
    }
  }
  return state;
}
