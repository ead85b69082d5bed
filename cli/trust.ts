/**
 * `dialect trust [DIR]`, `dialect trust --list` and `dialect untrust DIR`: the user's trusted
 * workspace folders (see `ide-adapter/trust.ts`). Only this command and `--trust` grant trust.
 */
import { resolve } from 'node:path';
import { listTrusted, trustedBy, trustFolder, trustStorePath, untrustFolder } from '../ide-adapter/index.js';
import type { Io } from './terminal.js';
import { ExitCode, UsageError } from './usage.js';

/** Options of {@link runTrust}. */
export interface TrustOptions {
  /** The folder; default the current directory. */
  readonly dir: string | undefined;
  /** Print the trusted folders instead. */
  readonly list: boolean;
  readonly io: Io;
}

/** `dialect trust`: trusts a folder, or lists the trusted ones. */
export async function runTrust(options: TrustOptions): Promise<number> {
  const { io } = options;
  const env = io.env;
  if (options.list) {
    if (options.dir !== undefined) throw new UsageError('dialect trust --list takes no folder', 'usage: dialect trust --list');
    const trusted = await listTrusted(env);
    if (trusted.length === 0) io.stderr.write(`no trusted folders (${trustStorePath(env)})\n`);
    for (const dir of trusted) io.stdout.write(`${dir}\n`);
    return ExitCode.Value;
  }
  const dir = resolve(options.dir ?? process.cwd());
  const before = await trustedBy(dir, env);
  const real = await trustFolder(dir, env);
  io.stdout.write(before !== undefined && before !== real ? `trusted ${real} (it was already trusted through ${before})\n` : `trusted ${real}\n`);
  return ExitCode.Value;
}

/** `dialect untrust DIR`. */
export async function runUntrust(options: { readonly dir: string; readonly io: Io }): Promise<number> {
  const { io } = options;
  const env = io.env;
  const removed = await untrustFolder(options.dir, env);
  for (const dir of removed) io.stdout.write(`untrusted ${dir}\n`);
  const still = await trustedBy(options.dir, env);
  if (still !== undefined) {
    io.stderr.write(`dialect untrust: ${resolve(options.dir)} is still trusted through ${still}\n  to stop that: dialect untrust ${still}\n`);
    return ExitCode.Error;
  }
  if (removed.length === 0) io.stdout.write(`${resolve(options.dir)} was not trusted\n`);
  return ExitCode.Value;
}
