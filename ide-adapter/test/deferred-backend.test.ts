/**
 * The backend of a program that asks no server (`deferred-backend.ts`): nothing is made until a
 * call needs it, which files it handles is answered as the real `LspBackend` answers it, and
 * middleware added before it is made reaches the made one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackendRequest, IdeBackend } from '../backend.js';
import { DeferredBackend } from '../deferred-backend.js';
import { serverDefinitions } from '../languages/index.js';
import { LspBackend } from '../lsp-backend.js';
import { Workspace } from '../workspace.js';

let root: string;
let workspace: Workspace;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'dialect-deferred-'));
  writeFileSync(join(root, 'a.ts'), 'export const a = 1;\n');
  workspace = new Workspace(root);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A deferred backend over a real `LspBackend` (untrusted, no servers started), and how often it was made. */
function deferred(): { backend: DeferredBackend; made: () => number; real: () => LspBackend | undefined } {
  let made = 0;
  let real: LspBackend | undefined;
  const backend = new DeferredBackend(workspace, () => serverDefinitions([], false), async () => {
    made++;
    real = new LspBackend(workspace, { trusted: false });
    return real;
  });
  return { backend, made: () => made, real: () => real };
}

describe('DeferredBackend', () => {
  it('answers which files it handles as LspBackend does, without making it', async () => {
    const { backend, made } = deferred();
    const reference: IdeBackend = new LspBackend(workspace, { trusted: false });
    for (const path of ['a.ts', 'src/main.rs', 'lib.py', 'lib.pyi', 'x.go', 'y.cpp', 'z.h', 'README.md', 'Makefile', 'a.tsx', 'b.mjs']) {
      expect(backend.handles(path), path).toBe(reference.handles(path));
      expect(backend.relativeQualifiers(path), path).toEqual(reference.relativeQualifiers(path));
      expect(backend.mergesOverloads(path), path).toBe(reference.mergesOverloads?.(path));
      expect(backend.isStub(path), path).toBe(reference.isStub?.(path));
    }
    expect(backend.servers()).toEqual(reference.servers());
    await backend.shutdown();
    await reference.shutdown();
    expect(made()).toBe(0);
  });

  it('makes the backend on the first call that needs it, once, and hands it the middleware added before, in order', async () => {
    const { backend, made, real } = deferred();
    const seen: string[] = [];
    const removed: string[] = [];
    backend.use(async (request: BackendRequest, next) => {
      seen.push(`outer ${request.method}`);
      return next();
    });
    const removeInner = backend.use(async (request: BackendRequest, next) => {
      removed.push(request.method);
      return next();
    });
    backend.use(async (request: BackendRequest, next) => {
      seen.push(`inner ${request.method}`);
      return next();
    });
    removeInner();
    expect(made()).toBe(0);
    await Promise.all([backend.importOf('nothingImportsThis'), backend.importOf('norThis')]);
    expect(made()).toBe(1);
    expect(seen).toEqual(['outer dialect/importOf', 'inner dialect/importOf', 'outer dialect/importOf', 'inner dialect/importOf']);
    expect(removed).toEqual([]);
    // Added after it was made: straight to the made backend; removable there.
    const after: string[] = [];
    const removeAfter = backend.use(async (request: BackendRequest, next) => {
      after.push(request.method);
      return next();
    });
    await backend.importOf('stillNothing');
    removeAfter();
    await backend.importOf('andAgain');
    expect(after).toEqual(['dialect/importOf']);
    expect(backend.servers()).toEqual(real()?.servers());
    await backend.shutdown();
  });
});
