/**
 * A rust-analyzer project description (the `rust-project.json` format) generated from
 * `cargo metadata --offline --no-deps`: workspace crates and their targets, editions, path
 * dependencies (renames included), enabled features as cfgs, and the sysroot. Pure: no I/O.
 *
 * Why: when cargo cannot resolve a workspace's registry dependencies (offline, no lockfile, no
 * cache), rust-analyzer loads each package without its dependencies and references across the
 * workspace's own crates go missing. The description links the crates that ARE on disk.
 */

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
  readonly crates: readonly RustProjectCrate[];
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
export function projectFromMetadata(metadata: CargoMetadata, sysroot: { readonly sysroot?: string; readonly sysrootSrc?: string } = {}): GeneratedProject {
  const members = new Set(metadata.workspace_members);
  const byDir = new Map<string, CargoPackage>();
  for (const pkg of metadata.packages) byDir.set(dirOf(pkg.manifest_path), pkg);
  const missing = new Set<string>();
  /** The package a dependency resolves to, when it is on disk in the metadata. */
  const target = (dep: CargoDependency): CargoPackage | undefined => (dep.path !== undefined ? byDir.get(dep.path.replace(/\/+$/, '')) : undefined);
  for (const pkg of metadata.packages) {
    for (const dep of pkg.dependencies) {
      if (dep.kind !== 'build' && target(dep) === undefined) missing.add(`${dep.name} (of ${pkg.name})`);
    }
  }

  const features = enabledFeatures(metadata.packages, target);
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
  for (const pkg of ordered) {
    for (const t of pkg.targets) {
      if (!t.kind.some((k) => OTHER_KINDS.has(k))) continue;
      const crate = crateFor(pkg, t);
      const lib = libIndex.get(pkg.id);
      if (lib !== undefined) crate.deps.push({ crate: lib, name: crateName(libName.get(pkg.id) ?? pkg.name) });
      crate.deps.push(...deps(pkg, [null, 'dev']));
      crates.push(crate);
    }
  }
  return {
    project: {
      ...(sysroot.sysroot !== undefined ? { sysroot: sysroot.sysroot } : {}),
      ...(sysroot.sysrootSrc !== undefined ? { sysroot_src: sysroot.sysrootSrc } : {}),
      crates,
    },
    missing: [...missing].sort(),
  };
}

/** Per package: enabled features and enabled optional dependencies (by the name code uses). */
function enabledFeatures(
  packages: readonly CargoPackage[],
  target: (dep: CargoDependency) => CargoPackage | undefined,
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
    queue.push([pkg, 'default']);
    for (const dep of pkg.dependencies) if (dep.optional !== true) requestFrom(dep);
  }
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
    const [pkg, feature] = item;
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
