/**
 * `dialect mcp`: the MCP server on stdio, from `mcp/`. stdout carries only the protocol, so the
 * CLI prints nothing there; `runMcpServer` logs to stderr and shuts the servers down when the
 * client goes away or a signal arrives.
 */
import { runMcpServer } from '../mcp/index.js';
import { signalExitCode } from './interrupt.js';
import { ExitCode } from './usage.js';

/** Runs `dialect mcp`: the MCP server over stdio until the client disconnects; returns the exit code. */
export async function runMcp(options: { readonly workspace: string; readonly trust?: boolean }): Promise<number> {
  // `--trust` trusts this workspace only; folders of walkthroughs follow the user's trust store.
  const reason = await runMcpServer({ workspaceRoot: options.workspace, ...(options.trust === true ? { trusted: true } : {}) });
  // A client closing the connection is the normal end; a signal ends it the way shells expect.
  return reason === 'SIGINT' || reason === 'SIGTERM' ? signalExitCode(reason) : ExitCode.Value;
}
