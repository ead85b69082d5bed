/**
 * `dialect eval -`: the program read from stdin, bounded. The warm `dialect eval` reads it before
 * it knows who evaluates it, and hands what it read on to the command when that must run.
 */
import { UsageError } from './usage.js';

/** Programs read from stdin may be at most this long. */
export const MAX_PROGRAM_BYTES = 4 * 1024 * 1024;

/** What was read of stdin: all of it (`complete`), or the chunks read until it went over the limit. */
export interface StdinRead {
  readonly complete: boolean;
  readonly chunks: readonly Buffer[];
}

/** Reads stdin to its end, or until it is longer than {@link MAX_PROGRAM_BYTES}. */
export async function readStdin(stdin: NodeJS.ReadableStream): Promise<StdinRead> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    chunks.push(buffer);
    if (size > MAX_PROGRAM_BYTES) return { complete: false, chunks };
  }
  return { complete: true, chunks };
}

/** The program on stdin; a {@link UsageError} when it is longer than {@link MAX_PROGRAM_BYTES}. */
export async function readStdinProgram(stdin: NodeJS.ReadableStream): Promise<string> {
  const read = await readStdin(stdin);
  if (!read.complete) throw new UsageError(`the program on stdin is longer than ${MAX_PROGRAM_BYTES / 1024 / 1024} MB`);
  return Buffer.concat(read.chunks).toString('utf8');
}
