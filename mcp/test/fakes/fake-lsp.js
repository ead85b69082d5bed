#!/usr/bin/env node
// A small fake language server for the MCP tests (node only, no real language needed).
//   --index-ms=N    after `initialized`, report $/progress "Indexing" work for N ms (0: none)
//   --health=LEVEL:MESSAGE  on `initialized`, report rust-analyzer's `experimental/serverStatus`
//                   with that health (warning|error), quiescent, and the message
// workspace/symbol: "Widget" is defined in widget.fake ("class Widget {}", line 1); the query
// "Slowpoke" never answers until it is cancelled ($/cancelRequest), which `fake/stats` counts.
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { createProtocolConnection, ResponseError, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';

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
const indexMs = Number(args['index-ms'] ?? 0);
const stats = { cancelled: 0, slowRequests: 0, symbolRequests: 0, pid: process.pid };
let rootUri = '';

const connection = createProtocolConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));

connection.onRequest('initialize', (params) => {
  rootUri = params.rootUri ?? params.workspaceFolders?.[0]?.uri ?? '';
  return {
    capabilities: { workspaceSymbolProvider: true, textDocumentSync: 1, positionEncoding: 'utf-16' },
    serverInfo: { name: 'fake-lsp', version: '1.0.0' },
  };
});

connection.onNotification('initialized', async () => {
  if (typeof args.health === 'string') {
    const [health, ...message] = args.health.split(':');
    await connection.sendNotification('experimental/serverStatus', { health, quiescent: true, message: message.join(':') });
  }
  if (indexMs <= 0) return;
  const token = 'fake-indexing';
  await connection.sendRequest('window/workDoneProgress/create', { token });
  await connection.sendNotification('$/progress', { token, value: { kind: 'begin', title: 'Indexing', percentage: 0 } });
  const steps = Math.max(1, Math.floor(indexMs / 100));
  for (let i = 1; i < steps; i++) {
    await sleep(100);
    await connection.sendNotification('$/progress', { token, value: { kind: 'report', message: `${i}/${steps} files`, percentage: Math.round((100 * i) / steps) } });
  }
  await sleep(100);
  await connection.sendNotification('$/progress', { token, value: { kind: 'end' } });
});

connection.onRequest('workspace/symbol', (params, token) => {
  stats.symbolRequests++;
  if (params.query === 'Slowpoke') {
    stats.slowRequests++;
    return new Promise((resolve) => {
      token.onCancellationRequested(() => {
        stats.cancelled++;
        resolve(new ResponseError(-32800, 'cancelled'));
      });
    });
  }
  if (params.query === 'Widget') {
    return [{ name: 'Widget', kind: 5, location: { uri: `${rootUri.replace(/\/$/, '')}/widget.fake`, range: { start: { line: 0, character: 6 }, end: { line: 0, character: 12 } } } }];
  }
  return [];
});

connection.onRequest('fake/stats', () => stats);

connection.onRequest('shutdown', () => null);
connection.onNotification('exit', () => process.exit(0));
connection.onClose(() => process.exit(0));
connection.listen();
