/**
 * Which background server a call belongs to: one per (workspace real path, trust, what the
 * environment resolves to that changes answers — answer-inputs.ts). The identity names the files
 * of that server in the runtime folder; the hash keeps the socket path short (Unix socket paths
 * are limited to ~107 bytes).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { answerInputsFingerprint } from './answer-inputs.js';
import { ID_HEX_DIGITS } from './record.js';

/** What decides which server answers a call. */
export interface IdentityInput {
  /** The workspace's real path (symlinks resolved). */
  readonly workspaceRoot: string;
  /** Decided by the client (`--trust` or the trust store): an untrusted call never uses a trusted server, and vice versa. */
  readonly trusted: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** A server's identity and its files in the runtime folder. */
export interface ServerIdentity {
  /** {@link ID_HEX_DIGITS} hex digits. */
  readonly id: string;
  readonly workspaceRoot: string;
  readonly trusted: boolean;
  readonly socketPath: string;
  /** `<id>.json`: pid, workspace, trust, build, start time. */
  readonly recordPath: string;
  /** `<id>.lock`: held (O_EXCL) by whoever starts the server, then by the server. */
  readonly lockPath: string;
  /** `<id>.log`: the server's stderr. */
  readonly logPath: string;
}

/** The identity of the server for `input`, with its files under `runtimeDir`. */
export function serverIdentity(runtimeDir: string, input: IdentityInput): ServerIdentity {
  const id = createHash('sha256')
    .update(JSON.stringify([input.workspaceRoot, input.trusted ? 'trusted' : 'untrusted', answerInputsFingerprint(input.workspaceRoot, input.env)]))
    .digest('hex')
    .slice(0, ID_HEX_DIGITS);
  const file = (ext: string): string => join(runtimeDir, `${id}.${ext}`);
  return { id, workspaceRoot: input.workspaceRoot, trusted: input.trusted, socketPath: file('sock'), recordPath: file('json'), lockPath: file('lock'), logPath: file('log') };
}
