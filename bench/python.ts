/**
 * Python through pyright on a generated 300-module package: cold start (our first answer vs the
 * raw pyright's first `workspace/symbol` answer, started by a bare JSON-RPC client in the same
 * run) and warm per-call latency of the IDE functions against the same raw requests on the same
 * warm server, interleaved.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createProtocolConnection, HoverRequest, StreamMessageReader, StreamMessageWriter, WorkspaceSymbolRequest } from 'vscode-languageserver-protocol/node';
import { bundledPyright } from '../ide-adapter/languages/python/index.js';
import type { LspBackend } from './lsp-support.js';
import { IdeSession, type LanguageServerHandle } from './lsp-support.js';
import { fmt, interleaved, table } from './measure.js';

const MODULES = 300;

/** A package `app` of `modules` modules, each with a class whose `area` overrides the base's. */
async function generatePackage(root: string, modules = MODULES): Promise<void> {
  const pkg = join(root, 'src', 'app');
  await mkdir(pkg, { recursive: true });
  await writeFile(join(root, 'pyproject.toml'), '[project]\nname = "app"\nversion = "0.1.0"\n');
  await writeFile(join(pkg, 'base.py'), 'class Base:\n    """The base of every item."""\n\n    def area(self) -> float:\n        """The area."""\n        return 0.0\n');
  const exports: string[] = [];
  for (let i = 0; i < modules; i++) {
    await writeFile(
      join(pkg, `m${i}.py`),
      `from .base import Base\n\n\nclass Item${i}(Base):\n    """Item number ${i}."""\n\n    def area(self) -> float:\n        return ${i}.0\n\n\ndef make_${i}() -> Item${i}:\n    return Item${i}()\n`,
    );
    exports.push(`from .m${i} import Item${i}`);
  }
  await writeFile(join(pkg, '__init__.py'), `${exports.join('\n')}\n`);
}

/** The raw pyright: spawned and spoken to with a bare JSON-RPC connection; ms to its first symbol answer. */
async function rawColdStart(root: string, query: string): Promise<number> {
  const [binary] = bundledPyright();
  if (binary === undefined) throw new Error('pyright is not installed');
  const t0 = performance.now();
  const child = spawn(process.execPath, [binary, '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'ignore'] });
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => ({})));
  connection.onRequest('client/registerCapability', () => null);
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.listen();
  try {
    const uri = pathToFileURL(root).href;
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: uri, workspaceFolders: [{ uri, name: 'app' }], capabilities: { workspace: { configuration: true, workspaceFolders: true } } });
    await connection.sendNotification('initialized', {});
    for (;;) {
      const found = await connection.sendRequest(WorkspaceSymbolRequest.type, { query });
      if ((found ?? []).some((s: { name: string }) => s.name === query)) return performance.now() - t0;
    }
  } finally {
    connection.dispose();
    child.kill('SIGKILL');
  }
}

/** The Markdown section. */
export async function benchPython(): Promise<string> {
  const base = await mkdtemp(join(tmpdir(), 'dialect-bench-python-'));
  const root = join(base, 'app');
  try {
    await generatePackage(root);
    const raw = await rawColdStart(root, 'Item150');

    const t0 = performance.now();
    const session = await IdeSession.open({ workspaceRoot: root, readyTimeoutMs: 300_000 });
    const first = await session.evaluate('findDefinitions("app.m150.Item150")', { deadlineMs: 300_000 });
    const firstAnswer = performance.now() - t0;
    if (first.kind !== 'value' || (first.value as unknown[]).length !== 1) throw new Error('findDefinitions("app.m150.Item150") did not find the class');
    const server: LanguageServerHandle = await (session.backend as LspBackend).pool.server('pyright');
    const item = first.value as { definedAt: { path: string; start: { line: number; column: number } } }[];
    const sym = item[0] as (typeof item)[number];
    const abs = session.workspace.resolve(sym.definedAt.path);
    const doc = await server.ensureOpen(abs);
    const position = server.toLspPosition(doc.lines, sym.definedAt.start);
    const textDocument = { uri: pathToFileURL(abs).href };
    const ok = async (program: string, bindings?: Record<string, unknown>): Promise<void> => {
      const o = await session.evaluate(program, bindings !== undefined ? { bindings } : {});
      if (o.kind !== 'value') throw new Error(`${program} failed`);
    };
    const cases = [
      { name: 'findDefinitions("Item150")', adapter: () => ok('findDefinitions("Item150")'), raw: () => server.request(WorkspaceSymbolRequest.type, { query: 'Item150' }), rawText: 'workspace/symbol' },
      { name: 'getSymbolInfo(Item150)', adapter: () => ok('getSymbolInfo(_)', { _: sym }), raw: () => server.request(HoverRequest.type, { textDocument, position }), rawText: 'hover' },
    ];
    const rows: string[][] = [];
    for (const c of cases) {
      const r = await interleaved({ raw: c.raw, adapter: c.adapter }, 40);
      const rawMs = r['raw']!.median;
      const adapterMs = r['adapter']!.median;
      rows.push([c.name, c.rawText, `${fmt.ms(rawMs)} ms`, `${fmt.ms(adapterMs)} ms`, `${adapterMs - rawMs >= 0 ? '+' : ''}${fmt.ms(adapterMs - rawMs)} ms`]);
    }
    const memory = server.memory();
    await session.shutdown();
    return [
      `### Python: pyright on a generated ${MODULES}-module package`,
      '',
      `A \`src/\` layout package of ${MODULES} modules, each with a class overriding the base's \`area\`, re-exported from \`__init__.py\`.`,
      '',
      table(
        ['cold start', 'time'],
        [
          ['raw pyright: spawn to its first `workspace/symbol` answer naming `Item150` (bare JSON-RPC client)', `${fmt.ms(raw / 1000)} s`],
          ['Dialect: session open to the first answer of `findDefinitions("app.m150.Item150")`', `${fmt.ms(firstAnswer / 1000)} s`],
          ['pyright memory (RSS) after the run', memory !== undefined ? `${fmt.int(memory / 1048576)} MB` : 'n/a'],
        ],
      ),
      '',
      'Warm per-call latency: each IDE function through the interpreter against the same raw LSP request on the same warm server, interleaved.',
      '',
      table(['call', 'raw LSP request', 'raw', 'through Dialect', 'adapter adds'], rows),
    ].join('\n');
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
