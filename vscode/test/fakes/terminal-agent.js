// A terminal agent for tests: run in a VS Code integrated terminal, it does what an agent such as
// a chat CLI does — it runs `dialect mcp` as its child and talks to it over stdio (a real MCP
// client) — and it records its terminal input the way a TUI reads it (raw mode), so a test sees
// exactly what the editor typed into the agent's terminal.
//
//   node terminal-agent.js CONTROL_SOCKET TYPED_FILE DIALECT_BIN WORKSPACE
//
// The test drives it through CONTROL_SOCKET: one JSON line per request,
// {"id": 1, "tool": "present_walkthrough", "arguments": {...}}, answered with one JSON line
// {"id": 1, "result": CallToolResult} (or {"id": 1, "error": "..."}). {"tool": "exit"} ends it.
import { appendFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import process from 'node:process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [controlSocket, typedFile, bin, workspace] = process.argv.slice(2);
/** The longest one tool call may take (walkthroughs wait for the editor's language features). */
const CALL_TIMEOUT_MS = 180_000;

writeFileSync(typedFile, '');
if (process.stdin.isTTY) process.stdin.setRawMode(true);
process.stdin.on('data', (chunk) => appendFileSync(typedFile, chunk));

// The server asks the editor (DIALECT_IDE of this terminal) rather than starting its own servers.
const env = { ...process.env, DIALECT_NO_SERVER: '0' };
const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '--workspace', workspace], env, stderr: 'inherit' });
const client = new Client({ name: 'dialect-terminal-agent', version: '1.0.0' });
await client.connect(transport);

const server = createServer((socket) => {
  let buffered = '';
  socket.on('data', (chunk) => {
    buffered += chunk.toString('utf8');
    let end;
    while ((end = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      void handle(JSON.parse(line), socket);
    }
  });
  socket.on('error', () => socket.destroy());
});

async function handle(request, socket) {
  if (request.tool === 'exit') {
    socket.end(`${JSON.stringify({ id: request.id, result: null })}\n`);
    await client.close();
    server.close();
    process.exit(0);
  }
  try {
    const result = await client.callTool({ name: request.tool, arguments: request.arguments ?? {} }, undefined, { timeout: CALL_TIMEOUT_MS });
    socket.write(`${JSON.stringify({ id: request.id, result })}\n`);
  } catch (error) {
    socket.write(`${JSON.stringify({ id: request.id, error: error instanceof Error ? error.message : String(error) })}\n`);
  }
}

server.listen(controlSocket, () => process.stdout.write(`agent ready on ${controlSocket}\n`));
