/**
 * Entry point of the stdio server until `dialect mcp` is wired in the CLI:
 * `node dist/mcp/stdio-main.js [--workspace DIR]`.
 */
import { runMcpServer } from './stdio.js';

function workspaceArgument(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--workspace' || arg === '-w') return argv[i + 1];
    if (arg.startsWith('--workspace=')) return arg.slice('--workspace='.length);
  }
  return undefined;
}

try {
  const workspaceRoot = workspaceArgument(process.argv.slice(2));
  const reason = await runMcpServer(workspaceRoot !== undefined ? { workspaceRoot } : {});
  process.exit(reason === 'SIGINT' ? 130 : reason === 'SIGTERM' ? 143 : 0);
} catch (error) {
  process.stderr.write(`dialect mcp: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
