/**
 * The built stdio server through the SDK's `StdioClientTransport`, spawned with the command line
 * the README documents: `node bin/dialect.js mcp --workspace DIR`. Needs `npm run build` first:
 * `npm test` builds before it runs the suite, and a missing build fails here rather than skipping.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdeRegistry } from '../../ide-adapter/index.js';
import { rustOfflineEnv } from '../../ide-adapter/test/support/rust-offline.js';
import { copyFixture, isAlive, positionOf } from '../../ide-adapter/test/support/servers.js';
import { serversAvailable } from '../../ide-adapter/test/support/session.js';
import type { IdeOperationResult } from '../index.js';
import { asResult, eventually, repoRoot, textOf } from './support.js';

const cliEntry = join(repoRoot, 'bin', 'dialect.js');
const cliMain = join(repoRoot, 'dist', 'cli', 'main.js');

/** The command line the README documents: `node bin/dialect.js mcp --workspace DIR`. */
function commandLine(workspace: string): { command: string; args: string[] } {
  return { command: process.execPath, args: [cliEntry, 'mcp', '--workspace', workspace] };
}

const rustAvailable = await serversAvailable('rust');
const tsAvailable = await serversAvailable('typescript');

/** Direct children of a process (Linux /proc). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === pid) out.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

interface Spawned {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  readonly stderr: () => string;
  readonly errors: Error[];
  readonly pid: number;
}

async function spawnServer(workspace: string, env: Record<string, string>): Promise<Spawned> {
  const { command, args } = commandLine(workspace);
  // In-process (no background server): these tests watch the language servers as the MCP server's children.
  const transport = new StdioClientTransport({ command, args, env: { ...env, DIALECT_NO_SERVER: '1' }, stderr: 'pipe', cwd: repoRoot });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const errors: Error[] = [];
  const client = new Client({ name: 'dialect-stdio-test', version: '1.0.0' });
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return { client, transport, stderr: () => stderr, errors, pid: transport.pid ?? -1 };
}

describe('the stdio server (built)', () => {
  it('is built (run `npm run build` first; `npm test` does)', () => {
    expect(existsSync(cliMain), `missing ${cliMain}: run npm run build`).toBe(true);
  });
});

describe.skipIf(!rustAvailable)('the stdio server on fixtures/rust-app', { timeout: 120_000 }, () => {
  let copy: Awaited<ReturnType<typeof copyFixture>>;
  let s: Spawned;
  let env: Record<string, string>;

  beforeAll(async () => {
    copy = await copyFixture('rust-app');
    env = await rustOfflineEnv();
    s = await spawnServer(copy.root, env);
  });
  afterAll(async () => {
    await s?.client.close();
    await copy?.dispose();
  });

  it('lists the tools (every registry function in the description) and the resources', async () => {
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['expand_reference', 'get_selection', 'ide_operation', 'present_walkthrough']);
    const description = tools.find((t) => t.name === 'ide_operation')?.description ?? '';
    const registry = createIdeRegistry();
    for (const fn of registry.functions) expect(description).toContain(`- ${registry.signature(fn)}`);
    const { resources } = await s.client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(['dialect://guidance/dialect-reference.md', 'dialect://guidance/walkthrough-format.md', 'dialect://status']);
    // The guidance files are found from the build output too.
    const guide = await s.client.readResource({ uri: 'dialect://guidance/walkthrough-format.md' });
    expect((guide.contents[0] as { text: string }).text).toContain('# Writing walkthroughs');
  });

  it('answers a program with locations from rust-analyzer', { timeout: 120_000 }, async () => {
    const result = asResult(await s.client.callTool({ name: 'ide_operation', arguments: { program: 'findDefinitions("User")' } }, undefined, { timeout: 120_000 }));
    const text = readFileSync(join(copy.root, 'src/model.rs'), 'utf8');
    const at = positionOf(text, 'User {');
    expect(textOf(result)).toContain(`struct User  src/model.rs:${at.line}:${at.column}  pub struct User {`);
    expect((result.structuredContent as IdeOperationResult).indexing.complete).toBe(true);
  });

  it('errors, an empty and a 5 MB program get clear answers and the server keeps serving', async () => {
    const error = asResult(await s.client.callTool({ name: 'ide_operation', arguments: { program: 'findDefinitions("User", kinds: "struct")' } }));
    expect(error.isError).toBe(true);
    expect(textOf(error)).toContain('did you mean `kind`?');
    const empty = asResult(await s.client.callTool({ name: 'ide_operation', arguments: { program: '' } }));
    expect(textOf(empty)).toContain('the program is empty');
    const huge = asResult(await s.client.callTool({ name: 'ide_operation', arguments: { program: `"${'y'.repeat(5 * 1024 * 1024)}"` } }));
    expect(huge.isError).toBe(true);
    expect(textOf(huge)).toContain('longer than 1000000 characters');
    // Larger than the SDK's default 10 MB message limit, which would close the connection.
    const larger = asResult(await s.client.callTool({ name: 'present_walkthrough', arguments: { content: 'z'.repeat(12 * 1024 * 1024), baseUri: copy.root } }));
    expect(larger.isError).toBe(true);
    expect(textOf(larger)).toContain('the walkthrough is longer than 1000000 characters');
    const missing = asResult(await s.client.callTool({ name: 'ide_operation', arguments: { code: 'help()' } }));
    expect(textOf(missing)).toContain('missing the argument "program"');
    const after = asResult(await s.client.callTool({ name: 'ide_operation', arguments: { program: 'findDefinitions("Task")' } }));
    expect((after.structuredContent as IdeOperationResult).kind).toBe('value');
  });

  it('keeps stdout for the protocol: logs go to stderr', () => {
    expect(s.errors).toEqual([]);
    expect(s.stderr()).toContain('dialect mcp: serving');
  });

  it('refuses a workspace folder that does not exist, on stderr, with a non-zero exit', async () => {
    const { command, args } = commandLine(join(copy.root, 'no-such-folder'));
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(command, args, { timeout: 30_000 }, (error, out, err) => resolve({ code: error === null ? 0 : (child.exitCode ?? -1), stdout: out, stderr: err }));
      child.stdin?.end();
    });
    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/no-such-folder does not exist/);
  });
});

describe.skipIf(!tsAvailable)('the stdio server stops cleanly (fixtures/ts-app)', { timeout: 120_000 }, () => {
  let ts: Awaited<ReturnType<typeof copyFixture>>;
  beforeAll(async () => {
    ts = await copyFixture('ts-app');
  });
  afterAll(async () => {
    await ts?.dispose();
  });

  it('stops when the client closes stdin, shutting the language servers down', async () => {
    const own = await spawnServer(ts.root, {});
    await own.client.callTool({ name: 'ide_operation', arguments: { program: 'findDefinitions("User")' } }, undefined, { timeout: 120_000 });
    const children = childrenOf(own.pid);
    expect(children.length).toBeGreaterThan(0);
    const started = Date.now();
    await own.client.close(); // ends stdin; SIGTERM only if the server has not exited within 2 s
    await eventually(() => !isAlive(own.pid), 10_000, 'the server to exit');
    expect(own.stderr()).toContain('stopping (stdin-closed)');
    expect(own.stderr()).toContain('dialect mcp: stopped');
    expect(Date.now() - started).toBeLessThan(2000);
    await eventually(() => children.every((pid) => !isAlive(pid)), 10_000, 'the language servers to exit');
  }, 120_000);

  it('stops on SIGTERM, shutting the language servers down', async () => {
    const own = await spawnServer(ts.root, {});
    await own.client.callTool({ name: 'ide_operation', arguments: { program: 'findDefinitions("Task")' } }, undefined, { timeout: 120_000 });
    const children = childrenOf(own.pid);
    expect(children.length).toBeGreaterThan(0);
    process.kill(own.pid, 'SIGTERM');
    await eventually(() => !isAlive(own.pid), 10_000, 'the server to exit');
    expect(own.stderr()).toContain('stopping (SIGTERM)');
    await eventually(() => children.every((pid) => !isAlive(pid)), 10_000, 'the language servers to exit');
    await own.client.close();
  }, 120_000);
});
