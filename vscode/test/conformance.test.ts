/**
 * The conformance table against VS Code: the TypeScript and JavaScript rows
 * (ide-adapter/test/conformance/*.cases.ts) asked by a real Dialect client (`RemoteBackend` + the
 * IDE functions) of the Dialect extension inside a real code-server with headless Chromium,
 * answered by VS Code's built-in TypeScript features — and every answer compared with the spawned
 * tsgo's on the same fixture (issue 20: one answer from every backend). The monorepo checks
 * (support/conformance-monorepo.ts) run here too, as the spawned server answers them in
 * ide-adapter/test/functions-ts-monorepo.test.ts.
 */
import { describe } from 'vitest';
import { javaScriptConformance } from '../../ide-adapter/test/conformance/javascript.cases.js';
import { typeScriptConformance } from '../../ide-adapter/test/conformance/typescript.cases.js';
import { runConformance } from '../../ide-adapter/test/support/conformance-table.js';
import { typeScriptMonorepoConformance } from '../../ide-adapter/test/support/conformance-monorepo.js';
import { openFixtureSession, serversAvailable } from '../../ide-adapter/test/support/session.js';
import { requireRig } from './support/rig.js';
import { openVsCodeSession } from './support/session.js';

const rig = await requireRig();
const tsgo = await serversAvailable('typescript');

const open = (fixture: string, prepare?: (root: string) => Promise<void>) => openVsCodeSession(rig as NonNullable<typeof rig>, fixture, prepare);
const spawned = { open: openFixtureSession, backend: 'the spawned tsgo' };

describe.skipIf(rig === undefined || !tsgo)('VS Code', () => {
  runConformance(typeScriptConformance, open, 'VS Code', { sameAs: spawned });
  runConformance(javaScriptConformance, open, 'VS Code', { sameAs: spawned });
});

describe.skipIf(rig === undefined)('exact names on a TypeScript monorepo answered by VS Code (fixtures/ts-monorepo in code-server)', () => {
  typeScriptMonorepoConformance(open, { overloadsNotMerged: true });
});
