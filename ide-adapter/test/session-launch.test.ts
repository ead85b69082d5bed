/**
 * A session's first program is parsed once its start has launched the first server
 * (`IdeBackend.launched`), so that the parse runs beside the server's start-up instead of
 * delaying its spawn; a launch that never comes holds it at most `TIMEOUTS.session.launchWaitMs`.
 * The backend is the in-memory fake: this is the session's own ordering logic.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { IdeSession } from '../session.js';
import { FakeBackend } from './support/fake-backend.js';

let backends: FakeBackend[] = [];

afterEach(async () => {
  for (const backend of backends) await backend.dispose();
  backends = [];
});

/** A fake backend whose start says it launched only when told (`launch`), or never. */
async function launchingBackend(): Promise<{ backend: FakeBackend; launch: () => void }> {
  const backend = await FakeBackend.create({ 'a.ts': 'export const a = 1;\n' });
  backends.push(backend);
  let launch: () => void = () => undefined;
  const launched = new Promise<void>((resolve) => (launch = resolve));
  Object.assign(backend, { launched: () => launched });
  return { backend, launch };
}

/** A few turns of the event loop: far more than a parse of a short program takes (it is synchronous). */
async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('IdeSession: the first program waits for the start to launch', () => {
  it('is parsed only after the launch', async () => {
    const { backend, launch } = await launchingBackend();
    const session = await IdeSession.open({ workspaceRoot: backend.root, backend });
    const order: string[] = [];
    const answered = session.evaluate('findDefinitions(').then((o) => (order.push('answered'), o));
    await turns(5);
    order.push('launched');
    launch();
    const outcome = await answered;
    expect(order).toEqual(['launched', 'answered']);
    expect(outcome.kind).toBe('error');
    await session.shutdown();
  });

  it('is not held by a session that starts nothing (eager: false)', async () => {
    const { backend } = await launchingBackend();
    const session = await IdeSession.open({ workspaceRoot: backend.root, backend, eager: false });
    const order: string[] = [];
    const answered = session.evaluate('findDefinitions(').then(() => order.push('answered'));
    await turns(5);
    order.push('turns done');
    await answered;
    expect(order).toEqual(['answered', 'turns done']);
    await session.shutdown();
  });

  it('a launch that never comes holds it only for the bounded wait', async () => {
    const { backend } = await launchingBackend();
    const session = await IdeSession.open({ workspaceRoot: backend.root, backend });
    const outcome = await session.evaluate('findDefinitions(');
    expect(outcome.kind).toBe('error');
    await session.shutdown();
  });
});
