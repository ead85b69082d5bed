/**
 * Exact names on a real monorepo shape (fixtures/ts-monorepo) against the real TypeScript 7
 * server: the monorepo conformance questions (support/conformance-monorepo.ts), which VS Code's
 * TypeScript features answer too (vscode/test/conformance.test.ts).
 */
import { describe } from 'vitest';
import { typeScriptMonorepoConformance } from './support/conformance-monorepo.js';
import { openFixtureSession, serversAvailable } from './support/session.js';

const available = await serversAvailable('typescript');

describe.skipIf(!available)('exact names on a TypeScript monorepo (fixtures/ts-monorepo)', () => {
  typeScriptMonorepoConformance(openFixtureSession);
});
