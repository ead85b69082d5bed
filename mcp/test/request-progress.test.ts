/**
 * A request's own progress is not indexing: pyright reports "Finding references" on a progress of
 * its own making while it answers references, and answers made on a ready pyright said they were
 * incomplete ("still indexing — ask again shortly") in their structured `indexing`. The built
 * `dialect mcp` over stdio through a real MCP client, real pyright on a copy of fixtures/py-app.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pythonServer } from '../../ide-adapter/languages/python/index.js';
import { copyFixture, requireServer } from '../../ide-adapter/test/support/servers.js';
import { connectAgent, type AgentConnection } from './agent-session.js';

const available = (await requireServer(pythonServer)) !== undefined;

describe.runIf(available)('answers on a ready pyright (fixtures/py-app)', { timeout: 180_000 }, () => {
  let copy: Awaited<ReturnType<typeof copyFixture>>;
  let agent: AgentConnection;
  beforeAll(async () => {
    copy = await copyFixture('py-app');
    agent = await connectAgent(copy.root, process.env as Record<string, string>);
  }, 180_000);
  afterAll(async () => {
    await agent?.close();
    await copy?.dispose();
  });

  it('are complete when the server is ready, whatever progress the requests themselves reported', async () => {
    // The first answer waits until pyright is ready (it has read the workspace).
    const first = await agent.call('findDefinitions("Shape")');
    expect(first.structured?.['indexing']).toMatchObject({ complete: true });
    for (const program of ['findReferences(findDefinition("Shape"))', 'implementations("Shape")', 'callers(findDefinition("Shape.area"))', 'findReferences(findDefinition("Circle"))']) {
      const answer = await agent.call(program);
      expect(answer.isError, answer.text).toBe(false);
      expect(answer.structured?.['indexing'], `${program}\n${answer.text}`).toMatchObject({ complete: true, pending: [], stillIndexing: false });
      expect(answer.text).not.toContain('[incomplete');
    }
  });
});
