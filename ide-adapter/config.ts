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
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DialectError } from '../dialect/index.js';
import { defineServer, type ServerDefinition } from './lsp/servers.js';

/** The workspace's configuration file, at its root. */
export const CONFIG_FILE = 'dialect.json';


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
  const file = env['DIALECT_CONFIG'] ?? join(root, CONFIG_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    if (env['DIALECT_CONFIG'] !== undefined) throw new DialectError({ code: ConfigCode.NotFound, message: `DIALECT_CONFIG names ${file}, which cannot be read` });
    return { servers: [] };
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
