import { cp, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReferencesRequest } from 'vscode-languageserver-protocol';
import { LanguageServer } from '../ide-adapter/lsp/client.js';
import { rustAnalyzerServer, withSettings } from '../ide-adapter/lsp/servers.js';
const base = await mkdtemp(join(tmpdir(), 'rwexp-'));
const root = join(base, 'ws');
await cp('/work/wt-rust-workspaces/fixtures/rust-workspace', root, { recursive: true });
let def = { ...rustAnalyzerServer, prepare: undefined };
const projectFile = process.argv[2];
if (projectFile) { const p = JSON.parse((await readFile(projectFile, 'utf8')).replaceAll('$ROOT', root)); def = withSettings(def, 'rust-analyzer', { linkedProjects: [p] }); }
const t0 = Date.now();
const env = JSON.parse(process.argv[3] ?? '{}');
const s = await LanguageServer.start(def, root, { env, binary: { path: '/usr/bin/rust-analyzer', version: 'x' } });
s.onStatus((st) => console.log(Date.now() - t0, st.text, st.warning ?? '', st.detail ?? ''));
const r = await s.waitUntilReady({ timeoutMs: 90000 });
console.log(r.summary, s.warnings);
const path = join(root, 'crates/core/src/lib.rs');
const doc = await s.ensureOpen(path);
const idx = doc.text.indexOf('fn total_balance') + 3;
const before = doc.text.slice(0, idx); const line = before.split('\n').length - 1; const ch = idx - before.lastIndexOf('\n') - 1;
const refs = await s.request(ReferencesRequest.type, { textDocument: { uri: doc.uri }, position: { line, character: ch }, context: { includeDeclaration: false } });
for (let i = 0; i < 4; i++) { await new Promise((r) => setTimeout(r, 1500)); const again = await s.request(ReferencesRequest.type, { textDocument: { uri: doc.uri }, position: { line, character: ch }, context: { includeDeclaration: false } }); console.log('again', Date.now() - t0, again?.length, s.status.text); }
console.log('refs', Date.now() - t0, refs?.map((x) => x.uri.slice(x.uri.indexOf('/ws/')) + ':' + x.range.start.line));
console.log(s.logTail(3000));
await s.shutdown();
