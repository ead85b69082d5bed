/**
 * A language server the workspace needs but cannot start, as an agent meets it: the built
 * `dialect mcp` over stdio through a real MCP client, on a Go module whose `go` command is not on
 * PATH (untrusted, gopls refuses to start without a `go` outside the workspace), in process and
 * through a background server. A name lookup is an error at the name saying why and how to fix
 * it (never an empty "not found"); text search still answers; the structured `indexing` never says
 * complete, nor "ask again shortly" (asking again does not help), nor `starting`;
 * `dialect://status` says how to fix it.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageFile } from '../../ide-adapter/package-files.js';

const run = promisify(execFile);
const GO_FILE = 'package widgets\n\n// Widget is what the agent asks about.\ntype Widget struct{ Name string }\n';

interface Indexing {
  complete: boolean;
  stillIndexing: boolean;
  pending: string[];
}

describe('a Go workspace whose go command is missing (untrusted): gopls unavailable', { timeout: 180_000 }, () => {
  let base: string;
  let root: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'dialect-missing-server-')));
    root = join(base, 'widgets');
    await mkdir(root);
    await writeFile(join(root, 'go.mod'), 'module example.com/widgets\n\ngo 1.19\n');
    await writeFile(join(root, 'widgets.go'), GO_FILE);
    // An empty PATH folder: no go (nor anything else); node is started by its absolute path.
    const bin = join(base, 'bin');
    await mkdir(bin);
    const runtime = join(base, 'run');
    await mkdir(runtime, { mode: 0o700 });
    env = { PATH: bin, HOME: join(base, 'home'), XDG_CONFIG_HOME: join(base, 'config'), XDG_CACHE_HOME: join(base, 'cache'), XDG_STATE_HOME: join(base, 'state'), XDG_RUNTIME_DIR: runtime };
  });

  afterAll(async () => {
    await run(process.execPath, [packageFile('bin', 'dialect.js'), 'server', 'stop', '--all'], { env }).catch(() => undefined);
    await rm(base, { recursive: true, force: true });
  });

  for (const [mode, noServer] of [
    ['in process', '1'],
    ['through a background server', '0'],
  ] as const) {
    it(`is an error with the fix for a name lookup, and never reads as complete or still starting (${mode})`, async () => {
      const transport = new StdioClientTransport({ command: process.execPath, args: [packageFile('bin', 'dialect.js'), 'mcp', '--workspace', root], env: { ...env, DIALECT_NO_SERVER: noServer }, stderr: 'pipe', cwd: base });
      transport.stderr?.on('data', () => undefined);
      const client = new Client({ name: 'dialect-missing-server-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const ask = async (program: string): Promise<{ text: string; isError: boolean; indexing: Indexing }> => {
          const result = (await client.callTool({ name: 'ide_operation', arguments: { program } }, undefined, { timeout: 120_000 })) as CallToolResult;
          const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
          return { text, isError: result.isError === true, indexing: (result.structuredContent as { indexing: Indexing }).indexing };
        };
        // A name lookup cannot answer: an error saying why and how to fix it, at the name, never "(none)".
        const first = await ask('findDefinitions("Widget")');
        expect(first.isError, first.text).toBe(true);
        expect(first.text).toContain('error[workspace-not-loaded]: "Widget" cannot be looked up: gopls was not started: no go command');
        expect(first.text).toContain('install golang-go');
        expect(first.text).toMatch(/^1 \| findDefinitions\("Widget"\)\n\s+\|\s+\^+/m);
        expect(first.text).toContain('search(".", "…") finds text');
        expect(first.text.match(/no go command/g), 'the reason once').toHaveLength(1);
        const references = await ask('findReferences("Widget")');
        expect(references.isError, references.text).toBe(true);
        for (const answer of [first, references]) {
          expect(answer.indexing.complete, JSON.stringify(answer.indexing)).toBe(false);
          expect(answer.indexing.stillIndexing).toBe(false);
          expect(answer.indexing.pending).toEqual([expect.stringMatching(/^gopls: unavailable \(/)]);
        }
        // Text search still answers.
        const found = await ask('search(".", "type Widget")');
        expect(found.isError, found.text).toBe(false);
        expect(found.text).toContain('widgets.go:4:1  type Widget struct{ Name string }');
        const { contents } = await client.readResource({ uri: 'dialect://status' });
        const status = contents.map((c) => ('text' in c ? c.text : '')).join('\n');
        expect(status).toContain('gopls: unavailable');
        expect(status).toContain('install golang-go');
        // The reason once (it was in the server's line, its "why" and a note), and the trust as it is.
        expect(status.match(/no go command/g), status).toHaveLength(1);
        expect(status).toContain('state: unavailable: its files get text search only');
        expect(status).toContain(`trust: untrusted (none of its programs run; nothing in use now is restricted by that). To trust it: dialect trust ${root}`);
      } finally {
        await client.close();
      }
    });
  }
});
