/**
 * Command-line values made into options: the workspace folder, `--timeout`, and all of
 * `dialect eval`'s. Shared by the command (`main.ts`) and the warm `dialect eval`
 * (`warm-eval.ts`), which must read a command line exactly as the command does.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { TIMEOUTS } from '../ide-adapter/timeouts.js';
import type { EvalOptions } from './eval.js';
import type { Io } from './terminal.js';
import { UsageError, type ParsedCommand } from './usage.js';

/** A parsed command line that names a command. */
type CommandLine = Extract<ParsedCommand, { kind: 'command' }>;

/** The options of `dialect eval` (its program may still be `-`: stdin). Throws a {@link UsageError} for a bad value. */
export function evalOptionsOf(parsed: CommandLine, io: Io): EvalOptions {
  const { values, positionals } = parsed;
  return {
    program: positionals[0] as string,
    workspace: workspaceOf(typeof values['workspace'] === 'string' ? values['workspace'] : undefined),
    json: values['json'] === true,
    quiet: values['quiet'] === true,
    timeoutMs: timeoutOf(values['timeout']),
    trust: values['trust'] === true,
    noServer: values['no-server'] === true,
    io,
  };
}

/** The workspace folder: `--workspace`, else the current directory. Must exist. */
export function workspaceOf(option: string | undefined): string {
  const path = resolve(option ?? process.cwd());
  let isDirectory = false;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    throw new UsageError(`the workspace folder ${path} does not exist`, 'pass an existing folder with --workspace DIR');
  }
  if (!isDirectory) throw new UsageError(`the workspace ${path} is not a folder`, 'pass the project folder with --workspace DIR');
  return path;
}

/** `--timeout SECONDS` in milliseconds, else the default. */
export function timeoutOf(value: string | boolean | undefined, defaultMs: number = TIMEOUTS.cli.evalTimeoutMs): number {
  if (value === undefined || typeof value === 'boolean') return defaultMs;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`--timeout must be a number of seconds, not "${value}"`, 'e.g. --timeout 30');
  return Math.round(seconds * 1000);
}

