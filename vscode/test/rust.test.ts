/**
 * The adapter pattern inside the editor: a VS Code window with no Rust extension, where the
 * Dialect extension spawns rust-analyzer itself (`vscode-languageclient`) and VS Code's own
 * provider commands answer .rs files through it. The Rust row of the conformance table (the same
 * questions and expected answers as the rust-analyzer `dialect` spawns, ide-adapter/test/conformance-rust.test.ts)
 * runs in a real code-server with headless Chromium, with the offline std environment given to
 * code-server (its extension host and the server inherit it) — and without it, where the server's
 * health warning (std not loaded) must reach the completeness warnings as it does for `dialect`.
 */
import { describe, expect, it } from 'vitest';
import { rustConformance } from '../../ide-adapter/test/conformance/rust.cases.js';
import { runConformance } from '../../ide-adapter/test/support/conformance-table.js';
import { rustLoadedCompletely, rustStdMissingConformance, stdlessEnv } from '../../ide-adapter/test/support/conformance-rust.js';
import { rustOfflineEnv } from '../../ide-adapter/test/support/rust-offline.js';
import { requireServer } from '../../ide-adapter/test/support/servers.js';
import { rustAnalyzerServer } from '../../ide-adapter/languages/rust/index.js';
import { requireRig } from './support/rig.js';
import { openVsCodeSession, type VsCodeFixtureSession } from './support/session.js';

const rig = await requireRig();
const env = await rustOfflineEnv();
const rustAnalyzer = await requireServer(rustAnalyzerServer, env);

describe.skipIf(rig === undefined || rustAnalyzer === undefined)('Rust answered by the rust-analyzer the extension spawns in VS Code (fixtures/rust-app in code-server)', () => {
  let opened: VsCodeFixtureSession | undefined;
  const open = async (fixture: string, prepare?: (root: string) => Promise<void>): Promise<VsCodeFixtureSession> => {
    opened = await openVsCodeSession(rig as NonNullable<typeof rig>, fixture, prepare, { env });
    return opened;
  };
  runConformance(rustConformance, open, 'the rust-analyzer the extension spawns in VS Code', {
    knownGaps: {
      diagnostics: "the editor's diagnostics of the new module stay empty (the spawned rust-analyzer's E0308, which Dialect's own rust-analyzer reports, does not reach vscode.languages.getDiagnostics in time)",
    },
    focused: (session) => {
      rustLoadedCompletely(session);
      it('the status names the rust-analyzer the extension spawned, ready', async () => {
        const status = opened?.session.backend.servers().find((s) => s.id === 'rust-analyzer');
        expect(status?.state).toBe('ready');
        expect(status?.displayName).toContain('spawned by Dialect');
      });
    },
  });
});

describe.skipIf(rig === undefined || rustAnalyzer === undefined)('Rust without std, answered by the rust-analyzer the extension spawns in VS Code', () => {
  rustStdMissingConformance(async (fixture, prepare) => {
    const { env: stdless, dispose } = await stdlessEnv();
    try {
      const opened = await openVsCodeSession(rig as NonNullable<typeof rig>, fixture, prepare, { env: stdless });
      return { ...opened, dispose: () => opened.dispose().finally(dispose) };
    } catch (error) {
      await dispose();
      throw error;
    }
  });
});
