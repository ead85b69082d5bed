/**
 * What a Go workspace can make gopls run, and how an untrusted one is kept from it. gopls runs
 * the `go` command (`go env`, `go list -compiled`, `go version`), and `go list -compiled` runs
 * cgo on every package with `import "C"`: cgo runs `pkg-config` for `#cgo pkg-config:` lines
 * and the C compiler (`CC`, `CGO_CFLAGS`…) on the package's C preamble — found on `PATH`, which
 * may hold folders the workspace controls. The go command also obeys `GOFLAGS` (`-toolexec`
 * runs a program around every tool, `-overlay` swaps files) from the environment and the user's
 * `go env -w` file, and newer go commands obey `go.mod`'s `toolchain` line and `GOTOOLCHAIN`
 * (fetching and running another go). `go:generate` lines run only when asked (`gopls.generate`),
 * which Dialect never does. Measured with Debian's gopls (x/tools 0.5.0) and go 1.19: a
 * `#cgo pkg-config:` package runs the first `pkg-config` on `PATH` as soon as gopls loads it.
 *
 * Untrusted, gopls gets: `CGO_ENABLED=0` (no cgo, so neither pkg-config nor a C compiler runs;
 * cgo files are left out of the answers), `GOFLAGS` cleared, `GOENV=off` (the user's `go env -w`
 * file is not read: its GOFLAGS could name a program too), `GOTOOLCHAIN=local`, `GOPROXY=off`,
 * and `PATH` led by the folder of the go command Dialect found outside the workspace, so the `go`
 * gopls runs is never one the workspace put on `PATH`. gopls refuses to start when no go command
 * outside the workspace is found.
 */
import { realpathSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { isInside } from '../../confine.js';
import { resolveCandidate } from '../../lsp/discovery.js';
import { confineProjectFiles } from '../../lsp/project-files.js';
import type { ServerDefinition } from '../../lsp/servers.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The environment an untrusted workspace's gopls runs with (PATH is set per workspace by {@link untrustedGopls}). */
export const UNTRUSTED_GO_ENV: Readonly<Record<string, string>> = {
  CGO_ENABLED: '0',
  GOFLAGS: '',
  GOENV: 'off',
  GOTOOLCHAIN: 'local',
  GOPROXY: 'off',
};

/** The first `go` on PATH that lies outside the workspace (its real path). */
export function goOutside(root: string, env: Env): string | undefined {
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (dir === '') continue;
    const found = resolveCandidate(join(dir, 'go'), env);
    if (found === undefined) continue;
    let real: string;
    try {
      real = realpathSync(found);
    } catch {
      continue;
    }
    if (isAbsolute(dir) && !isInside(root, real) && !isInside(root, resolve(dir))) return real;
  }
  return undefined;
}

/**
 * The PATH gopls runs with: the folder of the go found outside the workspace first, then the
 * absolute entries outside it (a relative entry such as `.` names a folder of the workspace, where
 * gopls runs).
 */
export function untrustedPath(root: string, env: Env): string {
  const go = goOutside(root, env);
  const outside = (env['PATH'] ?? '').split(delimiter).filter((dir) => isAbsolute(dir) && !isInside(root, resolve(dir)));
  return [...new Set([...(go !== undefined ? [dirname(go)] : []), ...outside])].join(delimiter);
}

/** The restricted gopls of an untrusted workspace (see the module comment). */
export function untrustedGopls(base: ServerDefinition): ServerDefinition {
  // go.mod, go.work and go.sum must be bounded files inside the workspace, as for every server.
  const definition = confineProjectFiles(base);
  return {
    ...definition,
    env: { ...(definition.env ?? {}), ...UNTRUSTED_GO_ENV },
    prepare: async (root, env) => {
      const restricted = { ...env, ...UNTRUSTED_GO_ENV };
      const prepared = (await definition.prepare?.(root, restricted, { untrusted: true })) ?? {};
      return { ...prepared, env: { ...(prepared.env ?? {}), ...UNTRUSTED_GO_ENV, PATH: untrustedPath(root, env) } };
    },
    preflight: async (root) => {
      if (goOutside(root, process.env) === undefined) {
        return 'gopls was not started: no go command outside this untrusted workspace is on PATH (gopls runs `go`); install golang-go';
      }
      return definition.preflight?.(root);
    },
  };
}

/** What the untrusted note says gopls gives up. */
export const GOPLS_UNTRUSTED_LIMITS = 'gopls runs without cgo (files that import "C" are not loaded)';
