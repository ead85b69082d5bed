/**
 * What changes a background server's answers, resolved — the environment part of its identity.
 * Raw variables are not compared: an MCP client passes a reduced `PATH`, a shell a longer one, and
 * both find the same rust-analyzer; two servers for them would only double the memory. So the
 * identity holds what the variables resolve to, each cheaply (a few `stat`s and `realpath`s, no
 * program run):
 * - every language-server binary candidate (built-in and configured; their override variables
 *   such as `DIALECT_RUST_ANALYZER` included), resolved on `PATH` to its real path;
 * - the Rust toolchain: every cargo and rustc candidate (`CARGO`, `RUSTC`, `PATH`,
 *   `$CARGO_HOME/bin`) by real path, and the variables that pick a toolchain or its sources behind
 *   a rustup proxy (`TOOLCHAIN_ENV_VARS`), paths by real path;
 * - the configuration: the file in effect (`DIALECT_CONFIG`, else the workspace's `dialect.json`)
 *   by real path and content hash.
 * Everything else in the environment (`HOME`, `LANG`, `PATH` order that finds the same files, …)
 * does not count. Trust and the workspace are the identity's other parts (identity.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FILE } from '../../ide-adapter/config.js';
import { readConfined } from '../../ide-adapter/confine.js';
import { resolveCandidate } from '../../ide-adapter/lsp/discovery.js';
import { cargoCandidates, rustcCandidates } from '../../ide-adapter/languages/rust/toolchain.js';
import type { CustomServerConfig } from '../../ide-adapter/lsp/server-config.js';
import { builtinServers } from '../../ide-adapter/languages/index.js';
import { defineServer } from '../../ide-adapter/lsp/servers.js';

/** The variables that pick a Rust toolchain (behind rustup's proxies) or its std sources: they count as given. */
export const TOOLCHAIN_ENV_VARS = ['RUSTUP_TOOLCHAIN', 'RUSTUP_HOME', 'CARGO_HOME', 'RUST_SRC_PATH'] as const;

/** The variable naming a configuration file outside the workspace. */
const CONFIG_ENV = 'DIALECT_CONFIG';

/** A configuration is a few server entries; a larger file only counts by its size (config.ts refuses it). */
const MAX_CONFIG_BYTES = 1024 * 1024;

type Env = Readonly<Record<string, string | undefined>>;

/** A path's real path, else the path as given (a missing file still counts by its name). */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Candidates resolved the way the server will resolve them (PATH, existing executables), by real path; null when not found. */
function resolved(candidates: readonly string[], env: Env): (string | null)[] {
  return candidates.map((candidate) => {
    const path = resolveCandidate(candidate, env);
    return path === undefined ? null : real(path);
  });
}

/** The configuration in effect: its real path, text hash and the custom servers it names (parsed leniently). */
function configInput(workspaceRoot: string, env: Env): { file: string; sha256: string; servers: CustomServerConfig[] } | null {
  const named = env[CONFIG_ENV];
  let file: string;
  let text: string;
  if (named !== undefined) {
    file = real(named);
    try {
      text = readFileSync(file, 'utf8').slice(0, MAX_CONFIG_BYTES);
    } catch {
      return { file, sha256: 'unreadable', servers: [] };
    }
  } else {
    const root = real(workspaceRoot);
    file = join(root, CONFIG_FILE);
    const read = readConfined(root, file, MAX_CONFIG_BYTES);
    if (!read.ok) return read.reason === 'missing' ? null : { file, sha256: read.reason, servers: [] };
    text = read.text;
  }
  return { file, sha256: createHash('sha256').update(text).digest('hex'), servers: customServers(text) };
}

/** The `servers` entries of a configuration that name an id and a command (validation is config.ts's job). */
function customServers(text: string): CustomServerConfig[] {
  try {
    const servers = (JSON.parse(text) as { servers?: unknown }).servers;
    if (!Array.isArray(servers)) return [];
    return servers.filter((s): s is CustomServerConfig => typeof s === 'object' && s !== null && typeof (s as { id?: unknown }).id === 'string' && typeof (s as { command?: unknown }).command === 'string');
  } catch {
    return [];
  }
}

/** What changes a server's answers for `workspaceRoot` under `env`, as a stable string (see the module comment). */
export function answerInputsFingerprint(workspaceRoot: string, env: Env): string {
  const config = configInput(workspaceRoot, env);
  const custom = (config?.servers ?? []).map((s) => defineServer({ ...s, languages: [] }));
  const cargo = cargoCandidates(env);
  return JSON.stringify({
    servers: [...custom, ...builtinServers()].map((d) => [d.id, resolved(d.candidates(env), env)]),
    cargo: resolved(cargo, env),
    rustc: resolved([...new Set(cargo.flatMap((c) => rustcCandidates(env, c)))], env),
    toolchain: TOOLCHAIN_ENV_VARS.map((name) => [name, env[name] === undefined ? null : real(env[name])]),
    config: config === null ? null : [config.file, config.sha256],
  });
}
