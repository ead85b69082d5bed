/** Workspace configuration: dialect.json adds language servers, bad files are clear errors. */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadWorkspaceConfig } from '../config.js';
import { IdeSession } from '../session.js';
import { bundledTypeScriptServer } from '../languages/typescript/index.js';

const dirs: string[] = [];
async function workspaceWith(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dialect-config-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('dialect.json', () => {
  it('is optional', async () => {
    expect((await loadWorkspaceConfig(await workspaceWith({}))).servers).toEqual([]);
  });

  it('rejects invalid files with the path of each problem', async () => {
    const bad = await workspaceWith({ 'dialect.json': JSON.stringify({ servers: [{ id: 'x y', command: '', languages: [] }], extra: 1 }) });
    await expect(loadWorkspaceConfig(bad)).rejects.toMatchObject({ code: 'invalid-config', message: expect.stringMatching(/servers\.0\.id.*servers\.0\.command.*servers\.0\.languages|extra/s) as unknown });
    const broken = await workspaceWith({ 'dialect.json': '{"servers": [' });
    await expect(loadWorkspaceConfig(broken)).rejects.toMatchObject({ code: 'invalid-config', message: expect.stringContaining('not valid JSON') as unknown });
  });

  it('is read only inside the workspace: a link leading out and a FIFO are refused, never read or waited on', async () => {
    const outside = await workspaceWith({ 'dialect.json': JSON.stringify({ servers: [{ id: 'outside', command: 'x', languages: [{ languageId: 'x', extensions: ['.x'] }] }] }) });
    const linked = await workspaceWith({});
    await symlink(join(outside, 'dialect.json'), join(linked, 'dialect.json'));
    await expect(loadWorkspaceConfig(linked)).rejects.toMatchObject({ code: 'invalid-config', message: expect.stringContaining('leads outside the workspace') as unknown });
    const fifo = await workspaceWith({});
    execFileSync('mkfifo', [join(fifo, 'dialect.json')]);
    await expect(loadWorkspaceConfig(fifo)).rejects.toMatchObject({ code: 'invalid-config', message: expect.stringContaining('not a regular file') as unknown });
    // A link to a file inside the workspace is an ordinary configuration.
    const inside = await workspaceWith({ 'servers.json': JSON.stringify({ servers: [] }) });
    await symlink(join(inside, 'servers.json'), join(inside, 'dialect.json'));
    expect(await loadWorkspaceConfig(inside)).toMatchObject({ servers: [] });
  });

  it('a workspace no server covers says so once, instead of a bare empty answer', async () => {
    const session = await IdeSession.openConfigured({ workspaceRoot: await workspaceWith({ 'notes.txt': 'hello\n' }) });
    try {
      const first = await session.evaluate('findDefinitions("hello")');
      expect(first.kind === 'value' && first.value).toEqual([]);
      expect(first.notes.join('\n')).toContain('no language server covers this workspace');
      const second = await session.evaluate('findDefinitions("hello")');
      expect(second.notes.join('\n')).not.toContain('no language server covers this workspace');
    } finally {
      await session.shutdown();
    }
  });

  it('adds a custom server that the session detects, starts and queries', async () => {
    const command = bundledTypeScriptServer()[0];
    const root = await workspaceWith({
      'dialect.json': JSON.stringify({
        servers: [{ id: 'custom-ts', displayName: 'custom TypeScript', command, args: ['--lsp', '--stdio'], languages: [{ languageId: 'typescript', extensions: ['.ts'] }], rootMarkers: ['main.ts'] }],
      }),
      'main.ts': 'export function configured(): number {\n  return 1;\n}\n',
    });
    // Configured servers run only in a trusted workspace (see trust.test.ts for the untrusted case).
    const session = await IdeSession.openConfigured({ workspaceRoot: root, trusted: true });
    try {
      const o = await session.evaluate('findDefinitions("configured")', { deadlineMs: 60_000 });
      expect(o.kind === 'value' && (o.value as { definedAt: { path: string } }[]).map((d) => d.definedAt.path)).toEqual(['main.ts']);
      expect(session.backend.servers().map((s) => s.id)).toContain('custom-ts');
    } finally {
      await session.shutdown();
    }
  });
});
