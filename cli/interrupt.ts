/**
 * Interruption of one-shot commands: SIGINT, SIGTERM or SIGHUP abort the running work (which
 * cancels server requests) instead of killing the process, so servers are shut down cleanly.
 * The command then exits the way shells report a death by that signal: 128 + its number
 * (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP).
 */
import { constants } from 'node:os';
import { ExitCode } from './usage.js';

/** The Ctrl-C / SIGTERM state of a command: a signal to pass on and the exit code to end with. */
export interface Interrupt {
  /** Aborted when a signal arrives. */
  readonly signal: AbortSignal;
  /** Whether a signal arrived. */
  readonly interrupted: boolean;
  /** The exit code for the (first) signal that arrived; `ExitCode.Interrupted` if none did. */
  readonly exitCode: number;
  /** Stops listening for signals. */
  dispose(): void;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Listens for termination signals until disposed. */
export function listenForInterrupt(): Interrupt {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  const onSignal = (name: NodeJS.Signals): void => {
    received ??= name;
    controller.abort();
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  return {
    signal: controller.signal,
    get interrupted() {
      return controller.signal.aborted;
    },
    get exitCode() {
      return received === undefined ? ExitCode.Interrupted : signalExitCode(received);
    },
    dispose: () => {
      for (const s of SIGNALS) process.off(s, onSignal);
    },
  };
}

/** The exit code for ending on `signal`, as shells report it: 128 + the signal's number. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return SIGNAL_EXIT_BASE + constants.signals[signal];
}

/** Shells report a death by signal N as exit status 128 + N. */
const SIGNAL_EXIT_BASE = 128;
