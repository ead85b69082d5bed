/**
 * `dialect mcp`: the MCP server on stdio, from `mcp/`. stdout carries only the protocol, so the
 * CLI prints nothing there; `runMcpServer` logs to stderr and shuts the servers down when the
 * client goes away or a signal arrives.
 */
import { runMcpServer, type McpBackendFactory } from '../mcp/index.js';
import { openBackend } from './server/backend.js';
import { mcpReadyWaitMs, TIMEOUTS } from '../ide-adapter/index.js';
import { signalExitCode } from './interrupt.js';
import { ExitCode } from './usage.js';

/** Runs `dialect mcp`: the MCP server over stdio until the client disconnects; returns the exit code. */
export async function runMcp(options: { readonly workspace: string | undefined; readonly trust?: boolean; readonly noServer?: boolean; readonly deadlineMs?: number }): Promise<number> {
  // `--timeout`: one tool call's deadline, and the index wait within it.
  const deadlineMs = options.deadlineMs ?? TIMEOUTS.mcp.deadlineMs;
  const readyTimeoutMs = mcpReadyWaitMs(deadlineMs);
  // The workspace's background server answers (unless --no-server); it says when it cannot.
  const backend: McpBackendFactory = async (workspaceRoot, configured, log) => {
    const opened = await openBackend({ workspaceRoot, configured, env: process.env, noServer: options.noServer === true, readyTimeoutMs });
    log(opened.mode === 'server' ? 'using the workspace\'s background server' : (opened.notice ?? 'language servers run in this process'));
    return opened.backend;
  };
  // `--trust` trusts the served workspaces (the one given, or the client's roots); folders of
  // walkthroughs inside them follow the user's trust store. Without a workspace: the client's roots.
  const reason = await runMcpServer({ deadlineMs, readyTimeoutMs, ...(options.workspace !== undefined ? { workspaceRoot: options.workspace } : {}), ...(options.trust === true ? { trusted: true } : {}), backend });
  // A client closing the connection is the normal end; a signal ends it the way shells expect.
  return reason === 'SIGINT' || reason === 'SIGTERM' ? signalExitCode(reason) : ExitCode.Value;
}
