/**
 * The hand-written guidance for agents, kept as markdown files in `mcp/guidance/` and read at
 * runtime. The build (tsc) copies no assets, so the files are found relative to this module both
 * when it runs from source (`mcp/guidance.ts` → `mcp/guidance/`) and from the build output
 * (`dist/mcp/guidance.js` → `../../mcp/guidance/`). A missing file fails loudly at start-up, never
 * as a half-empty tool description later.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The guidance files in `mcp/guidance/`. */
export type GuidanceFile = 'ide-operation.md' | 'dialect-language.md' | 'walkthrough-format.md' | 'present-walkthrough.md' | 'server-instructions.md';

/** Where the guidance folder may be, relative to this module (source first, then `dist/`). */
const CANDIDATES = [new URL('./guidance/', import.meta.url), new URL('../../mcp/guidance/', import.meta.url)];

/** The folder that holds the guidance files. */
export function guidanceDir(): string {
  for (const candidate of CANDIDATES) {
    const dir = fileURLToPath(candidate);
    if (existsSync(`${dir}walkthrough-format.md`)) return dir;
  }
  throw new Error(`the MCP guidance files are missing: looked in ${CANDIDATES.map((c) => fileURLToPath(c)).join(' and ')} (they ship in mcp/guidance/ of the Dialect package)`);
}

const cache = new Map<GuidanceFile, string>();

/** The text of a guidance file (read once). */
export function readGuidance(name: GuidanceFile): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(`${guidanceDir()}${name}`, 'utf8').replace(/\r\n/g, '\n');
    cache.set(name, text);
  }
  return text;
}

/** The Dialect package's version (from its package.json, found like the guidance folder). */
export function packageVersion(): string {
  for (const candidate of [new URL('../package.json', import.meta.url), new URL('../../package.json', import.meta.url)]) {
    try {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'dialect' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // not here; try the next place
    }
  }
  return '0.0.0';
}
