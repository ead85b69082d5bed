/**
 * The Rust conformance suite (support/conformance-rust.ts) against the rust-analyzer `dialect`
 * spawns itself (`LspBackend`); vscode/test/rust.test.ts asks the same of the extension's own.
 */
import { describe } from 'vitest';
import { rustAppConformance } from './support/conformance-rust.js';
import { openFixtureSession, serversAvailable } from './support/session.js';

const available = await serversAvailable('rust');

describe.skipIf(!available)('Rust conformance answered by the spawned rust-analyzer (fixtures/rust-app)', () => {
  rustAppConformance((fixture, prepare) => openFixtureSession(fixture, prepare));
});
