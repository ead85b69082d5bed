/**
 * A TypeScript package whose classes keep ECMAScript private members (`#send`) and whose tsconfig's
 * `include` leaves out its tests (sindresorhus/ky's shape), against real tsgo: a private member is
 * named as written, and the tests are searched from the start. Positions come from the fixture text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reference, SymbolDefinition } from '../model.js';
import { openFixtureSession, serversAvailable, type FixtureSession } from './support/session.js';

const available = await serversAvailable('typescript');

describe.skipIf(!available)('ECMAScript private members on tsgo (fixtures/ts-included)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('ts-included');
  }, 120_000);
  afterAll(async () => {
    await f?.dispose();
  });

  it('an ECMAScript private member is named as written, with its class or alone', async () => {
    const send = await f.nameIn('source/core/Client.ts', 'async #send', '#send');
    for (const program of ['findDefinitions("Client.#send")', 'findDefinitions("#send")']) {
      const defs = (await f.value(program)) as SymbolDefinition[];
      expect(defs.map((d) => [d.name, d.definedAt.path, d.definedAt.start.line, d.definedAt.start.column]), program).toEqual([['#send', 'source/core/Client.ts', send.line, send.column]]);
    }
    // JSDoc's `Class#member` still names a public member.
    const create = (await f.value('findDefinitions("Client#create")')) as SymbolDefinition[];
    expect(create.map((d) => d.definedAt.start)).toEqual([await f.nameIn('source/core/Client.ts', 'static create', 'create')]);
    const refs = (await f.value('findReferences("Client.#fetchStatus")')) as Reference[];
    expect(refs.map((r) => r.referencedAt.start)).toContainEqual(await f.at('source/core/Client.ts', '#fetchStatus()', 0));
  });

  it('the tests the include leaves out are opened at the start: their uses are found from the first question', async () => {
    const outcome = await f.outcome('findReferences(findDefinitions("Client.create"))');
    expect(outcome.kind).toBe('value');
    if (outcome.kind !== 'value') return;
    const places = (outcome.value as Reference[]).map((r) => `${r.referencedAt.path}:${r.referencedAt.start.line}:${r.referencedAt.start.column}`);
    const use = await f.at('test/client.ts', 'create(url)', 0);
    expect(places).toContain(`test/client.ts:${use.line}:${use.column}`);
    expect(outcome.notes).toEqual([]);
  });
});
