/**
 * `present_walkthrough` through a real MCP client against real language servers: the page is
 * written, the summary lists ambiguous and unresolved comments with the programs that fix them,
 * the fixed walkthrough resolves, and a `baseUri` of a subfolder gets its own cached session
 * that is shut down with the server.
 */
import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdeSession } from '../../ide-adapter/index.js';
import { copyFixture, isAlive } from '../../ide-adapter/test/support/servers.js';
import { openFixtureSession, serversAvailable, type FixtureSession } from '../../ide-adapter/test/support/session.js';
import { readGuidance } from '../guidance.js';
import type { IdeOperationResult, PresentWalkthroughResult } from '../index.js';
import { asResult, connect, eventually, tempDir, textOf, type Connected } from './support.js';

const available = await serversAvailable('both');

const WALKTHROUGH = `# How tokens are checked

Sessions start in the auth module.

<comment location="findDefinition(\`User\`)" icon="lightbulb">
The user a session belongs to.
</comment>

\`\`\`comment
location: search("src/auth.rs", "fn validate")
icon: warning

Validation happens before the session is built.
\`\`\`

<comment location="findDefinition(\`validate_token\`)">Two functions share this name.</comment>

<comment location="findDefinition(\`NoSuchThing\`)">This one cannot resolve.</comment>

\`\`\`mermaid
flowchart LR
  token --> validate_token --> Session
\`\`\`

<action button="Add tests">Please add tests for expired tokens.</action>
`;

describe.skipIf(!available)('present_walkthrough', { timeout: 120_000 }, () => {
  let f: FixtureSession;
  let c: Connected;
  let out: Awaited<ReturnType<typeof tempDir>>;
  /** A TypeScript project inside the Rust workspace: a subfolder with its own session. */
  let other: { root: string };
  const opened: IdeSession[] = [];

  beforeAll(async () => {
    f = await openFixtureSession('rust-app');
    out = await tempDir('pages');
    const ts = await copyFixture('ts-app');
    other = { root: join(f.root, 'ts-app') };
    await cp(ts.root, other.root, { recursive: true });
    await ts.dispose();
    c = await connect(f.session, {
      outputDir: out.path,
      deadlineMs: 90_000,
      openSession: async (root) => {
        const session = await IdeSession.open({ workspaceRoot: root, readyTimeoutMs: 60_000 });
        opened.push(session);
        return session;
      },
    });
    await c.client.listTools();
  });
  afterAll(async () => {
    await c?.close();
    await f?.dispose();
    await out?.dispose();
  });

  const present = async (content: string, baseUri: string) => {
    const result = asResult(await c.client.callTool({ name: 'present_walkthrough', arguments: { content, baseUri } }, undefined, { timeout: 120_000 }));
    return { result, text: textOf(result), data: result.structuredContent as PresentWalkthroughResult };
  };

  it('writes the page and lists what did not resolve, with the programs that fix it', async () => {
    const { result, text, data } = await present(WALKTHROUGH, f.root);
    expect(result.isError).toBeUndefined();
    expect(data.shownIn).toBeNull();
    if (data.path === null) throw new Error('no page was written');
    expect(data.path.startsWith(out.path)).toBe(true);
    expect(data.uri).toBe(pathToFileURL(data.path).href);
    expect(data.title).toBe('How tokens are checked');
    const html = await readFile(data.path, 'utf8');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('How tokens are checked');
    expect(data.counts).toMatchObject({ comments: 4, resolved: 2, ambiguous: 1, unresolved: 1, actions: 1, diagrams: 1 });
    expect(text).toContain(`The walkthrough page is written to ${data.path}`);
    expect(text).toContain('Ambiguous comments');
    expect(text).toContain('findDefinition("validate_token", file: "src/auth.rs")');

    const ambiguous = data.problems.find((p) => p.status === 'ambiguous');
    expect(ambiguous).toMatchObject({ id: 'comment-3', location: 'findDefinition(`validate_token`)' });
    const programs = (ambiguous?.choices ?? []).map((ch) => ch.program ?? '');
    expect(programs.sort()).toEqual(['findDefinition("validate_token", file: "src/auth.rs")', 'findDefinition("validate_token", file: "src/util.rs")']);
    // Each choice runs on its own.
    for (const program of programs) {
      const r = asResult(await c.client.callTool({ name: 'ide_operation', arguments: { program } }));
      expect((r.structuredContent as IdeOperationResult).kind).toBe('value');
    }
    const unresolved = data.problems.find((p) => p.status === 'unresolved');
    expect(unresolved).toMatchObject({ id: 'comment-4', location: 'findDefinition(`NoSuchThing`)' });
    expect(unresolved?.error).toContain('NoSuchThing');
    expect(data.indexing.complete).toBe(true);
  });

  it('the corrected walkthrough resolves completely (baseUri as a file:// URI)', async () => {
    const fixed = WALKTHROUGH.replace('findDefinition(`validate_token`)', 'findDefinition(`validate_token`, file: `src/util.rs`)').replace(
      /<comment location="findDefinition\(`NoSuchThing`\)">[^<]*<\/comment>/,
      '<comment location="lines(`src/auth.rs`, 1, 2)">Module docs.</comment>',
    );
    const { data, text } = await present(fixed, pathToFileURL(f.root).href);
    expect(data.counts).toMatchObject({ comments: 4, resolved: 4, ambiguous: 0, unresolved: 0 });
    expect(data.problems).toEqual([]);
    expect(text).toContain('Everything resolved.');
    // On complete servers the text has no status line to repeat in every result: `indexing` carries it.
    expect(data.indexing.complete).toBe(true);
    expect(text).not.toMatch(/^\[.*language servers/m);
    expect(c.server.extraSessionFolders).toEqual([]);
  });

  it('bad baseUri values are tool errors that say what to pass', async () => {
    const relative = await present('# x', 'fixtures/rust-app');
    expect(relative.result.isError).toBe(true);
    expect(textOf(relative.result)).toContain('is relative');
    const missing = await present('# x', join(f.root, 'nope'));
    expect(textOf(missing.result)).toContain('does not exist');
    const file = await present('# x', join(f.root, 'Cargo.toml'));
    expect(textOf(file.result)).toContain('is a file, not a folder');
    const remote = await present('# x', 'https://example.com/repo');
    expect(textOf(remote.result)).toContain('not a local folder');
  });

  it('a subfolder gets its own session, reused across calls and shut down with the server', async () => {
    const md = '# TS\n\n<comment location="findDefinition(`maxBy`)">Generic.</comment>\n';
    const first = await present(md, other.root);
    expect(first.data.counts).toMatchObject({ comments: 1, resolved: 1 });
    expect(first.data.workspace).toBe(other.root);
    const second = await present(md.replace('maxBy', 'greeting'), other.root);
    expect(second.data.counts.resolved).toBe(1);
    expect(opened).toHaveLength(1);
    expect(c.server.extraSessionFolders).toEqual([other.root]);

    const pids = (opened[0]?.backend.servers() ?? []).map((s) => s.pid).filter((p): p is number => p !== undefined);
    expect(pids.length).toBeGreaterThan(0);
    // Closing the server shuts down the sessions it opened (not the caller's own session).
    const again = await connect(f.session, { outputDir: out.path, openSession: async (root) => (opened.push(await IdeSession.open({ workspaceRoot: root })), opened.at(-1) as IdeSession) });
    await again.client.callTool({ name: 'present_walkthrough', arguments: { content: md, baseUri: other.root } }, undefined, { timeout: 120_000 });
    const secondPids = (opened[1]?.backend.servers() ?? []).map((s) => s.pid).filter((p): p is number => p !== undefined);
    expect(secondPids.length).toBeGreaterThan(0);
    await again.close();
    await eventually(() => secondPids.every((pid) => !isAlive(pid)), 10_000, 'the extra session to shut down');
    expect(f.session.backend.servers().every((s) => s.state === 'ready')).toBe(true);
  });

  it('writes pages under a readable name', async () => {
    const md = '# Ünïcode & <Title>!\n\nText.\n';
    const { data } = await present(md, f.root);
    expect(data.path).toMatch(/walkthrough-unicode-title-[a-z0-9]+-\d+\.html$/);
    expect(fileURLToPath(data.uri ?? '')).toBe(data.path);
  });

  it('the examples of walkthrough-format.md resolve (on fixtures/rust-app)', async () => {
    const guide = readGuidance('walkthrough-format.md');
    const table = guide.slice(guide.indexOf('| expression |'), guide.indexOf('\n\n', guide.indexOf('| expression |')));
    const expressions = [...table.matchAll(/^\| (`+)(.+?)\1 \|/gm)].map((m) => (m[2] ?? '').trim()).filter((e) => !e.startsWith('lines("src/a.rs"'));
    expect(expressions.length).toBeGreaterThanOrEqual(5);
    const asComments = expressions.map((e) => `\`\`\`comment\nlocation: ${e}\n\nText.\n\`\`\``).join('\n\n');
    const checked = await present(`# Table\n\n${asComments}\n`, f.root);
    expect(checked.data.problems, checked.text).toEqual([]);
    expect(checked.data.counts.resolved).toBe(expressions.length);

    const start = guide.indexOf('````markdown\n', guide.indexOf('## A complete example'));
    const example = guide.slice(start + '````markdown\n'.length, guide.indexOf('\n````', start + 1));
    const full = await present(example, f.root);
    expect(full.data.problems, full.text).toEqual([]);
    expect(full.data.counts).toMatchObject({ comments: 2, resolved: 2, actions: 1, diagrams: 1, diffs: 1, warnings: 0 });
  });
});
