/**
 * `dialect mcp --timeout SECONDS`: an agent's user gives its tool calls more (or less) time than
 * the default 50 s, and a call that runs out says how. The built `dialect mcp` over stdio through
 * a real MCP client; the workspace's server is the scripted fake (a real process speaking LSP),
 * which publishes diagnostics far later than the call may wait, so the call ends at its deadline.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, requireFreshBuild, tempDir } from './support/cli.js';
import { packageFile } from '../../ide-adapter/package-files.js';
import { fakeServerScript } from '../../ide-adapter/test/support/servers.js';

const FILE = 'late.fake';
/** The fake publishes this long after the open: far past the deadline the test gives. */
const PUBLISH_DELAY_MS = 120_000;
/** The `--timeout` given, in seconds. */
const TIMEOUT_SECONDS = 3;

describe('dialect mcp --timeout: the deadline of one tool call, and the way to raise it', { timeout: 120_000 }, () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let workspace: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    requireFreshBuild();
    dir = await tempDir('dialect-mcp-timeout-');
    workspace = join(dir.path, 'ws');
    await mkdir(workspace);
    await writeFile(join(workspace, FILE), 'ERROR: reported late\n');
    const config = join(dir.path, 'dialect.json');
    const args = [fakeServerScript, '--publish-diagnostics', `--publish-delay=${PUBLISH_DELAY_MS}`];
    await writeFile(config, JSON.stringify({ servers: [{ id: 'fake', command: process.execPath, args, languages: [{ languageId: 'fake', extensions: ['.fake'] }] }] }));
    env = await childEnv(join(dir.path, 'state'), { DIALECT_CONFIG: config });
  });
  afterAll(async () => {
    await dir?.dispose();
  });

  it('ends a call at the deadline given, with a hint that names --timeout and the client timeout', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [packageFile('bin', 'dialect.js'), 'mcp', '--workspace', workspace, '--trust', '--timeout', String(TIMEOUT_SECONDS)],
      env,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', () => undefined);
    const client = new Client({ name: 'timeout-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const started = Date.now();
      const result = (await client.callTool({ name: 'ide_operation', arguments: { program: `diagnostics("${FILE}", wait: 100)` } })) as CallToolResult;
      const took = Date.now() - started;
      const structured = result.structuredContent as { kind: string; error?: { code: string; hint?: string } };
      expect(result.isError).toBe(true);
      expect(structured.error?.code).toBe('deadline-exceeded');
      expect(structured.error?.hint).toContain('dialect mcp --timeout SECONDS');
      expect(structured.error?.hint).toContain("client's tool timeout");
      // It ended at its deadline (3 s), far before the default 50 s: generous for a loaded machine.
      expect(took).toBeLessThan(30_000);
    } finally {
      await client.close();
    }
  });
});
