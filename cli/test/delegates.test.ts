/**
 * The commands the CLI hands to other layers: `dialect mcp` (mcp/) and `dialect walkthrough render`
 * (walkthrough/). Their own tests cover them in depth; these check the wiring: arguments, streams,
 * exit codes and that nothing keeps running.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, childEnv, copyFixture, processesIn, repoRoot, requireFreshBuild, runDialect, rustAnalyzerAvailable, tempDir } from './support/cli.js';

const rust = await rustAnalyzerAvailable();

describe('dialect mcp', () => {
  let state: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    requireFreshBuild();
    state = await tempDir('dialect-mcp-');
  });
  afterAll(() => state?.dispose());

  it('serves MCP on stdio (only protocol on stdout) and exits 0 when the client closes stdin', async () => {
    const env = await childEnv(join(state.path, 'state'));
    const child = spawn(process.execPath, [bin, 'mcp', '--workspace', state.path], { cwd: repoRoot, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    try {
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      const send = (message: object): void => {
        child.stdin.write(`${JSON.stringify(message)}\n`);
      };
      /** The reply with `id`: looked for in what came so far, then at each chunk of output. */
      const reply = (id: number): Promise<{ id: number; result?: Record<string, unknown> }> =>
        new Promise((resolve, reject) => {
          const look = (): boolean => {
            for (const line of stdout.split('\n').slice(0, -1)) { // complete lines only
              if (line.trim() === '') continue;
              const message = JSON.parse(line) as { id?: number; result?: Record<string, unknown> };
              if (message.id !== id) continue;
              child.stdout.off('data', onData);
              child.off('close', onClose);
              resolve(message as { id: number; result?: Record<string, unknown> });
              return true;
            }
            return false;
          };
          const onData = (): void => void look();
          const onClose = (): void => reject(new Error(`no reply ${id}; stdout: ${stdout}; stderr: ${stderr}`));
          if (look()) return;
          child.stdout.on('data', onData);
          child.on('close', onClose);
        });
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cli-test', version: '0' } } });
      expect((await reply(1)).result).toMatchObject({ serverInfo: expect.any(Object) as unknown });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      const tools = (await reply(2)).result?.['tools'] as { name: string }[];
      expect(tools.map((t) => t.name)).toContain('ide_operation');
      for (const line of stdout.split('\n')) if (line.trim() !== '') expect(() => JSON.parse(line) as unknown).not.toThrow();
      child.stdin.end();
      expect(await exited).toBe(0);
      expect(stderr).toContain('dialect mcp:');
    } finally {
      clearTimeout(killer);
      child.kill('SIGKILL');
    }
  }, 60_000);
});

describe.runIf(rust)('dialect walkthrough render', () => {
  let fixture: Awaited<ReturnType<typeof copyFixture>>;
  let state: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    requireFreshBuild();
    fixture = await copyFixture('rust-app');
    state = await tempDir('dialect-walkthrough-');
    await writeFile(
      join(fixture.root, 'tour.md'),
      [
        '# Tokens',
        '',
        "<comment location='findDefinition(\"User\")'>Who we serve.</comment>",
        '',
        "<comment location='findDefinition(\"validate_token\")'>Which one?</comment>",
        '',
      ].join('\n'),
    );
  });
  afterAll(async () => {
    await fixture?.dispose();
    await state?.dispose();
  });

  it(
    'writes the page, summarises the ambiguous comment on stderr and exits 0 (a page with a choice is a success); --json prints the model',
    async () => {
      const env = await childEnv(join(state.path, 'state'));
      const out = join(state.path, 'tour.html');
      const r = await runDialect(['walkthrough', 'render', join(fixture.root, 'tour.md'), '--workspace', fixture.root, '-o', out], { env });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('2 comments (1 resolved, 1 ambiguous, 0 unresolved)');
      expect(r.stderr).toContain('findDefinition("validate_token", file: "src/auth.rs")');
      expect(r.stderr).toContain(`wrote ${out} — 1 comment asks the reader to choose a location`);
      const html = await readFile(out, 'utf8');
      expect(html).toMatch(/^<!DOCTYPE html>/i);
      expect(html).toContain('Who we serve.');

      const json = await runDialect(['walkthrough', 'render', join(fixture.root, 'tour.md'), '--workspace', fixture.root, '--json'], { env });
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toMatchObject({ comments: expect.any(Array) as unknown });
      expect(existsSync(join(fixture.root, 'tour.html'))).toBe(false); // --json alone writes no page
      expect(processesIn(fixture.root)).toEqual([]);
    },
    150_000,
  );

  it('a missing walkthrough file or an unknown action is a usage error', async () => {
    const env = await childEnv(join(state.path, 'state'));
    const missing = await runDialect(['walkthrough', 'render', join(state.path, 'nope.md'), '--workspace', fixture.root], { env });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('does not exist');
    const action = await runDialect(['walkthrough', 'show', 'x.md'], { env });
    expect(action.code).toBe(3);
    expect(action.stderr).toContain('unknown walkthrough action "show"');
  });
});
