/**
 * This process and its ancestors, nearest first. The editor finds the agent's terminal among them:
 * the terminal's shell is an ancestor of the agent, whose child the MCP server is. Parents come
 * from `/proc` where there is one (Linux), else from `ps` (macOS, the BSDs), bounded in time.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { MAX_AGENT_PIDS } from '../walkthrough/editor-protocol.js';

/** The longest one `ps` may take. */
const PS_TIMEOUT_MS = 1_000;

/** Finds the parent of a process, or undefined when it cannot be known. */
export type ParentSource = (pid: number) => number | undefined;

/** A process's parent from `/proc/PID/stat` (the field after the parenthesized command name). */
export const procParent: ParentSource = (pid) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return positive(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
};

/** A process's parent from `ps -o ppid= -p PID`. */
export const psParent: ParentSource = (pid) => {
  try {
    return positive(execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8', timeout: PS_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch {
    return undefined;
  }
};

/** The source this system has. */
function defaultSource(): ParentSource {
  return existsSync('/proc/self/stat') ? procParent : psParent;
}

/** This process and its ancestors (up to {@link MAX_AGENT_PIDS}), nearest first. */
export function processAncestry(parentOf: ParentSource = defaultSource()): number[] {
  const pids = [process.pid];
  let pid: number | undefined = process.ppid;
  while (pid !== undefined && pid > 1 && pids.length < MAX_AGENT_PIDS && !pids.includes(pid)) {
    pids.push(pid);
    pid = parentOf(pid);
  }
  return pids;
}

function positive(text: string | undefined): number | undefined {
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}
