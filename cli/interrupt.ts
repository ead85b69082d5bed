/**
 * Interruption of one-shot commands: SIGINT, SIGTERM or SIGHUP abort the running work (which
 * cancels server requests) instead of killing the process, so servers are shut down cleanly.
 */
export interface Interrupt {
  /** Aborted when a signal arrives. */
  readonly signal: AbortSignal;
  /** Whether a signal arrived. */
  readonly interrupted: boolean;
  /** Stops listening for signals. */
  dispose(): void;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Listens for termination signals until disposed. */
export function listenForInterrupt(): Interrupt {
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  for (const s of SIGNALS) process.on(s, onSignal);
  return {
    signal: controller.signal,
    get interrupted() {
      return controller.signal.aborted;
    },
    dispose: () => {
      for (const s of SIGNALS) process.off(s, onSignal);
    },
  };
}
