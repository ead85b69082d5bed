/**
 * JavaScript's row of the conformance table (conformance/javascript.cases.ts) against the spawned
 * tsgo; vscode/test/conformance.test.ts asks VS Code the same and compares the answers.
 */
import { runConformance } from './support/conformance-table.js';
import { javaScriptConformance } from './conformance/javascript.cases.js';
import { openFixtureSession, serversAvailable } from './support/session.js';
import { describe } from 'vitest';

const available = await serversAvailable('typescript');

describe.skipIf(!available)('the spawned tsgo', () => {
  runConformance(javaScriptConformance, openFixtureSession, 'the spawned tsgo');
});
