/**
 * A walkthrough file link's regex (`[x](<file?regex>)`) is a user pattern: it is matched in the
 * file worker under the search budget, so a backtracking one cannot freeze the process (it froze
 * the MCP server: no ping answered, cancellation ignored).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Workspace } from '../../ide-adapter/workspace.js';
import type { Outcome } from '../../dialect/index.js';
import { environmentFor } from '../environment.js';
import { parseWalkthrough } from '../parse.js';
import { resolveWalkthrough } from '../resolve.js';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'dialect-link-budget-'));
  await writeFile(join(root, 'big.txt'), `${'a'.repeat(40)}!\n`);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

it('a link with a backtracking regex leaves the main thread free and stops when cancelled', async () => {
  const document = parseWalkthrough('# Links\n\nSee [the line](<big.txt?(a+)+$>).\n');
  const env = environmentFor({ workspace: new Workspace(root), evaluate: async (): Promise<Outcome> => { throw new Error('no comments here'); } });
  const controller = new AbortController();
  const resolving = resolveWalkthrough(document, env, { signal: controller.signal });
  // If the regex ran on this thread, this callback could not run until it finished (never).
  await new Promise<void>((resolve) => setImmediate(resolve));
  controller.abort();
  await expect(resolving).rejects.toMatchObject({ code: 'cancelled' });
});

it('a link regex still finds its line', async () => {
  await writeFile(join(root, 'code.rs'), 'fn a() {}\nfn target() {}\n');
  const env = environmentFor({ workspace: new Workspace(root), evaluate: async (): Promise<Outcome> => { throw new Error('no comments here'); } });
  const resolved = await resolveWalkthrough(parseWalkthrough('# L\n\n[t](<code.rs?fn\\s+target>)\n'), env);
  expect(resolved.links[0]).toMatchObject({ line: 2, text: 'fn target() {}' });
});
