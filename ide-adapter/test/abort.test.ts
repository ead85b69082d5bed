/**
 * onAbort (lsp/abort.ts): many waits on one AbortSignal share one native listener, which goes away
 * with the last wait; every wait hears the abort once.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { onAbort } from '../lsp/abort.js';

describe('onAbort', () => {
  it('adds one listener to a signal however many waits share it, and removes it with the last', () => {
    const controller = new AbortController();
    const unsubscribes = Array.from({ length: 500 }, () => onAbort(controller.signal, () => undefined));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    for (const unsubscribe of unsubscribes.slice(1)) unsubscribe();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    unsubscribes[0]?.();
    unsubscribes[0]?.(); // twice is harmless
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    // A new wait after all left installs the listener again.
    let heard = 0;
    onAbort(controller.signal, () => heard++);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort();
    expect(heard).toBe(1);
  });

  it('calls every subscribed wait once on abort, skips unsubscribed ones, survives a throwing one', () => {
    const controller = new AbortController();
    const heard: number[] = [];
    const same = () => heard.push(0);
    onAbort(controller.signal, same);
    onAbort(controller.signal, same); // the same function twice is two waits
    onAbort(controller.signal, () => {
      throw new Error('faulty waiter');
    });
    const gone = onAbort(controller.signal, () => heard.push(99));
    onAbort(controller.signal, () => heard.push(2));
    gone();
    controller.abort();
    controller.abort();
    expect(heard).toEqual([0, 0, 2]);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('calls at once for an aborted signal and never for none', () => {
    let heard = 0;
    const unsubscribe = onAbort(AbortSignal.abort(), () => heard++);
    expect(heard).toBe(1);
    unsubscribe();
    onAbort(undefined, () => heard++)();
    expect(heard).toBe(1);
  });
});
