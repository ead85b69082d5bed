#!/usr/bin/env node
// A scriptable fake language server for fault tests. Modes (first argument `--mode=...`):
//   ok                answers everything promptly
//   crash             exits mid-`textDocument/hover`; with --state=FILE only the first time (the file marks "already crashed")
//   hang              answers `initialize` only (every other request waits forever), ignores SIGTERM, starts a grandchild (pid written to --pidfile)
//   flood             writes megabytes to stderr continuously while answering normally
//   content-modified  answers the first hover with ContentModified (-32801), then normally
//   progress          reports $/progress work (begin/report/end) after `initialized`
//   die-on-init       exits while handling `initialize`; refuse-init answers it with an error
// Options: --state=FILE (crash), --pidfile=FILE (hang), --encoding=utf-8|utf-16|utf-32,
//   --hold-progress (progress) ends the work only when asked (`fake/finish-progress`), so a test
//   can see the server indexing for as long as it needs, whatever the machine's speed.
//   --progress-title=TEXT (progress) the work's title instead of `Indexing` (a hostile server's text).
//   --progress-flood=N (progress) first begins N works with distinct tokens and never ends them,
//   as a hostile server could, before its own work.
//   --litter (leaves a folder with a file in its temp dir, as rust-analyzer's proc-macro server does).
//   --publish-diagnostics  publishes (never answers pulls) an error on every `ERROR` of an opened file
//   --publish-delay=MS      publishes them MS after the open (default 50), as a busy server does
//   --slow-hover            every hover waits until it is cancelled (counted in `cancelled`, like `fake/slow`)
//   --outline               advertises outlines (documentSymbolProvider); hang mode never answers them
//   --deep-outline=N        (with --outline) answers every outline with N symbols, each the child of the
//                           one before (`level0` … on line 0), as a hostile server could
//   --deep-data=N           (with --types) hierarchy items carry a `data` of N nested arrays
//   --types                 a tiny language of `class A extends B` lines: definitions and the type
//                           hierarchy (which rust-analyzer and tsgo lack), no type definitions
//   --journal=FILE          appends `<pid> <method>` to FILE as `initialize`, `initialized` and each
//                           `textDocument/didOpen` arrive (synchronously: a test can watch the file)
//   --watch=JSON            after `initialized`, registers `workspace/didChangeWatchedFiles` with these
//                           watchers (a JSON array of FileSystemWatcher); the changes the client then
//                           sends are kept in `watched` (paths as URIs, in arrival order)
// `fake/flood` sends what a hostile server may send without end, then answers (see its handler);
// `fake/grow` allocates memory until killed (never answers);
// `fake/slow` never answers until cancelled; `fake/stats` reports what the server saw (`slow`
// counts the `fake/slow` requests received, so a test can cancel one it knows arrived).
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import process from 'node:process';
import { setTimeout } from 'node:timers';
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProtocolConnection, ErrorCodes, ResponseError, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [key, ...rest] = a.replace(/^--/, '').split('=');
    return [key, rest.join('=') || 'true'];
  }),
);
if (args.version) {
  process.stdout.write('fake-lsp 1.0.0\n');
  process.exit(0);
}
const mode = args.mode ?? 'ok';
const stats = { cancelled: 0, slow: 0, opened: [], closed: [], changed: 0, hovers: 0, configuration: null, mode, pid: process.pid, tmpdir: tmpdir(), litter: null, watched: [] };

if (args.litter) {
  stats.litter = join(tmpdir(), `fake-litter-${process.pid}`);
  mkdirSync(stats.litter, { recursive: true });
  writeFileSync(join(stats.litter, 'left-behind'), 'never removed by the server');
}

/**
 * Writes the answer `{ deepOutline: N }` as N symbols each the child of the one before, as text:
 * JSON.stringify (the writer's) recurses and cannot write what a hostile server can.
 */
class DeepWriter extends StreamMessageWriter {
  write(message) {
    if (args['deep-data'] && Array.isArray(message?.result) && message.result.some((item) => item?.data?.deepData !== undefined)) {
      const depth = Number(args['deep-data']);
      const body = JSON.stringify(message).split('{"deepData":true}').join(`${'['.repeat(depth)}${']'.repeat(depth)}`);
      process.stdout.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      return Promise.resolve();
    }
    const depth = message?.result?.deepOutline;
    if (typeof depth !== 'number') return super.write(message);
    const range = '{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}';
    const parts = [];
    for (let level = 0; level < depth; level++) parts.push(`{"name":"level${level}","kind":12,"range":${range},"selectionRange":${range},"children":[`);
    const body = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":[${parts.join('')}${']}'.repeat(depth)}]}`;
    process.stdout.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    return Promise.resolve();
  }
}

const connection = createProtocolConnection(new StreamMessageReader(process.stdin), new DeepWriter(process.stdout));

if (mode === 'hang') {
  process.on('SIGTERM', () => {
    /* ignored on purpose: the client must escalate to SIGKILL */
  });
  const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  if (args.pidfile) writeFileSync(args.pidfile, String(grandchild.pid));
}

if (mode === 'flood') {
  const line = `flood ${'x'.repeat(1000)}\n`;
  const chunk = line.repeat(64);
  const pump = () => {
    // Write until the pipe pushes back, then continue when drained: as fast as the client reads.
    while (process.stderr.write(chunk)) {
      /* keep writing */
    }
    process.stderr.once('drain', pump);
  };
  pump();
}

/** With --journal, notes a message's arrival in the journal file. */
const journal = (method) => {
  if (args.journal) appendFileSync(args.journal, `${process.pid} ${method}\n`);
};

connection.onRequest('initialize', () => {
  journal('initialize');
  if (mode === 'die-on-init') {
    process.stderr.write('fake: dying during initialize\n');
    process.exit(2);
  }
  if (mode === 'refuse-init') throw new ResponseError(-32603, 'fake: refusing to initialize');
  return initializeResult();
});

const initializeResult = () => ({
  capabilities: { hoverProvider: true, definitionProvider: true, textDocumentSync: 1, positionEncoding: args.encoding ?? 'utf-16', ...(args.types ? { typeHierarchyProvider: true } : {}), ...(args.outline ? { documentSymbolProvider: true } : {}) },
  serverInfo: { name: 'fake-lsp', version: '1.0.0' },
});

/** Resolved by `fake/finish-progress`; with --hold-progress the work ends only then. */
let finishProgress = () => {};
const progressHeld = args['hold-progress'] ? new Promise((resolve) => (finishProgress = resolve)) : Promise.resolve();
connection.onRequest('fake/finish-progress', () => {
  finishProgress();
  return null;
});

connection.onNotification('initialized', async () => {
  journal('initialized');
  if (args.watch) {
    const watchers = JSON.parse(args.watch);
    await connection.sendRequest('client/registerCapability', { registrations: [{ id: 'fake-watch', method: 'workspace/didChangeWatchedFiles', registerOptions: { watchers } }] });
  }
  stats.configuration = await connection.sendRequest('workspace/configuration', { items: [{ section: 'fake' }, { section: 'fake.nested.value' }, { section: 'missing' }] });
  if (mode === 'progress') {
    for (let i = 0; i < Number(args['progress-flood'] ?? 0); i++) {
      void connection.sendNotification('$/progress', { token: `flood-${i}`, value: { kind: 'begin', title: `Flood ${i}` } });
    }
    const token = 'fake-indexing';
    await connection.sendRequest('window/workDoneProgress/create', { token });
    await connection.sendNotification('$/progress', { token, value: { kind: 'begin', title: args['progress-title'] ?? 'Indexing', percentage: 0 } });
    for (const percentage of [25, 50, 75]) {
      await new Promise((r) => setTimeout(r, 60));
      await connection.sendNotification('$/progress', { token, value: { kind: 'report', message: `${percentage / 25}/4 (crates)`, percentage } });
    }
    await new Promise((r) => setTimeout(r, 60));
    await progressHeld;
    await connection.sendNotification('$/progress', { token, value: { kind: 'end' } });
  }
});

/** Answers only when the request is cancelled (then with RequestCancelled), counting the cancellation. */
function cancelledOnly(token) {
  return new Promise((resolve) => {
    token.onCancellationRequested(() => {
      stats.cancelled++;
      resolve(new ResponseError(-32800, 'cancelled'));
    });
  });
}

connection.onRequest('textDocument/hover', async (params, token) => {
  stats.hovers++;
  if (mode === 'hang') return new Promise(() => {});
  if (args['slow-hover']) return cancelledOnly(token);
  if (mode === 'crash' && !(args.state && existsSync(args.state))) {
    if (args.state) writeFileSync(args.state, 'crashed');
    process.stderr.write('fake: crashing on purpose\n');
    process.exit(3);
  }
  if (mode === 'content-modified' && stats.hovers === 1) throw new ResponseError(-32801, 'content modified');
  return { contents: { kind: 'markdown', value: `hover #${stats.hovers} at ${params.position.line}:${params.position.character} (${mode}, pid ${process.pid})` } };
});

connection.onRequest('fake/slow', (_params, token) => {
  stats.slow++;
  if (mode === 'hang') return new Promise(() => {});
  return cancelledOnly(token);
});

// `fake/huge` never answers: it begins a message whose header claims a gigabyte, writes a little
// of it, and waits — the client must not buffer what a header claims.
connection.onRequest('fake/huge', () => {
  process.stdout.write(`Content-Length: ${1024 * 1024 * 1024}\r\n\r\n{"jsonrpc":"2.0","method":"window/logMessage","params":{"type":3,"message":"`);
  process.stdout.write('x'.repeat(1024 * 1024));
  return new Promise(() => {});
});

// `fake/grow` never answers: it allocates (and touches) 16 MB every 20 ms, up to 2 GB, as a
// language server reading /dev/zero does, until the client kills it for its memory.
const held = [];
connection.onRequest('fake/grow', () => {
  const grow = () => {
    if (held.length >= 128) return;
    held.push(Buffer.alloc(16 * 1024 * 1024, 1));
    setTimeout(grow, 20);
  };
  grow();
  return new Promise(() => {});
});

// `fake/after` answers after `params.ms`: a long request on a live server (like references of a
// name used thousands of times), which keeps answering everything else meanwhile.
connection.onRequest('fake/after', (params) => new Promise((resolve) => setTimeout(() => resolve('done'), params.ms)));

// `fake/flood` sends, then answers: `publish` documents' diagnostics (`documents` URIs under `base`,
// `perDocument` diagnostics each of `messageChars` characters, with a `data` payload; `malformed`
// adds diagnostics without a range or message), `registrations` watch registrations of
// `watchersEach` globs each, `errors` error messages (`window/showMessage`) of `messageChars`, and
// an unhealthy `experimental/serverStatus` of `messageChars`. Notifications and requests go out
// before the answer, so the client has read them all when the answer arrives.
connection.onRequest('fake/flood', async (params) => {
  const text = (i) => `message ${i} ${'m'.repeat(Math.max(0, (params.messageChars ?? 20) - 20))}`;
  for (let d = 0; d < (params.documents ?? 0); d++) {
    const diagnostics = [];
    for (let i = 0; i < (params.perDocument ?? 1); i++) {
      diagnostics.push({ range: { start: { line: 0, character: i }, end: { line: 0, character: i + 1 } }, severity: 1, source: 'fake', message: text(i), data: { payload: 'p'.repeat(params.dataChars ?? 0) } });
    }
    if (params.malformed) diagnostics.push({ severity: 1, message: 'no range' }, { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } }, null);
    void connection.sendNotification('textDocument/publishDiagnostics', { uri: `${params.base}/flood-${d}.fake`, diagnostics });
  }
  for (let r = 0; r < (params.registrations ?? 0); r++) {
    const watchers = Array.from({ length: params.watchersEach ?? 1 }, (_, i) => ({ globPattern: `**/flood-${r}-${i}/*.fake` }));
    void connection.sendRequest('client/registerCapability', { registrations: [{ id: `flood-${r}`, method: 'workspace/didChangeWatchedFiles', registerOptions: { watchers } }] });
  }
  for (let e = 0; e < (params.errors ?? 0); e++) void connection.sendNotification('window/showMessage', { type: 1, message: `error ${e} ${text(e)}` });
  if (params.status) void connection.sendNotification('experimental/serverStatus', { health: 'error', quiescent: true, message: text(0) });
  return 'flooded';
});
if (args['deep-outline']) {
  connection.onRequest('textDocument/documentSymbol', () => ({ deepOutline: Number(args['deep-outline']) }));
}
connection.onRequest('fake/stats', () => stats);
connection.onNotification('workspace/didChangeWatchedFiles', (params) => {
  for (const change of params.changes ?? []) stats.watched.push(change.uri);
});
connection.onRequest('fake/echo', (params) => params);

/** Open documents' texts (uri → text), for --publish-diagnostics and --types. */
const texts = new Map();

connection.onNotification('textDocument/didClose', (params) => {
  stats.closed.push(params.textDocument.uri);
  texts.delete(params.textDocument.uri);
});

connection.onNotification('textDocument/didOpen', (params) => {
  journal('textDocument/didOpen');
  stats.opened.push({ uri: params.textDocument.uri, languageId: params.textDocument.languageId, version: params.textDocument.version });
  texts.set(params.textDocument.uri, params.textDocument.text);
  if (args['publish-diagnostics']) publishMarkers(params.textDocument.uri, params.textDocument.version, params.textDocument.text);
});

/** Publishes an error per `ERROR` of a text a moment later, as a server does once it has analysed the file. */
function publishMarkers(uri, version, text) {
  setTimeout(() => {
    const diagnostics = [];
    text.split('\n').forEach((line, l) => {
      for (let at = line.indexOf('ERROR'); at >= 0; at = line.indexOf('ERROR', at + 1)) {
        diagnostics.push({ range: { start: { line: l, character: at }, end: { line: l, character: at + 5 } }, severity: 1, code: 'F1', source: 'fake', message: 'an ERROR marker' });
      }
    });
    connection.sendNotification('textDocument/publishDiagnostics', { uri, version, diagnostics });
  }, Number(args['publish-delay'] ?? 50));
}

/** `class NAME extends BASE` declarations of the open documents (UTF-16 columns; tests use ASCII). */
function classes() {
  const out = [];
  for (const [uri, text] of texts) {
    text.split('\n').forEach((line, l) => {
      const m = /^class (\w+)(?: extends (\w+))?/.exec(line);
      if (m) out.push({ uri, name: m[1], base: m[2], line: l, character: 6 });
    });
  }
  return out;
}
const itemOf = (c) => {
  const range = { start: { line: c.line, character: c.character }, end: { line: c.line, character: c.character + c.name.length } };
  return { name: c.name, kind: 5, uri: c.uri, range, selectionRange: range, data: args['deep-data'] ? { deepData: true } : c.name };
};
function wordAt(uri, position) {
  const line = (texts.get(uri) ?? '').split('\n')[position.line] ?? '';
  let start = position.character;
  let end = position.character;
  while (start > 0 && /\w/.test(line[start - 1])) start--;
  while (end < line.length && /\w/.test(line[end])) end++;
  return line.slice(start, end);
}
if (args.types) {
  connection.onRequest('textDocument/definition', (params) => {
    const found = classes().find((c) => c.name === wordAt(params.textDocument.uri, params.position));
    return found ? { uri: found.uri, range: itemOf(found).selectionRange } : null;
  });
  connection.onRequest('textDocument/prepareTypeHierarchy', (params) => {
    const found = classes().find((c) => c.name === wordAt(params.textDocument.uri, params.position));
    return found ? [itemOf(found)] : null;
  });
  connection.onRequest('typeHierarchy/supertypes', ({ item }) => {
    const self = classes().find((c) => c.name === item.name);
    return classes().filter((c) => c.name === self?.base).map(itemOf);
  });
  connection.onRequest('typeHierarchy/subtypes', ({ item }) => classes().filter((c) => c.base === item.name).map(itemOf));
}
connection.onNotification('textDocument/didChange', (params) => {
  stats.changed++;
  const text = params.contentChanges?.[0]?.text;
  if (typeof text === 'string') {
    texts.set(params.textDocument.uri, text);
    if (args['publish-diagnostics']) publishMarkers(params.textDocument.uri, params.textDocument.version, text);
  }
});

// Hang mode answers `initialize` only: every LSP request without its own handler waits forever too
// (a specific handler still wins), so a client is always mid-request when a test acts on it. Its
// message loop stays alive, as a busy server's does: `$/` requests (the liveness probe) get
// MethodNotFound at once.
if (mode === 'hang') {
  connection.onRequest((method) => (method.startsWith('$/') ? new ResponseError(ErrorCodes.MethodNotFound, `unhandled ${method}`) : new Promise(() => {})));
}

connection.onRequest('shutdown', () => (mode === 'hang' ? new Promise(() => {}) : null));
connection.onNotification('exit', () => {
  if (mode !== 'hang') process.exit(0);
});
connection.onClose(() => {
  if (mode !== 'hang') process.exit(0);
});
connection.listen();
