/**
 * The editor tests' one build of the extension (vitest `globalSetup` of the `editor` project):
 * bundled from the current sources once per run, before any test file starts, into a temporary
 * folder every window copies (rig.ts) — instead of one esbuild run per window (11 windows).
 * Removed when the run ends.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildExtension } from '../../build.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The unpacked extension built for this run (see extension-build.ts). */
    dialectExtensionBuild?: string;
  }
}

/** Builds the extension once and hands its folder to the test files; returns the clean-up. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const base = await mkdtemp(join(tmpdir(), 'dialect-extension-build-'));
  const dir = await buildExtension(join(base, 'extension'));
  project.provide('dialectExtensionBuild', dir);
  return () => rm(base, { recursive: true, force: true });
}
