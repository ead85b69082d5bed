/**
 * Workspace configuration: `dialect.json` at the workspace root (or the file `DIALECT_CONFIG`
 * names) adds language servers beyond the built-in rust-analyzer and TypeScript:
 *
 * ```json
 * { "servers": [{ "id": "pyright", "command": "pyright-langserver", "args": ["--stdio"],
 *                 "languages": [{ "languageId": "python", "extensions": [".py"] }],
 *                 "rootMarkers": ["pyproject.toml"] }] }
 * ```
 */
import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DialectError } from '../dialect/outcome.js';
import { readConfined, type RefusalReason } from './confine.js';
import { defineServer, type ServerDefinition } from './lsp/servers.js';

/** The workspace's configuration file, at its root. */
export const CONFIG_FILE = 'dialect.json';

/** A configuration is a few server entries; a larger file is refused, not read. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** Why a workspace's `dialect.json` is not read, for the error. */
const REFUSED: Record<Exclude<RefusalReason, 'missing'>, string> = {
  outside: 'is a link that leads outside the workspace',
  'not-a-file': 'is not a regular file (a folder, FIFO or device)',
  'too-large': `is larger than ${MAX_CONFIG_BYTES} bytes`,
};


/** A workspace's configuration: its custom language servers. */
export interface WorkspaceConfig {
  readonly servers: readonly ServerDefinition[];
  /** The file it came from, if any. */
  readonly source?: string;
}

/** Stable codes of configuration errors. */
export const ConfigCode = {
  /** `DIALECT_CONFIG` names a file that cannot be read. */
  NotFound: 'config-not-found',
  /** The configuration file is not JSON, or not a valid configuration. */
  Invalid: 'invalid-config',
} as const;

/** One of {@link ConfigCode}. */
export type ConfigCode = (typeof ConfigCode)[keyof typeof ConfigCode];

/** Reads the workspace's configuration; no file means the built-ins only. Bad files are clear errors. */
export async function loadWorkspaceConfig(root: string, env: Readonly<Record<string, string | undefined>> = process.env): Promise<WorkspaceConfig> {
  const named = env['DIALECT_CONFIG'];
  const file = named ?? join(root, CONFIG_FILE);
  let text: string;
  if (named !== undefined) {
    // The user named this file: it may live anywhere.
    try {
      text = await readFile(file, 'utf8');
    } catch {
      throw new DialectError({ code: ConfigCode.NotFound, message: `DIALECT_CONFIG names ${file}, which cannot be read` });
    }
  } else {
    // The workspace's own file is read like every workspace file (confine.ts).
    const real = realRoot(root);
    const read = readConfined(real, join(real, CONFIG_FILE), MAX_CONFIG_BYTES);
    if (!read.ok) {
      if (read.reason === 'missing') return { servers: [] };
      throw new DialectError({
        code: ConfigCode.Invalid,
        message: `${file} ${REFUSED[read.reason]}, so it is not read`,
        hint: `make ${CONFIG_FILE} a regular file inside the workspace, or name a configuration with DIALECT_CONFIG`,
      });
    }
    text = read.text;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new DialectError({ code: ConfigCode.Invalid, message: `${file} is not valid JSON: ${(error as Error).message}`, hint: 'fix the JSON syntax' });
  }
  // The schema (and zod) load only when there is a file to check: most workspaces have none.
  const { workspaceConfigSchema } = await import('./lsp/server-config.js');
  const parsed = workspaceConfigSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new DialectError({
      code: ConfigCode.Invalid,
      message: `${file} is not a valid Dialect configuration: ${problems.join('; ')}`,
      hint: 'expected {"servers": [{"id", "command", "args", "languages": [{"languageId", "extensions"}], "rootMarkers"}]}',
    });
  }
  return { servers: parsed.data.servers.map((s) => defineServer(s)), source: file };
}

/** The root with its symlinks resolved, as confinement compares real paths. */
function realRoot(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
}
