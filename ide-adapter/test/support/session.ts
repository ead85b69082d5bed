/** An IdeSession on a temporary copy of a fixture, with helpers to compute expectations from its text. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Outcome } from '../../../dialect/index.js';
import { rustAnalyzerServer } from '../../languages/rust/index.js';
import { typeScriptServer } from '../../languages/typescript/index.js';
import { IdeSession } from '../../session.js';
import { rustOfflineEnv } from './rust-offline.js';
import { copyFixture, positionOf, requireServer } from './servers.js';

export interface FixtureSession {
  readonly session: IdeSession;
  readonly root: string;
  /** The text of a workspace file. */
  text(path: string): Promise<string>;
  /** 1-based position (code-point column) of the nth occurrence of `needle` in a file. */
  at(path: string, needle: string, nth?: number): Promise<{ line: number; column: number }>;
  /** Where a definition's `definedAt` starts: `name` inside the first line holding `declaration` (code-point column). */
  nameIn(path: string, declaration: string, name: string): Promise<{ line: number; column: number }>;
  /** Evaluates and returns the value, failing with the rendered outcome otherwise. */
  value(program: string): Promise<unknown>;
  outcome(program: string): Promise<Outcome>;
  dispose(): Promise<void>;
}

/** Whether the servers a fixture needs exist (under CI a missing server throws instead). */
export async function serversAvailable(kind: 'rust' | 'typescript' | 'both'): Promise<boolean> {
  const env = await rustOfflineEnv();
  const wanted = kind === 'both' ? [rustAnalyzerServer, typeScriptServer] : kind === 'rust' ? [rustAnalyzerServer] : [typeScriptServer];
  const found = await Promise.all(wanted.map((d) => requireServer(d, env)));
  return found.every((b) => b !== undefined);
}

/**
 * A session on a fresh copy of a fixture; `prepare` may change the copy (e.g. add a file with a
 * deliberate error) before the servers start, leaving the shared fixture untouched.
 */
export async function openFixtureSession(name: string, prepare?: (root: string) => Promise<void>): Promise<FixtureSession> {
  const env = await rustOfflineEnv();
  const copy = await copyFixture(name);
  await prepare?.(copy.root);
  const session = await IdeSession.open({ workspaceRoot: copy.root, env, readyTimeoutMs: 120_000 });
  await session.waitUntilReady({ timeoutMs: 120_000 });
  return fixtureSession(session, copy.root, copy.dispose);
}

/**
 * The helpers of a {@link FixtureSession} around an open session on a fixture copy at `root`
 * (any backend); `dispose` shuts the session down, then calls `cleanup`.
 */
export function fixtureSession(session: IdeSession, root: string, cleanup: () => Promise<void>): FixtureSession {
  const text = (path: string): Promise<string> => readFile(join(root, path), 'utf8');
  const outcome = (program: string): Promise<Outcome> => session.evaluate(program, { deadlineMs: 60_000 });
  return {
    session,
    root,
    text,
    at: async (path, needle, nth = 0) => {
      const p = positionOf(await text(path), needle, nth);
      return { line: p.line, column: p.column };
    },
    nameIn: async (path, declaration, name) => {
      const source = await text(path);
      const decl = positionOf(source, declaration, 0);
      const lineText = source.split('\n')[decl.line - 1] ?? '';
      return { line: decl.line, column: [...lineText.slice(0, lineText.indexOf(name, lineText.indexOf(declaration)))].length + 1 };
    },
    outcome,
    value: async (program) => {
      const o = await outcome(program);
      if (o.kind !== 'value') {
        const { renderOutcome } = await import('../../../dialect/index.js');
        throw new Error(`${program} gave ${o.kind}:\n${renderOutcome(o)}`);
      }
      return o.value;
    },
    dispose: async () => {
      await session.shutdown();
      await cleanup();
    },
  };
}
