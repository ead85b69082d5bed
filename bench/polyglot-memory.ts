/**
 * The resident memory of every language server on fixtures/polyglot (Rust, TypeScript, Python,
 * Go, C), each started alone and measured once it is ready and has answered one outline of one
 * of its files: `npx tsx bench/polyglot-memory.ts` prints a Markdown table. Not a section of
 * `npm run bench`: it needs pyright, gopls and clangd, which only some machines have. Servers
 * with no built-in definition here are described inline.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocumentSymbolRequest } from 'vscode-languageserver-protocol';
import { rustAnalyzerServer } from '../ide-adapter/languages/rust/index.js';
import { typeScriptServer } from '../ide-adapter/languages/typescript/index.js';
import { LanguageServer } from '../ide-adapter/lsp/client.js';
import { defineServer, type ServerDefinition } from '../ide-adapter/lsp/servers.js';
import { packageFile } from '../ide-adapter/package-files.js';

interface Subject {
  readonly definition: ServerDefinition;
  /** One file of its language, relative to the workspace. */
  readonly file: string;
  /** Its binary when discovery cannot probe it (pyright has no `--version`). */
  readonly binary?: { readonly path: string; readonly version: string };
}

const subjects: Subject[] = [
  { definition: rustAnalyzerServer, file: 'src/lib.rs' },
  { definition: typeScriptServer, file: 'web/src/invoice.ts' },
  {
    definition: defineServer({ id: 'pyright', command: 'pyright-langserver', args: ['--stdio'], languages: [{ languageId: 'python', extensions: ['.py'] }] }),
    file: 'py/receipts/receipt.py',
    binary: { path: packageFile('node_modules', 'pyright', 'langserver.index.js'), version: 'pyright (npm)' },
  },
  { definition: defineServer({ id: 'gopls', command: 'gopls', versionArgs: ['version'], languages: [{ languageId: 'go', extensions: ['.go'] }] }), file: 'go/payment.go' },
  { definition: defineServer({ id: 'clangd', command: 'clangd-19', languages: [{ languageId: 'c', extensions: ['.c', '.h'] }] }), file: 'c/ledger.c' },
];

const MB = 1024 * 1024;
// A copy, so no server writes into the repository.
const base = await mkdtemp(join(tmpdir(), 'dialect-bench-polyglot-'));
const workspace = { root: join(base, 'polyglot'), dispose: () => rm(base, { recursive: true, force: true }) };
await cp(packageFile('fixtures', 'polyglot'), workspace.root, { recursive: true, filter: (src) => !/[/\\](target|node_modules)$/.test(src) });
const rows: string[] = [];
let total = 0;
try {
  for (const subject of subjects) {
    const started = Date.now();
    let server: LanguageServer | undefined;
    try {
      server = await LanguageServer.start(subject.definition, workspace.root, subject.binary !== undefined ? { binary: subject.binary } : {});
      const status = await server.waitUntilReady({ timeoutMs: 120_000 });
      const doc = await server.ensureOpen(join(workspace.root, subject.file));
      await server.request(DocumentSymbolRequest.type, { textDocument: { uri: doc.uri } }, { timeoutMs: 60_000 });
      const bytes = server.memory() ?? 0;
      total += bytes;
      rows.push(`| ${subject.definition.displayName} | ${status.state} | ${(bytes / MB).toFixed(0)} MB | ${((Date.now() - started) / 1000).toFixed(1)} s |`);
    } catch (error) {
      rows.push(`| ${subject.definition.displayName} | failed: ${String(error).split('\n')[0] ?? ''} | – | – |`);
    } finally {
      await server?.shutdown();
    }
  }
} finally {
  await workspace.dispose();
}
process.stdout.write(['| server | state | resident memory (process tree) | ready + one outline |', '|---|---|---|---|', ...rows, `| all five | | ${(total / MB).toFixed(0)} MB | |`, ''].join('\n'));
