/** The Go conformance cases (conformance/go.cases.ts) against the gopls `dialect` spawns itself. */
import { describe } from 'vitest';
import { goplsServer } from '../languages/go/index.js';
import { goConformance } from './conformance/go.cases.js';
import { runConformance } from './support/conformance-table.js';
import { requireServer } from './support/servers.js';
import { openFixtureSession } from './support/session.js';

const available = (await requireServer(goplsServer)) !== undefined;

describe.skipIf(!available)('Go', () => {
  runConformance(goConformance, openFixtureSession, 'the spawned gopls');
});
