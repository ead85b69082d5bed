/**
 * Go through gopls on a generated module (20 packages × 10 files): cold start — Dialect's first
 * answer against a raw gopls spawned and asked the same `workspace/symbol` directly — and warm
 * per-call latency of the IDE functions against the raw requests on the same warm gopls,
 * interleaved. Both gopls get the same environment and settings.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createProtocolConnection, HoverRequest, InitializeRequest, ReferencesRequest, StreamMessageReader, StreamMessageWriter, WorkspaceSymbolRequest } from 'vscode-languageserver-protocol/node';
import { goplsServer } from '../ide-adapter/languages/go/index.js';
import { findServerBinary } from '../ide-adapter/lsp/discovery.js';
import type { LspBackend } from './lsp-support.js';
import { IdeSession, type LanguageServerHandle } from './lsp-support.js';
import { fmt, interleaved, summarize, table } from './measure.js';

const PACKAGES = 20;
const FILES_PER_PACKAGE = 10;
/** Cold starts of each contender, alternating. */
const COLD_ROUNDS = 3;

/** A module where `core.Entity` is used by every file and `ItemN` types have a `Value` method each. */
async function generateModule(root: string): Promise<void> {
  await mkdir(join(root, 'core'), { recursive: true });
  await writeFile(join(root, 'go.mod'), 'module example.com/bench\n\ngo 1.19\n');
  await writeFile(join(root, 'core', 'core.go'), 'package core\n\n// Entity is what every package uses.\ntype Entity struct{ ID int }\n\n// Valuer has a value.\ntype Valuer interface{ Value() int }\n');
  let n = 0;
  for (let p = 0; p < PACKAGES; p++) {
    await mkdir(join(root, `p${p}`));
    for (let f = 0; f < FILES_PER_PACKAGE; f++, n++) {
      await writeFile(
        join(root, `p${p}`, `f${f}.go`),
        `package p${p}\n\nimport "example.com/bench/core"\n\n// Item${n} wraps an entity.\ntype Item${n} struct{ E core.Entity }\n\n// Value of item ${n}.\nfunc (i *Item${n}) Value() int { return i.E.ID + ${n} }\n\n// Make${n} makes one.\nfunc Make${n}(e core.Entity) *Item${n} { return &Item${n}{E: e} }\n`,
      );
    }
  }
}

/** A raw gopls: spawned, initialized with the definition's options, ready for requests. */
async function rawGopls(binary: string, root: string) {
  const child = spawn(binary, [...goplsServer.args], { cwd: root, env: { ...process.env, ...(goplsServer.env ?? {}) }, stdio: ['pipe', 'pipe', 'ignore'] });
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => goplsServer.settings?.['gopls'] ?? {}));
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.listen();
  const rootUri = pathToFileURL(root).href;
  await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: 'bench' }],
    capabilities: { workspace: { configuration: true } },
    initializationOptions: goplsServer.initializationOptions ?? null,
  });
  await connection.sendNotification('initialized', {});
  return {
    connection,
    stop: async () => {
      await connection.sendRequest('shutdown').catch(() => undefined);
      await connection.sendNotification('exit').catch(() => undefined);
      connection.dispose();
      child.kill();
    },
  };
}

/** The `go` section. */
export async function benchGo(): Promise<string> {
  const base = await mkdtemp(join(tmpdir(), 'dialect-bench-go-'));
  const root = join(base, 'bench');
  try {
    await generateModule(root);
    const binary = (await findServerBinary(goplsServer)).path;
    const target = `Item${Math.floor((PACKAGES * FILES_PER_PACKAGE) / 2)}`;
    const rawCold: number[] = [];
    const ourCold: number[] = [];
    for (let round = 0; round < COLD_ROUNDS; round++) {
      let t = performance.now();
      const raw = await rawGopls(binary, root);
      // gopls answers workspace/symbol once it loaded the workspace (the request waits for it).
      const found = await raw.connection.sendRequest(WorkspaceSymbolRequest.type, { query: target });
      rawCold.push(performance.now() - t);
      await raw.stop();
      if (!(found ?? []).some((s) => s.name === target)) throw new Error(`raw gopls did not find ${target}`);
      t = performance.now();
      const session = await IdeSession.open({ workspaceRoot: root, readyTimeoutMs: 600_000 });
      const first = await session.evaluate(`findDefinitions(${JSON.stringify(target)})`, { deadlineMs: 600_000 });
      ourCold.push(performance.now() - t);
      await session.shutdown();
      if (first.kind !== 'value' || (first.value as unknown[]).length !== 1) throw new Error(`findDefinitions(${target}) did not find it`);
    }

    const session = await IdeSession.open({ workspaceRoot: root, readyTimeoutMs: 600_000 });
    const server: LanguageServerHandle = await (session.backend as LspBackend).pool.server('gopls');
    await server.waitUntilReady({ timeoutMs: 600_000 });
    const entity = await session.evaluate('findDefinition("Entity")');
    const value = await session.evaluate(`findDefinition(${JSON.stringify(`${target}.Value`)})`);
    if (entity.kind !== 'value' || value.kind !== 'value') throw new Error('lookup failed');
    type Sym = { definedAt: { path: string; start: { line: number; column: number } } };
    const abs = (p: string): string => session.workspace.resolve(p);
    const uri = (p: string): string => pathToFileURL(abs(p)).href;
    const lspPos = async (s: Sym) => server.toLspPosition((await server.ensureOpen(abs(s.definedAt.path))).lines, s.definedAt.start);
    const entitySym = entity.value as Sym;
    const valueSym = value.value as Sym;
    const entityPos = await lspPos(entitySym);
    const valuePos = await lspPos(valueSym);
    const evalValue = async (program: string, bindings?: Record<string, unknown>): Promise<void> => {
      const o = await session.evaluate(program, bindings !== undefined ? { bindings } : {});
      if (o.kind !== 'value') throw new Error(`${program} failed`);
    };
    const cases = [
      { name: `findDefinitions("${target}.Value")`, adapter: () => evalValue(`findDefinitions(${JSON.stringify(`${target}.Value`)})`), raw: () => server.request(WorkspaceSymbolRequest.type, { query: 'Value' }), rawText: 'workspace/symbol' },
      { name: 'findReferences(Entity)', adapter: () => evalValue('findReferences(_)', { _: entity.value }), raw: () => server.request(ReferencesRequest.type, { textDocument: { uri: uri(entitySym.definedAt.path) }, position: entityPos, context: { includeDeclaration: false } }), rawText: 'references' },
      { name: `getSymbolInfo(${target}.Value)`, adapter: () => evalValue('getSymbolInfo(_)', { _: value.value }), raw: () => server.request(HoverRequest.type, { textDocument: { uri: uri(valueSym.definedAt.path) }, position: valuePos }), rawText: 'hover' },
    ];
    const rows: string[][] = [];
    for (const c of cases) {
      const r = await interleaved({ raw: c.raw, adapter: c.adapter }, 30);
      const raw = r['raw']!.median;
      const adapter = r['adapter']!.median;
      rows.push([c.name, c.rawText, `${fmt.ms(raw)} ms`, `${fmt.ms(adapter)} ms`, `${adapter - raw >= 0 ? '+' : ''}${fmt.ms(adapter - raw)} ms`]);
    }
    const memory = server.memory();
    await session.shutdown();
    return [
      `### Go: gopls on a generated module (${PACKAGES} packages, ${PACKAGES * FILES_PER_PACKAGE + 1} files)`,
      '',
      `Debian's gopls (x/tools 0.5.0) with go 1.19; both gopls run with the same environment and settings. Cold start: median of ${COLD_ROUNDS} alternating starts each.`,
      '',
      table(
        ['cold start', 'time'],
        [
          [`raw gopls: spawn, initialize, first \`workspace/symbol "${target}"\``, `${fmt.ms(summarize(rawCold).median / 1000)} s`],
          [`Dialect: session open, first \`findDefinitions("${target}")\` (exact name, on its name)`, `${fmt.ms(summarize(ourCold).median / 1000)} s`],
          ['gopls memory (RSS) after the run', memory !== undefined ? `${fmt.int(memory / 1048576)} MB` : 'n/a'],
        ],
      ),
      '',
      `Warm per-call latency: each IDE function through the interpreter against the raw request on the same warm gopls, interleaved. A lookup also lands on the name and confirms the definition, which the raw request does not; \`Value\` names ${PACKAGES * FILES_PER_PACKAGE} methods, more than the 100 gopls returns, so the lookup completes the capped answer from a text search and the outlines of the files found.`,
      '',
      table(['call', 'raw LSP request', 'raw', 'through Dialect', 'Dialect adds'], rows),
    ].join('\n');
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
