/**
 * C++ through clangd on a generated project (headers and sources in namespaces, a
 * compile_commands.json): cold start through Dialect against raw clangd started by hand with the
 * same database, and warm per-call latency of the IDE functions against the same raw LSP requests
 * on the same warm server, interleaved.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';
import { HoverRequest, ReferencesRequest, WorkspaceSymbolRequest, type SymbolInformation, type WorkspaceSymbol } from 'vscode-languageserver-protocol';
import { findServerBinary } from '../ide-adapter/lsp/discovery.js';
import { clangdServer } from '../ide-adapter/languages/cpp/index.js';
import type { LspBackend } from './lsp-support.js';
import { IdeSession, type LanguageServerHandle } from './lsp-support.js';
import { fmt, interleaved, table } from './measure.js';

/** Header/source pairs generated. */
const PAIRS = Number(process.env.BENCH_PAIRS ?? 150);
/** How often the raw client asks again. */
const RAW_POLL_MS = 20;
/** What the raw client waits for at most. */
const RAW_TIMEOUT_MS = 600_000;

/** Writes `PAIRS` classes `app::mN::ItemN` (header + source) used by `main.cpp`, and their database. */
async function generateProject(root: string): Promise<string[]> {
  await mkdir(join(root, 'include'), { recursive: true });
  await mkdir(join(root, 'src'), { recursive: true });
  await writeFile(join(root, 'include', 'entity.h'), '#pragma once\nnamespace app {\n/// The entity every item holds.\nstruct Entity {\n  long id;\n};\n} // namespace app\n');
  const sources: string[] = [];
  const includes: string[] = [];
  const uses: string[] = [];
  for (let i = 0; i < PAIRS; i++) {
    await writeFile(
      join(root, 'include', `item${i}.h`),
      `#pragma once\n#include "entity.h"\nnamespace app {\nnamespace m${i} {\n/// Item number ${i}.\nclass Item${i} {\npublic:\n  explicit Item${i}(Entity e);\n  const Entity &entity() const;\n  long value() const;\n\nprivate:\n  Entity entity_;\n};\n} // namespace m${i}\n} // namespace app\n`,
    );
    await writeFile(
      join(root, 'src', `item${i}.cpp`),
      `#include "item${i}.h"\nnamespace app {\nnamespace m${i} {\nItem${i}::Item${i}(Entity e) : entity_(e) {}\nconst Entity &Item${i}::entity() const { return entity_; }\nlong Item${i}::value() const { return entity_.id + ${i}; }\n/// Defined only here: found once the background index has read this file.\nlong helper_${i}(long x) { return x * ${i}; }\n} // namespace m${i}\n} // namespace app\n`,
    );
    sources.push(`src/item${i}.cpp`);
    includes.push(`#include "item${i}.h"`);
    uses.push(`  total += app::m${i}::Item${i}(app::Entity{${i}}).value();`);
  }
  await writeFile(join(root, 'src', 'main.cpp'), `${includes.join('\n')}\n\nint main() {\n  long total = 0;\n${uses.join('\n')}\n  return static_cast<int>(total);\n}\n`);
  sources.push('src/main.cpp');
  return sources;
}

function database(root: string, sources: readonly string[]): string {
  return JSON.stringify(sources.map((file) => ({ directory: root, file, arguments: ['c++', '-std=c++17', '-Iinclude', '-c', file] })));
}

/**
 * Raw clangd, started by hand: the same binary and database (in its own folder), `initialize`,
 * `main.cpp` opened, then `workspace/symbol` asked until it finds `name` (defined only in a source
 * nobody opened: its background index must have read it).
 */
async function rawColdStart(binary: string, root: string, dbDir: string, name: string): Promise<number> {
  const t0 = performance.now();
  const child = spawn(binary, ['--log=error', '--background-index', `--compile-commands-dir=${dbDir}`], { cwd: root, stdio: ['pipe', 'pipe', 'ignore'] });
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.listen();
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`raw clangd exited (${code})`))));
  const ask = <R>(request: Promise<R>): Promise<R> => Promise.race([request, exited]);
  try {
    await ask(connection.sendRequest('initialize', { processId: process.pid, rootUri: `file://${root}`, capabilities: { window: { workDoneProgress: true } }, workspaceFolders: [{ uri: `file://${root}`, name: 'bench' }] }));
    await connection.sendNotification('initialized', {});
    const main = join(root, 'src', 'main.cpp');
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: `file://${main}`, languageId: 'cpp', version: 1, text: await readFile(main, 'utf8') } });
    while (performance.now() - t0 < RAW_TIMEOUT_MS) {
      const found = await ask(connection.sendRequest<(SymbolInformation | WorkspaceSymbol)[] | null>(WorkspaceSymbolRequest.method, { query: name }));
      if ((found ?? []).some((s) => s.name === name)) return performance.now() - t0;
      await new Promise((resolve) => setTimeout(resolve, RAW_POLL_MS));
    }
    throw new Error(`raw clangd never found ${name}`);
  } finally {
    // Waited for: a clangd still writing its index would race the removal of the folder.
    const gone = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill();
    connection.dispose();
    await gone;
  }
}

/** The `clangd` section of BENCHMARKS.md. */
export async function benchClangd(): Promise<string> {
  const base = await mkdtemp(join(tmpdir(), 'dialect-bench-cpp-'));
  try {
    const binary = await findServerBinary(clangdServer);
    // Two copies of one project: raw clangd indexes one (its index next to its database), Dialect the other.
    const rawRoot = join(base, 'raw', 'project');
    const root = join(base, 'ours', 'project');
    const sources = await generateProject(rawRoot);
    await generateProject(root);
    const rawDb = join(base, 'raw', 'db');
    await mkdir(rawDb, { recursive: true });
    await writeFile(join(rawDb, 'compile_commands.json'), database(rawRoot, sources));
    await writeFile(join(root, 'compile_commands.json'), database(root, sources));
    const target = `Item${Math.floor(PAIRS / 2)}`;
    const helper = `helper_${Math.floor(PAIRS / 2)}`;

    const raw = await rawColdStart(binary.path, rawRoot, rawDb, helper);

    const t0 = performance.now();
    const session = await IdeSession.open({ workspaceRoot: root, env: { XDG_CACHE_HOME: join(base, 'cache') }, readyTimeoutMs: RAW_TIMEOUT_MS });
    const first = await session.evaluate(`findDefinitions("${helper}")`, { deadlineMs: RAW_TIMEOUT_MS });
    const firstAnswer = performance.now() - t0;
    if (first.kind !== 'value' || (first.value as unknown[]).length !== 1) throw new Error(`findDefinitions("${helper}") did not find the function`);
    const server: LanguageServerHandle = await (session.backend as LspBackend).pool.server('clangd');

    const entity = await session.evaluate('findDefinition("app::Entity")');
    const method = await session.evaluate(`findDefinition("${target}::value")`);
    if (entity.kind !== 'value' || method.kind !== 'value') throw new Error('lookup failed');
    type Sym = { definedAt: { path: string; start: { line: number; column: number } } };
    const entitySym = entity.value as Sym;
    const abs = (p: string): string => session.workspace.resolve(p);
    const uri = (p: string): string => new URL(`file://${abs(p)}`).href;
    const doc = await server.ensureOpen(abs(entitySym.definedAt.path));
    const entityPos = server.toLspPosition(doc.lines, entitySym.definedAt.start);
    // A raw client keeps the file it asks about open; Dialect's bound on open documents may have
    // closed it after a lookup (clangd refuses a position in a document it does not have).
    const rawOpen = () => server.ensureOpen(abs(entitySym.definedAt.path));
    const evalValue = async (program: string, bindings?: Record<string, unknown>): Promise<void> => {
      const o = await session.evaluate(program, bindings !== undefined ? { bindings } : {});
      if (o.kind !== 'value') throw new Error(`${program} failed`);
    };
    const cases = [
      { name: `findDefinitions("${target}")`, adapter: () => evalValue(`findDefinitions("${target}")`), raw: () => server.request(WorkspaceSymbolRequest.type, { query: target }), rawText: 'workspace/symbol' },
      { name: `findDefinitions("${target}::value")`, adapter: () => evalValue(`findDefinitions("${target}::value")`), raw: () => server.request(WorkspaceSymbolRequest.type, { query: 'value' }), rawText: 'workspace/symbol' },
      {
        name: 'findReferences(app::Entity)',
        adapter: () => evalValue('findReferences(_)', { _: entity.value }),
        raw: async () => (await rawOpen(), server.request(ReferencesRequest.type, { textDocument: { uri: uri(entitySym.definedAt.path) }, position: entityPos, context: { includeDeclaration: false } })),
        rawText: 'references',
      },
      {
        name: 'getSymbolInfo(app::Entity)',
        adapter: () => evalValue('getSymbolInfo(_)', { _: entity.value }),
        raw: async () => (await rawOpen(), server.request(HoverRequest.type, { textDocument: { uri: uri(entitySym.definedAt.path) }, position: entityPos })),
        rawText: 'hover',
      },
    ];
    const rows: string[][] = [];
    for (const c of cases) {
      const r = await interleaved({ raw: c.raw, adapter: c.adapter }, 30);
      const rawMs = r['raw']!.median;
      const adapter = r['adapter']!.median;
      rows.push([c.name, c.rawText, `${fmt.ms(rawMs)} ms`, `${fmt.ms(adapter)} ms`, `${adapter - rawMs >= 0 ? '+' : ''}${fmt.ms(adapter - rawMs)} ms`]);
    }
    const memory = server.memory();
    await session.shutdown();
    return [
      `### Language servers: clangd (${binary.version.split('\n')[0] ?? 'clangd'}) on a generated C++ project`,
      '',
      `${PAIRS} classes, each a header and a source in its own namespace (the source also defines \`helper_N\`), and a \`main.cpp\` using all of them (${sources.length} translation units in a compile_commands.json). Cold start is until an answer needs the background index: \`${helper}\` is defined only in a source nobody opened.`,
      '',
      table(
        ['cold start', 'time'],
        [
          [`raw clangd (started by hand, same database, \`main.cpp\` opened): first \`workspace/symbol\` naming ${helper}, polled every ${RAW_POLL_MS} ms`, `${fmt.ms(raw / 1000)} s`],
          [`Dialect from \`IdeSession.open\`: first answer of \`findDefinitions("${helper}")\` (detection, private database, readiness waited, the lookup)`, `${fmt.ms(firstAnswer / 1000)} s`],
          ['clangd memory (RSS) after the run', memory !== undefined ? `${fmt.int(memory / 1048576)} MB` : 'n/a'],
        ],
      ),
      '',
      'Warm per-call latency: the IDE function through the interpreter against the raw request it starts from, on the same warm server, interleaved. A lookup adds go-to-definition at each candidate (a C++ name merges its header declaration and source definition) and outlines (cached by file).',
      '',
      table(['call', 'raw LSP request', 'raw', 'through Dialect', 'adapter adds'], rows),
    ].join('\n');
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
