/**
 * One `abort` listener per AbortSignal, however many waits share it.
 *
 * An evaluation hands one signal to every call it runs; hundreds of concurrent requests each
 * adding their own listener trip Node's `MaxListenersExceededWarning` (the limit is 10 per
 * EventTarget) and cost an O(n) scan per removal. Every wait in this layer subscribes here
 * instead: the first subscriber installs the single native listener, the last one to leave
 * removes it, so a long-lived signal keeps nothing of finished requests.
 */

type Callback = () => void;

/** The callbacks waiting on each signal, and the one native listener that fans out to them. */
const fanOuts = new WeakMap<AbortSignal, { readonly callbacks: Set<Callback>; readonly listener: Callback }>();

/**
 * Calls `callback` once when `signal` aborts (at once, synchronously, if it already has).
 * Returns the unsubscribe function; call it when the wait settles. `undefined` signals never abort.
 */
export function onAbort(signal: AbortSignal | undefined, callback: Callback): () => void {
  if (signal === undefined) return noop;
  if (signal.aborted) {
    callback();
    return noop;
  }
  let fanOut = fanOuts.get(signal);
  if (fanOut === undefined) {
    const callbacks = new Set<Callback>();
    const listener = (): void => {
      fanOuts.delete(signal);
      for (const waiting of [...callbacks]) {
        try {
          waiting();
        } catch {
          // One faulty waiter must not keep the others from hearing about the abort.
        }
      }
      callbacks.clear();
    };
    fanOut = { callbacks, listener };
    fanOuts.set(signal, fanOut);
    signal.addEventListener('abort', listener, { once: true });
  }
  // A wrapper per subscription, so the same function subscribed twice is two subscriptions.
  const subscription: Callback = () => callback();
  const { callbacks, listener } = fanOut;
  callbacks.add(subscription);
  return () => {
    if (!callbacks.delete(subscription) || callbacks.size > 0) return;
    signal.removeEventListener('abort', listener);
    if (fanOuts.get(signal)?.listener === listener) fanOuts.delete(signal);
  };
}

function noop(): void {
  // Nothing to undo.
}
