/**
 * A qualified name whose qualifier names nothing the definition is in — an import alias
 * (`z.object`, where zod's `import * as z from "./external.js"`), a guessed module — while the
 * name itself is defined: the empty answer says where the name is and which program finds it,
 * instead of fuzzy "similar names". Real tsgo on fixtures/ts-app; positions from the fixture text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFixtureSession, serversAvailable, type FixtureSession } from './support/session.js';

const available = await serversAvailable('typescript');

describe.skipIf(!available)('a qualifier that names nothing a definition is in (fixtures/ts-app)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('ts-app');
  }, 120_000);
  afterAll(async () => {
    await f?.dispose();
  });

  it('findDefinitions: an empty answer, with a note naming the definitions of the last name and the program', async () => {
    const o = await f.outcome('findDefinitions("z.validateToken")');
    expect(o.kind === 'value' ? o.value : o).toEqual([]);
    const auth = await f.nameIn('src/auth.ts', 'export function validateToken', 'validateToken');
    const notes = o.kind === 'value' ? o.notes.join('\n') : '';
    expect(notes).toContain(`"validateToken" is defined as function validateToken at src/auth.ts:${auth.line}`);
    expect(notes).toContain('none of them in "z"');
    expect(notes).toContain('findDefinitions("validateToken")');
    expect(notes).not.toContain('similar names');
  });

  it('findDefinition: the not-found error says the same in its hint', async () => {
    const o = await f.outcome('findDefinition("z.validateToken")');
    expect(o.kind).toBe('error');
    if (o.kind !== 'error') return;
    expect(o.error.code).toBe('symbol-not-found');
    expect(o.error.hint).toContain('none of them in "z"');
    expect(o.error.hint).toContain('findDefinitions("validateToken")');
  });
});
