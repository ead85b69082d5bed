/**
 * TypeScript's row of the conformance table (conformance/typescript.cases.ts) against the spawned
 * tsgo; vscode/test/conformance.test.ts asks VS Code the same and compares the answers.
 */
import { runConformance } from './support/conformance-table.js';
import { typeScriptConformance } from './conformance/typescript.cases.js';
import { openFixtureSession, serversAvailable } from './support/session.js';
import { describe } from 'vitest';

const available = await serversAvailable('typescript');

describe.skipIf(!available)('the spawned tsgo', () => {
  runConformance(typeScriptConformance, openFixtureSession, 'the spawned tsgo');
});
