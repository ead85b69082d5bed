/**
 * `ide_operation` through a real MCP client (in-memory transport) against real rust-analyzer and
 * TypeScript servers on temporary copies of fixtures/rust-app and fixtures/ts-app. Expected
 * positions are computed from the fixtures' text. Under CI=true a missing server fails the file.
 */
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdeSession, type Reference, type SymbolDefinition } from '../../ide-adapter/index.js';
import { rustOfflineEnv } from '../../ide-adapter/test/support/rust-offline.js';
import { copyFixture } from '../../ide-adapter/test/support/servers.js';
import { openFixtureSession, serversAvailable, type FixtureSession } from '../../ide-adapter/test/support/session.js';
import type { IdeOperationResult } from '../index.js';
import { asResult, connect, statsReached, textOf, type Connected } from './support.js';

const rustAvailable = await serversAvailable('rust');
const tsAvailable = await serversAvailable('typescript');

async function call(c: Connected, program: string, options: { signal?: AbortSignal; onprogress?: (p: Progress) => void } = {}) {
  const result = asResult(await c.client.callTool({ name: 'ide_operation', arguments: { program } }, undefined, { timeout: 120_000, ...options }));
  return { result, text: textOf(result), data: result.structuredContent as IdeOperationResult };
}

/** `path:line:col  text` of the nth occurrence of `needle` in a fixture file, as presentOutcome prints it. */
async function presented(f: FixtureSession, path: string, needle: string, lineNeedle = needle): Promise<string> {
  const at = await f.at(path, needle);
  const line = (await f.text(path)).split('\n')[at.line - 1] ?? '';
  expect(line).toContain(lineNeedle);
  return `${path}:${at.line}:${at.column}  ${line.trim()}`;
}

describe.skipIf(!rustAvailable)('ide_operation on rust-analyzer (fixtures/rust-app)', { timeout: 120_000 }, () => {
  let f: FixtureSession;
  let c: Connected;
  beforeAll(async () => {
    f = await openFixtureSession('rust-app');
    c = await connect(f.session, { deadlineMs: 90_000 });
    await c.client.listTools();
  });
  afterAll(async () => {
    await c?.close();
    await f?.dispose();
  });

  it('findDefinitions: text with path:line:col and the line, structured symbols, indexing complete', async () => {
    const { result, text, data } = await call(c, 'findDefinitions("User")');
    expect(result.isError).toBeUndefined();
    expect(text).toContain(`struct User  ${await presented(f, 'src/model.rs', 'User {', 'pub struct User')}`);
    const defs = data.value as SymbolDefinition[];
    expect(defs).toHaveLength(1);
    expect(defs[0]).toMatchObject({ name: 'User', kind: 'struct', definedAt: { path: 'src/model.rs', start: await f.at('src/model.rs', 'User {') } });
    expect(data.indexing.complete).toBe(true);
    expect(text).not.toContain('[incomplete');
  });

  it('findReferences of a composed program lists every use', async () => {
    const { text, data } = await call(c, 'findReferences(findDefinition("User"))');
    const refs = data.value as Reference[];
    expect(refs.length).toBeGreaterThanOrEqual(10);
    expect(text).toMatch(new RegExp(`^${refs.length} references to struct User \\(src/model\\.rs:\\d+:\\d+\\):`, 'm'));
    expect(text).toContain(`  ${await presented(f, 'src/main.rs', 'User::new(1')}`);
    expect(new Set(refs.map((r) => r.referencedAt.path))).toEqual(new Set(['src/auth.rs', 'src/lib.rs', 'src/main.rs', 'src/model.rs', 'src/service.rs', 'src/util.rs']));
  });

  it('an ambiguous name returns refinements, and each refinement runs', async () => {
    const { result, text, data } = await call(c, 'findDefinition("validate_token")');
    expect(result.isError).toBeUndefined();
    expect(data.kind).toBe('ambiguity');
    const programs = (data.refinements ?? []).map((r) => r.program).sort();
    expect(programs).toEqual(['findDefinition("validate_token", file: "src/auth.rs")', 'findDefinition("validate_token", file: "src/util.rs")']);
    for (const program of programs) {
      expect(text).toContain(program);
      const chosen = await call(c, program);
      expect(chosen.result.isError).toBeUndefined();
      const def = chosen.data.value as SymbolDefinition;
      expect(program).toContain(def.definedAt.path);
      expect(def.definedAt.start).toEqual(await f.at(def.definedAt.path, 'validate_token('));
    }
    // An ambiguity inside a composition refines the whole program.
    const nested = await call(c, 'callers("validate_token")');
    expect(nested.data.refinements?.map((r) => r.program).sort()).toEqual([
      'callers(findDefinition("validate_token", file: "src/auth.rs"))',
      'callers(findDefinition("validate_token", file: "src/util.rs"))',
    ]);
    const callers = await call(c, 'callers(findDefinition("validate_token", file: "src/util.rs"))');
    expect((callers.data.value as SymbolDefinition[]).map((s) => s.name)).toContain('validate_token');
  });

  it('errors are isError results whose text teaches the fix', async () => {
    const wrongName = await call(c, 'findDefinitions("User", kinds: "struct")');
    expect(wrongName.result.isError).toBe(true);
    expect(wrongName.text).toContain('error[unknown-argument]: `findDefinitions` has no parameter named `kinds`');
    expect(wrongName.text).toContain('1 | findDefinitions("User", kinds: "struct")');
    expect(wrongName.text).toContain('                         ^^^^^');
    expect(wrongName.text).toContain('did you mean `kind`?');
    expect(wrongName.data.error?.signature).toBe('findDefinitions(of: string | symbol | (string | symbol)[], file?: string, kind?: string, line?: number) → symbol[]');

    const outside = await call(c, 'lines("../../etc/passwd", 1)');
    expect(outside.result.isError).toBe(true);
    expect(outside.data.error?.code).toBe('path-outside-workspace');
  });

  it('reads lines and searches with a backtick regex', async () => {
    const lines = await call(c, 'lines("src/auth.rs", 1, 3)');
    const first = (await f.text('src/auth.rs')).split('\n')[0] ?? '';
    expect(lines.text).toContain(`src/auth.rs:1-3\n1 | ${first}`);
    const search = await call(c, 'search("src", `fn\\s+validate_token`)');
    expect((search.data.value as unknown[]).length).toBe(2);
    expect(search.text).toContain(await presented(f, 'src/auth.rs', 'fn validate_token(token: &str) -> Result'));
  });

  it('answers 50 concurrent calls over the one rust-analyzer', async () => {
    const programs = ['findDefinitions("User")', 'findReferences(findDefinition("Task"))', 'findDefinitions("Priority")', 'search("src", "Priority::High")', 'documentSymbols("src/model.rs")'];
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => call(c, programs[i % programs.length] ?? '')));
    for (const [i, { result, data }] of results.entries()) {
      expect(result.isError, programs[i % programs.length]).toBeUndefined();
      expect((data.value as unknown[]).length).toBeGreaterThan(0);
    }
    // Same program, same answer.
    expect(results[0]?.data.value).toEqual(results[5]?.data.value);
    expect(Date.now() - started).toBeLessThan(60_000);
    const servers = f.session.backend.servers();
    expect(servers.filter((s) => s.id === 'rust-analyzer')).toHaveLength(1);
    expect(c.server.stats.activeCalls).toBe(0);
  });
});

describe.skipIf(!rustAvailable)('a fresh rust-analyzer: progress while indexing, cancellation', { timeout: 120_000 }, () => {
  let copy: Awaited<ReturnType<typeof copyFixture>>;
  let session: IdeSession;
  let c: Connected;
  beforeAll(async () => {
    copy = await copyFixture('rust-app');
    session = await IdeSession.open({ workspaceRoot: copy.root, env: await rustOfflineEnv(), readyTimeoutMs: 120_000 });
    c = await connect(session, { deadlineMs: 120_000 });
  });
  afterAll(async () => {
    await c?.close();
    await session?.shutdown();
    await copy?.dispose();
  });

  it('a call cancelled while the server starts ends at once; the next call is answered', async () => {
    const controller = new AbortController();
    const progress: Progress[] = [];
    let firstProgress: () => void = () => undefined;
    const progressed = new Promise<void>((resolve) => (firstProgress = resolve));
    const first = call(c, 'findReferences(findDefinition("Task"))', {
      signal: controller.signal,
      onprogress: (p) => {
        progress.push(p);
        firstProgress();
      },
    });
    first.catch(() => undefined); // awaited below; this keeps an early failure from leaving it unobserved
    await Promise.all([progressed, statsReached(c.server, (stats) => stats.activeCalls === 1, 10_000, 'the call to start')]);
    expect(progress[0]?.message).toMatch(/^evaluating findReferences\(findDefinition\("Task"\)\) — waiting for (rust-analyzer|language servers): (starting|indexing)/);
    controller.abort();
    await expect(first).rejects.toThrow();
    await statsReached(c.server, (stats) => stats.activeCalls === 0, 2000, 'the cancelled evaluation to end');

    const progressAfter: Progress[] = [];
    const { result, data } = await call(c, 'findDefinitions("Task")', { onprogress: (p) => progressAfter.push(p) });
    expect(result.isError).toBeUndefined();
    expect((data.value as SymbolDefinition[])[0]?.definedAt.path).toBe('src/model.rs');
    expect(data.indexing.complete).toBe(true);
    // While the server indexed, its status lines arrived as progress.
    const messages = [...progress, ...progressAfter].map((p) => p.message ?? '');
    expect(messages.some((m) => /rust-analyzer: (starting|indexing)/.test(m)), messages.join('\n')).toBe(true);
  });
});

describe.skipIf(!tsAvailable)('ide_operation on the TypeScript server (fixtures/ts-app)', { timeout: 120_000 }, () => {
  let f: FixtureSession;
  let c: Connected;
  beforeAll(async () => {
    f = await openFixtureSession('ts-app');
    c = await connect(f.session, { deadlineMs: 90_000 });
    await c.client.listTools();
  });
  afterAll(async () => {
    await c?.close();
    await f?.dispose();
  });

  it('definitions, references, symbol info', async () => {
    const defs = await call(c, 'findDefinitions("User")');
    expect(defs.text).toContain(`class User  ${await presented(f, 'src/model.ts', 'User implements', 'export class User')}`);
    const info = await call(c, 'getSymbolInfo("maxBy")');
    expect(info.text).toContain('function maxBy<T, K extends number | string>');
    const refs = await call(c, 'findReferences(findDefinition("Priority"))');
    expect(refs.text).toContain(await presented(f, 'src/service.ts', 'Priority.High'));
    expect(refs.data.indexing.complete).toBe(true);
    expect(refs.text).not.toContain('[incomplete');
  });

  it('ambiguity: refinements run and select each definition', async () => {
    const { data, text } = await call(c, 'findReferences("validateToken")');
    expect(data.kind).toBe('ambiguity');
    expect(text).toContain('Call ide_operation again with the program of the choice you mean');
    const programs = (data.refinements ?? []).map((r) => r.program).sort();
    expect(programs).toEqual(['findReferences(findDefinition("validateToken", file: "src/auth.ts"))', 'findReferences(findDefinition("validateToken", file: "src/util.ts"))']);
    const util = await call(c, programs[1] ?? '');
    expect((util.data.value as Reference[]).map((r) => r.referencedAt.path)).toContain('src/service.ts');
  });

  it('a type error in the program is explained', async () => {
    const { result, text } = await call(c, 'lines("src/model.ts", "one")');
    expect(result.isError).toBe(true);
    expect(text).toContain('1 | lines("src/model.ts", "one")');
    expect(text).toMatch(/\^+/);
  });
});
