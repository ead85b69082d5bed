/**
 * `dialect walkthrough render FILE.md`: resolves a walkthrough's Dialect programs against the
 * workspace and writes the page (or prints the JSON), with the summary of what did not resolve
 * on stderr. A page (or the JSON) was made: exit 0, with one line on stderr saying what was written
 * and what the reader still meets (comments to choose, comments that did not resolve, failed
 * diffs) — a page with choices for the reader is a success. Exit 1 only when nothing could be made
 * (the file could not be read, a limit, the page could not be written); a usage error keeps 3 and
 * an interruption its signal's code.
 */
import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { environmentFor, loadWalkthroughFile, PAGE_MARK, renderWalkthroughDocument, WalkthroughError, WalkthroughErrorCode, type LoadedWalkthrough, type ResolvedWalkthrough } from '../walkthrough/index.js';
import { showControls } from '../dialect/index.js';
import { isInside, TIMEOUTS } from '../ide-adapter/index.js';
import { SafeWriteError, writeFileSafelySync } from '../ide-adapter/safe-write.js';
import { CliSession } from './session.js';
import { LiveLine, styles, useColor, type Io } from './terminal.js';
import { ExitCode, UsageError } from './usage.js';
import { listenForInterrupt } from './interrupt.js';

/** The options of `dialect walkthrough render`. */
export interface WalkthroughOptions {
  readonly file: string;
  readonly workspace: string;
  readonly output: string | undefined;
  readonly json: boolean;
  readonly open: boolean;
  /** `--trust`: trust the workspace for this run. */
  readonly trust?: boolean;
  /** `--no-server`: run the language servers in this process instead of the background server. */
  readonly noServer?: boolean;
  readonly io: Io;
}

const OPEN_TIMEOUT_MS = TIMEOUTS.cli.walkthroughOpenMs;

/**
 * The workspace's real root when `file` lies in it (by its path as given, or under the real
 * root): such a walkthrough is a workspace file, read confined, so a link the repository ships
 * cannot make it a file outside. A walkthrough the user names elsewhere is theirs to name.
 */
function workspaceHolding(file: string, workspace: string): string | undefined {
  let root: string;
  try {
    root = realpathSync(resolve(workspace));
  } catch {
    return undefined; // no such workspace: the session says so
  }
  return isInside(resolve(workspace), file) || isInside(root, file) ? root : undefined;
}

/** Runs `dialect walkthrough render`: resolves a walkthrough against the workspace and writes its page; returns the exit code. */
export async function runWalkthroughRender(options: WalkthroughOptions): Promise<number> {
  const { io } = options;
  const file = resolve(options.file);
  if (!existsSync(file)) throw new UsageError(`the walkthrough ${options.file} does not exist`, 'usage: dialect walkthrough render FILE.md [--workspace DIR] [-o OUT.html]');
  const s = styles(useColor(io.stderr, io.env));
  // Read and checked against the limits before any language server starts: a walkthrough that is
  // too large is refused at once, with the limit and how to split it.
  let loaded: LoadedWalkthrough;
  try {
    loaded = await loadWalkthroughFile(file, undefined, workspaceHolding(file, options.workspace));
  } catch (error) {
    // No page can be made: exit 1 (the read error names the file itself).
    if (error instanceof WalkthroughError && (error.code === WalkthroughErrorCode.ReadFailed || error.code === WalkthroughErrorCode.LimitExceeded)) {
      io.stderr.write(`${s.red('dialect walkthrough:')} ${showControls(`${error.code === WalkthroughErrorCode.ReadFailed ? '' : `${options.file}: `}${error.message}`)}\n`);
      return ExitCode.Error;
    }
    throw error;
  }
  const cli = await CliSession.open({ workspaceRoot: options.workspace, eager: true, trust: options.trust === true, env: options.io.env, server: options.noServer !== true });
  const interrupt = listenForInterrupt();
  const live = new LiveLine(io.stderr);
  try {
    // Names are looked up through the servers, which answer "no such symbol" while they index.
    await cli
      .waitUntilSettled({ signal: interrupt.signal, timeoutMs: TIMEOUTS.cli.settleMs, onProgress: (text) => live.show(s.dim(`⋯ ${text}`)) })
      .catch(() => false);
    live.clear();
    if (interrupt.interrupted) return interrupt.exitCode;
    let rendered;
    try {
      rendered = await renderWalkthroughDocument(loaded.document, environmentFor(cli.session), { signal: interrupt.signal, title: loaded.title });
    } catch (error) {
      if (error instanceof WalkthroughError && error.code === WalkthroughErrorCode.Cancelled) return interrupt.exitCode;
      if (error instanceof WalkthroughError && error.code === WalkthroughErrorCode.LimitExceeded) {
        io.stderr.write(`${s.red('dialect walkthrough:')} ${showControls(`${options.file}: ${error.message}`)}\n`);
        return ExitCode.Error;
      }
      throw error;
    }
    io.stderr.write(`${showControls(rendered.summary)}\n`);
    for (const notice of cli.notices) io.stderr.write(`${s.yellow('note:')} ${showControls(notice)}\n`);
    if (options.json) io.stdout.write(`${JSON.stringify(rendered.json, null, 2)}\n`);
    const out = options.output !== undefined ? resolve(options.output) : !options.json || options.open ? join(dirname(file), `${basename(file, extname(file))}.html`) : undefined;
    if (out !== undefined) {
      try {
        // Beside the walkthrough may be the repository's own file, or a link it ships: a page replaces only a page.
        writeFileSafelySync(out, rendered.html, { replace: { kind: 'ours', prefix: PAGE_MARK, what: 'a walkthrough page Dialect wrote' }, alternative: 'choose another place with -o OUT.html' });
      } catch (error) {
        const why = error instanceof SafeWriteError ? `${showControls(error.message)}; ${showControls(error.hint ?? '')}` : `could not write the page ${showControls(out)}: ${error instanceof Error ? error.message : String(error)}; choose another place with -o OUT.html`;
        io.stderr.write(`${s.red('dialect walkthrough:')} ${why}\n`);
        return ExitCode.Error;
      }
    }
    const made = out !== undefined ? `wrote ${out}` : 'printed the JSON';
    io.stderr.write(`${s.green('✓')} ${showControls(made)}${outcomeSuffix(rendered.resolved)}\n`);
    if (out !== undefined && options.open) await openInBrowser(out, io);
    return ExitCode.Value;
  } finally {
    live.clear();
    interrupt.dispose();
    await cli.shutdown();
  }
}

/**
 * What the reader of a written page still meets, as the tail of the one "✓ wrote" line
 * (` — 2 comments ask the reader to choose a location; 1 comment did not resolve (see above)`),
 * or nothing when everything resolved.
 */
export function outcomeSuffix(resolved: ResolvedWalkthrough): string {
  const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
  const statuses = resolved.comments.map((c) => c.resolution.status);
  const ambiguous = statuses.filter((status) => status === 'ambiguous').length;
  const unresolved = statuses.filter((status) => status === 'unresolved').length;
  const failedDiffs = resolved.diffs.filter((d) => d.error !== undefined).length;
  const parts = [
    ...(ambiguous > 0 ? [`${count(ambiguous, 'comment asks', 'comments ask')} the reader to choose a location`] : []),
    ...(unresolved > 0 ? [`${count(unresolved, 'comment', 'comments')} did not resolve (see above)`] : []),
    ...(failedDiffs > 0 ? [`${count(failedDiffs, 'diff', 'diffs')} could not be made (see above)`] : []),
  ];
  return parts.length > 0 ? ` — ${parts.join('; ')}` : '';
}

/** Opens a file with xdg-open when there is one; otherwise says where it is. */
function openInBrowser(path: string, io: Io): Promise<void> {
  return new Promise((done) => {
    execFile('xdg-open', [path], { timeout: OPEN_TIMEOUT_MS, killSignal: 'SIGKILL' }, (error) => {
      if (error !== null) {
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
        io.stderr.write(`${missing ? 'xdg-open is not installed' : `xdg-open failed: ${error.message}`}; open ${pathToFileURL(path).href} in a browser\n`);
      }
      done();
    });
  });
}
