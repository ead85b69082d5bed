/** The Python conformance table (conformance/python.cases.ts) against the pyright `dialect` spawns itself. */
import { describe } from 'vitest';
import { pythonServer } from '../languages/python/index.js';
import { pythonConformance } from './conformance/python.cases.js';
import { runConformance } from './support/conformance-table.js';
import { requireServer } from './support/servers.js';
import { openFixtureSession } from './support/session.js';

const available = (await requireServer(pythonServer)) !== undefined;

describe.skipIf(!available)('Python', () => {
  runConformance(pythonConformance, openFixtureSession, 'the spawned pyright');
});
