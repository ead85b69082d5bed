/**
 * The hand-written guidance for agents, kept as markdown files in `mcp/guidance/` of the package
 * (found from the package root, `ide-adapter/package-files.ts`) and read at runtime. A missing
 * file fails loudly at start-up, never as a half-empty tool description later.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageFile } from '../ide-adapter/index.js';

/** The guidance files in `mcp/guidance/`. */
export type GuidanceFile = 'ide-operation.md' | 'dialect-language.md' | 'walkthrough-format.md' | 'present-walkthrough.md' | 'server-instructions.md';

/** The folder that holds the guidance files. */
export function guidanceDir(): string {
  const dir = packageFile('mcp', 'guidance');
  if (existsSync(join(dir, 'walkthrough-format.md'))) return dir;
  throw new Error(`the MCP guidance files are missing: looked in ${dir} (they ship in mcp/guidance/ of the Dialect package)`);
}

const cache = new Map<GuidanceFile, string>();

/** The text of a guidance file (read once). */
export function readGuidance(name: GuidanceFile): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(join(guidanceDir(), name), 'utf8').replace(/\r\n/g, '\n');
    cache.set(name, text);
  }
  return text;
}
