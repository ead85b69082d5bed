/**
 * The conformance suite against VS Code: the same questions and expected answers as the spawned
 * TypeScript server (ide-adapter/test/functions-typescript.test.ts, functions-ts-monorepo.test.ts),
 * asked by a real Dialect client (`RemoteBackend` + the IDE functions) of the Dialect extension
 * inside a real code-server with headless Chromium, answered by VS Code's built-in TypeScript
 * features.
 */
import { describe } from 'vitest';
import { typeScriptAppConformance } from '../../ide-adapter/test/support/conformance.js';
import { typeScriptMonorepoConformance } from '../../ide-adapter/test/support/conformance-monorepo.js';
import { requireRig } from './support/rig.js';
import { openVsCodeSession } from './support/session.js';

const rig = await requireRig();

const open = (fixture: string, prepare?: (root: string) => Promise<void>) => openVsCodeSession(rig as NonNullable<typeof rig>, fixture, prepare);

describe.skipIf(rig === undefined)('IDE functions answered by VS Code (fixtures/ts-app in code-server)', () => {
  typeScriptAppConformance(open);
});

describe.skipIf(rig === undefined)('exact names on a TypeScript monorepo answered by VS Code (fixtures/ts-monorepo in code-server)', () => {
  typeScriptMonorepoConformance(open, { overloadsNotMerged: true });
});
