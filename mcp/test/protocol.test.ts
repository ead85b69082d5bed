/**
 * The MCP surface through a real MCP client over the in-memory transport, on a workspace without
 * language servers: tool and resource listings (generated from the registry), results of pure
 * programs, errors that teach, ambiguities whose refinements run, malformed requests, references,
 * guidance and progress.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CallToolResultSchema, McpError, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdeSession } from '../../ide-adapter/index.js';
import { createIdeRegistry } from '../../ide-adapter/index.js';
import type { IdeOperationResult } from '../index.js';
import { asResult, connect, nullSession, repoRoot, tempDir, textOf, type Connected } from './support.js';

const registry = createIdeRegistry();

describe('MCP protocol surface (no language servers)', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let session: IdeSession;
  let c: Connected;

  beforeAll(async () => {
    dir = await tempDir('protocol');
    session = await nullSession(dir.path);
    c = await connect(session);
    await c.client.listTools(); // caches the output schemas: the client then validates structured content
  });
  afterAll(async () => {
    await c?.close();
    await session?.shutdown();
    await dir?.dispose();
  });

  const run = async (program: string) => {
    const result = asResult(await c.client.callTool({ name: 'ide_operation', arguments: { program } }));
    return { result, text: textOf(result), data: result.structuredContent as IdeOperationResult };
  };

  it('lists the four tools, with descriptions generated from the registry', async () => {
    const { tools } = await c.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['expand_reference', 'get_selection', 'ide_operation', 'present_walkthrough']);
    // None of them can change workspace trust: only the user grants it (dialect trust, --trust).
    expect(tools.filter((t) => /trust/i.test(`${t.name} ${JSON.stringify(t.inputSchema)}`))).toEqual([]);
    const ide = tools.find((t) => t.name === 'ide_operation');
    const description = ide?.description ?? '';
    for (const fn of registry.functions) {
      expect(description).toContain(registry.signature(fn));
      expect(description).toContain(`Example: ${fn.examples[0]?.program ?? ''}`);
    }
    expect(description).not.toContain('{{');
    expect(description).toMatch(/backticks/);
    expect(description).toMatch(/ambiguity/);
    expect(ide?.inputSchema.required).toEqual(['program']);
    expect(ide?.outputSchema?.properties).toHaveProperty('indexing');
    expect(ide?.annotations?.readOnlyHint).toBe(true);
    const walkthrough = tools.find((t) => t.name === 'present_walkthrough');
    expect(walkthrough?.inputSchema.required?.slice().sort()).toEqual(['baseUri', 'content']);
    expect(walkthrough?.description).toContain('walkthrough-format.md');
    expect(tools.find((t) => t.name === 'expand_reference')?.description).toContain('dialect-reference.md');
  });

  it('sends instructions that point agents at the tools, and its name and version', () => {
    expect(c.client.getInstructions()).toMatch(/ide_operation/);
    // Replies from the editor arrive as reference tags: the agent is told what they are.
    expect(c.client.getInstructions()).toMatch(/<dialect-ref id="…"\/> tag .* expand_reference/);
    expect(c.client.getServerVersion()).toEqual({ name: 'dialect-ide', version: (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version });
  });

  it('lists and reads the guidance resources; the reference covers every function', async () => {
    const { resources } = await c.client.listResources();
    expect(resources.map((r) => r.name).sort()).toEqual(['dialect-reference.md', 'status', 'walkthrough-format.md']);
    for (const r of resources) expect(r.mimeType).toBe(r.name === 'status' ? 'text/plain' : 'text/markdown');
    const status = await c.client.readResource({ uri: 'dialect://status' });
    expect((status.contents[0] as { text: string }).text).toMatch(/^workspace .*\nservers: none/);
    const reference = await c.client.readResource({ uri: 'dialect://guidance/dialect-reference.md' });
    const text = (reference.contents[0] as { text: string }).text;
    for (const fn of registry.functions) expect(text).toContain(`### \`${registry.signature(fn)}\``);
    expect(text).toContain('## The three outcomes');
    const format = await c.client.readResource({ uri: 'dialect://guidance/walkthrough-format.md' });
    const guide = (format.contents[0] as { text: string }).text;
    for (const element of ['<comment location=', '<action button=', '```mermaid', '```gitdiff(range=', '```comment', 'location:', '```action', 'button:']) expect(guide).toContain(element);
    for (const example of ['findDefinition("User")', 'search("src/auth.rs", "fn validate")', 'lines("src/a.rs", 10, 20)']) expect(guide).toContain(example);
  });

  it('evaluates plain values and reports the indexing state', async () => {
    const { result, text, data } = await run('{"a": [1, 2], b: `x\\y`}');
    expect(result.isError).toBeUndefined();
    expect(data).toMatchObject({ kind: 'value', value: { a: [1, 2], b: 'x\\y' }, indexing: { complete: true, pending: [] } });
    expect(text).toContain('{a: [1, 2], b: "x\\\\y"}');
    // A program that asked no server says nothing about servers: its indexing is in the structured content.
    expect(text).toBe('{a: [1, 2], b: "x\\\\y"}');
  });

  it('answers help()', async () => {
    const { text } = await run('help("findReferences")');
    expect(text).toContain('findReferences(to: symbol | symbol[]) → reference[]');
  });

  it('an unknown function is an isError result with a caret and the nearest names', async () => {
    const { result, text, data } = await run('findDefintions("User")');
    expect(result.isError).toBe(true);
    expect(text).toContain('1 | findDefintions("User")');
    expect(text).toContain('^^^^^^^^^^^^^^');
    expect(text).toContain('did you mean `findDefinitions`');
    expect(data.kind).toBe('error');
    expect(data.error?.code).toBe('unknown-function');
    expect(data.error?.range?.start).toMatchObject({ line: 1, column: 1 });
  });

  it('a missing argument shows the expected signature and an example', async () => {
    const { result, text, data } = await run('search("src")');
    expect(result.isError).toBe(true);
    expect(text).toContain('expected: search(path: string, regex: string, extension?: string | string[]) → location[]');
    expect(text).toContain('example: search("src/auth.rs", "fn validate")');
    expect(data.error).toMatchObject({ code: 'missing-argument', signature: 'search(path: string, regex: string, extension?: string | string[]) → location[]' });
  });

  it('a syntax error points at the problem', async () => {
    const { result, text, data } = await run('findDefinitions("User"');
    expect(result.isError).toBe(true);
    expect(data.error?.code).toBe('syntax-error');
    expect(text).toMatch(/\^/);
    expect(text).toContain('findDefinitions("User"');
  });

  it('a bare name is explained', async () => {
    const { result, text } = await run('findDefinitions(User)');
    expect(result.isError).toBe(true);
    expect(text).toContain('quote it: "User"');
  });

  it('an ambiguity lists numbered refinements (not an error) and each refinement runs', async () => {
    const { result, text, data } = await run('only(["alpha", "beta"])');
    expect(result.isError).toBeUndefined();
    expect(data.kind).toBe('ambiguity');
    expect(text).toMatch(/Run one of these to choose:\n\s+1\. /);
    const refinements = data.refinements ?? [];
    expect(refinements.length).toBe(2);
    const values = [];
    for (const r of refinements) {
      expect(text).toContain(r.program);
      const chosen = await run(r.program);
      expect(chosen.data.kind).toBe('value');
      values.push(chosen.data.value);
    }
    expect(values.sort()).toEqual(['alpha', 'beta']);
  });

  it('an empty program is an error that shows what to write', async () => {
    for (const program of ['', '   \n ']) {
      const { result, text, data } = await run(program);
      expect(result.isError).toBe(true);
      expect(data.error?.code).toBe('syntax-error');
      expect(text).toContain('error[empty-input]: the program is empty');
      expect(text).toContain('findDefinitions("User")');
    }
  });

  it('malformed arguments get a clear error and the server keeps serving', async () => {
    const missing = asResult(await c.client.callTool({ name: 'ide_operation', arguments: {} }));
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('missing the argument "program"');

    const wrongType = asResult(await c.client.callTool({ name: 'ide_operation', arguments: { program: 42 } }));
    expect(wrongType.isError).toBe(true);
    expect(textOf(wrongType)).toContain('"program" must be a string');
    expect(textOf(wrongType)).toContain('got a number');

    const misspelt = asResult(await c.client.callTool({ name: 'ide_operation', arguments: { programm: 'help()' } }));
    expect(textOf(misspelt)).toContain('missing the argument "program"');

    const huge = 'x'.repeat(5 * 1024 * 1024);
    const tooLong = asResult(await c.client.callTool({ name: 'ide_operation', arguments: { program: `search("src", "${huge}")` } }));
    expect(tooLong.isError).toBe(true);
    expect(textOf(tooLong)).toContain('longer than 1000000 characters');
    expect(textOf(tooLong).length).toBeLessThan(2000);

    const walkthrough = asResult(await c.client.callTool({ name: 'present_walkthrough', arguments: { content: '# x' } }));
    expect(walkthrough.isError).toBe(true);
    expect(textOf(walkthrough)).toContain('missing the argument "baseUri"');

    const unknownTool = asResult(await c.client.callTool({ name: 'ide_operations', arguments: { program: 'help()' } }));
    expect(unknownTool.isError).toBe(true);
    expect(textOf(unknownTool)).toContain('Tool ide_operations not found');

    // Arguments that are not an object at all fail the SDK's request validation: a protocol error.
    const raw = c.client.request({ method: 'tools/call', params: { name: 'ide_operation', arguments: 'help()' as unknown as Record<string, unknown> } }, CallToolResultSchema);
    await expect(raw).rejects.toSatisfy((e: unknown) => e instanceof McpError && /arguments/.test(e.message));

    const { data } = await run('[1, 2, 3]');
    expect(data.value).toEqual([1, 2, 3]);
  });

  it('expand_reference returns stored JSON, guidance by name, and teaches unknown ids', async () => {
    c.server.storeReference('sel-1', { relativePath: 'src/auth.rs', selectedText: 'fn validate_token() {}', range: { start: 10, end: 12 } });
    const stored = asResult(await c.client.callTool({ name: 'expand_reference', arguments: { id: 'sel-1' } }));
    expect(stored.structuredContent).toEqual({ id: 'sel-1', kind: 'reference', value: { relativePath: 'src/auth.rs', selectedText: 'fn validate_token() {}', range: { start: 10, end: 12 } } });
    expect(JSON.parse(textOf(stored))).toMatchObject({ relativePath: 'src/auth.rs' });
    // The whole tag, as it appears in a conversation, works too.
    const tag = asResult(await c.client.callTool({ name: 'expand_reference', arguments: { id: '<dialect-ref id="sel-1"/>' } }));
    expect(tag.structuredContent).toMatchObject({ kind: 'reference' });

    for (const id of ['walkthrough-format.md', 'dialect://guidance/walkthrough-format.md', 'walkthrough-format']) {
      const guide = asResult(await c.client.callTool({ name: 'expand_reference', arguments: { id } }));
      expect(guide.isError).toBeUndefined();
      expect(textOf(guide)).toContain('# Writing walkthroughs');
    }
    const reference = asResult(await c.client.callTool({ name: 'expand_reference', arguments: { id: 'dialect-reference.md' } }));
    expect(textOf(reference)).toContain('### `findReferences(');

    const unknown = asResult(await c.client.callTool({ name: 'expand_reference', arguments: { id: 'nope' } }));
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('walkthrough-format.md, dialect-reference.md');
  });

  it('sends progress notifications when the client asks for them', async () => {
    const progress: Progress[] = [];
    const result = asResult(await c.client.callTool({ name: 'ide_operation', arguments: { program: 'findFiles("*.rs")' } }, undefined, { onprogress: (p) => progress.push(p) }));
    expect(result.isError).toBeUndefined();
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0]?.message).toContain('evaluating findFiles("*.rs")');
  });

  it('answers 50 concurrent calls', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => run(`[${i}, "x"]`)));
    results.forEach(({ data }, i) => expect(data.value).toEqual([i, 'x']));
    expect(c.server.stats.activeCalls).toBe(0);
  });
});
