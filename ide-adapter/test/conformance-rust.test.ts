/**
 * Rust's row of the conformance table (conformance/rust.cases.ts) against the rust-analyzer
 * `dialect` spawns itself (`LspBackend`), with the focused checks on the same session
 * (support/conformance-rust.ts, support/functions-rust-checks.ts); vscode/test/rust.test.ts asks the extension's own the same.
 */
import { describe } from 'vitest';
import { IdeSession } from '../session.js';
import { rustConformance } from './conformance/rust.cases.js';
import { runConformance } from './support/conformance-table.js';
import { rustLoadedCompletely, rustStdMissingConformance, stdlessEnv } from './support/conformance-rust.js';
import { copyFixture } from './support/servers.js';
import { rustFunctionChecks } from './support/functions-rust-checks.js';
import { fixtureSession, openFixtureSession, serversAvailable } from './support/session.js';

/** How long a session without std may take to load (it gives up on std quickly). */
const READY_TIMEOUT_MS = 120_000;

const available = await serversAvailable('rust');

describe.skipIf(!available)('the spawned rust-analyzer', () => {
  runConformance(rustConformance, openFixtureSession, 'the spawned rust-analyzer', {
    focused: (session) => {
      rustLoadedCompletely(session);
      rustFunctionChecks(session);
    },
  });
});

describe.skipIf(!available)('Rust without std, answered by the spawned rust-analyzer (fixtures/rust-app)', () => {
  rustStdMissingConformance(async (fixture) => {
    const { env, dispose } = await stdlessEnv();
    const copy = await copyFixture(fixture);
    const session = await IdeSession.open({ workspaceRoot: copy.root, env, readyTimeoutMs: READY_TIMEOUT_MS });
    await session.waitUntilReady({ timeoutMs: READY_TIMEOUT_MS });
    return fixtureSession(session, copy.root, async () => {
      await copy.dispose();
      await dispose();
    });
  });
});
