/**
 * A call site is listed once. pyright answers a method called through `self` (`self.area()`) with
 * the same range twice in `callHierarchy/incomingCalls` (seen on pallets/flask:
 * `callers(findDefinition("Flask.make_response"))` showed each call twice). A caller is named as
 * lookups name it (pyright's call items say `function` for a method, with no class: seen on
 * pallets/click's `callers("Context.invoke")`). Real pyright on a copy of fixtures/py-app, whose
 * `Shape.describe` calls `self.area()`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pythonServer } from '../languages/python/index.js';
import { requireServer } from './support/servers.js';
import { openFixtureSession, type FixtureSession } from './support/session.js';

const available = (await requireServer(pythonServer)) !== undefined;

describe.runIf(available)('Python callers (real pyright, fixtures/py-app)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('py-app');
  });
  afterAll(async () => {
    await f?.dispose();
  });

  it('lists a call through self once', async () => {
    const call = await f.at('src/shapes/base.py', 'self.area()');
    const callers = (await f.value('callers(findDefinition("Shape.area"))')) as { name: string; callSites: { path: string; start: { line: number; column: number } }[] }[];
    const describe_ = callers.find((c) => c.name === 'describe');
    const sites = (describe_?.callSites ?? []).map((s) => `${s.path}:${s.start.line}:${s.start.column}`);
    expect(sites).toEqual([`src/shapes/base.py:${call.line}:${call.column + 'self.'.length}`]);
  });

  it('names a caller that is a method as the outline does: a method, with its class (pyright says function)', async () => {
    const callers = (await f.value('callers(findDefinition("Shape.area"))')) as { name: string; kind: string; container?: string }[];
    const describe_ = callers.find((c) => c.name === 'describe');
    const total = callers.find((c) => c.name === 'total_area');
    expect([describe_?.kind, describe_?.container]).toEqual(['method', 'Shape']);
    expect([total?.kind, total?.container]).toEqual(['function', undefined]);
  });
});
