/**
 * A workspace rewritten on disk under a running server (a `git checkout` of another branch, a
 * folder replaced): until the server has taken the changes in, it is re-reading, so a name
 * lookup that finds nothing says the server was still loading — never a complete "not found".
 * Real tsgo on a copy of fixtures/ts-app.
 */
import { rename, writeFile, cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { WorkspaceSymbolRequest, type SymbolInformation } from 'vscode-languageserver-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LanguageServer, statusLine, type ServerStatus } from '../lsp/client.js';
import { FOLDER_REPLACED_REASON } from '../lsp/readiness.js';
import { typeScriptServer } from '../languages/typescript/index.js';
import { copyFixture, fixture, requireServer } from './support/servers.js';

const binary = await requireServer(typeScriptServer);
const FILES = 40;

describe.skipIf(binary === undefined)('re-reading a rewritten workspace (real tsgo, fixtures/ts-app)', () => {
  let server: LanguageServer;
  let workspace: { root: string; dispose: () => Promise<void> };

  beforeAll(async () => {
    workspace = await copyFixture('ts-app');
    server = await LanguageServer.start(typeScriptServer, workspace.root, { binary });
    expect((await server.waitUntilReady({ timeoutMs: 30_000 })).state).toBe('ready');
    // tsgo asks the client to watch files once it has loaded the project; until a change made on
    // disk is found, it has not. Bounded polling (a new file each round, since one written before
    // the watching began is never reported): it announces nothing when it took a change in.
    const deadline = Date.now() + 20_000;
    let watching = false;
    for (let round = 0; !watching && Date.now() < deadline; round++) {
      await writeFile(join(workspace.root, 'src', `probe${round}.ts`), `export function watchingProbe${round}(): void {}\n`);
      await new Promise((r) => setTimeout(r, 300));
      const symbols = ((await server.request(WorkspaceSymbolRequest.type, { query: `watchingProbe${round}` })) ?? []) as SymbolInformation[];
      watching = symbols.some((s) => s.name === `watchingProbe${round}`);
    }
    expect(watching, 'tsgo never took in a file written on disk').toBe(true);
  });

  afterAll(async () => {
    await server?.shutdown();
    await workspace?.dispose();
  });

  /** Asks for `name` at once; the answer must find it or come from a server that is not ready. */
  async function askAtOnce(name: string): Promise<void> {
    const status = await server.waitUntilReady({ timeoutMs: 0 });
    const symbols = ((await server.request(WorkspaceSymbolRequest.type, { query: name })) ?? []) as SymbolInformation[];
    const found = symbols.some((s) => s.name === name);
    expect(found || status.state !== 'ready', `"${name}" not found while the server said ${statusLine(status)}`).toBe(true);
    // And once it has re-read, the name is there.
    expect((await server.waitUntilReady({ timeoutMs: 30_000 })).state).toBe('ready');
    const after = ((await server.request(WorkspaceSymbolRequest.type, { query: name })) ?? []) as SymbolInformation[];
    expect(after.some((s) => s.name === name)).toBe(true);
  }

  it('many files written at once: a lookup right after either finds the new names or says it is re-reading', async () => {
    await Promise.all(
      Array.from({ length: FILES }, (_, i) => writeFile(join(workspace.root, 'src', `generated${i}.ts`), `export function checkedOutHelper${i}(): number {\n  return ${i};\n}\n`)),
    );
    await askAtOnce(`checkedOutHelper${FILES - 1}`);
  });

  it('the source folder replaced by another one: a lookup right after is never a complete "not found"', async () => {
    const incoming = join(workspace.root, 'incoming');
    await cp(fixture('ts-app/src'), incoming, { recursive: true });
    await writeFile(join(incoming, 'branch.ts'), 'export function otherBranchOnly(): string {\n  return "b";\n}\n');
    const src = join(workspace.root, 'src');
    await rm(src, { recursive: true, force: true });
    await rename(incoming, src);
    await askAtOnce('otherBranchOnly');
  });

  it('the workspace folder itself replaced: the server stays not ready and says the folder must be reloaded', async () => {
    const root = workspace.root;
    const incoming = `${root}-incoming`;
    await cp(fixture('ts-app'), incoming, { recursive: true });
    await rename(root, `${root}-old`);
    await rename(incoming, root);
    try {
      const replaced = (status: ServerStatus): boolean => statusLine(status).includes(FOLDER_REPLACED_REASON);
      if (!replaced(server.status)) {
        await new Promise<void>((resolve) => {
          const subscription = server.onStatus((status) => {
            if (replaced(status)) {
              subscription.dispose();
              resolve();
            }
          });
        });
      }
      const status = await server.waitUntilReady({ timeoutMs: 0 });
      expect(status.state, statusLine(status)).toBe('indexing');
    } finally {
      await rm(`${root}-old`, { recursive: true, force: true });
    }
  });
});
