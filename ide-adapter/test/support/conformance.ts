/**
 * One conformance suite, several backends: the questions the IDE functions ask on a TypeScript
 * fixture and the answers they must get, whatever answers them — the TypeScript server we spawn
 * (`LspBackend`, ide-adapter/test/functions-typescript.test.ts) or VS Code's own TypeScript
 * features through the Dialect extension inside a real code-server (vscode/test). Expected
 * positions come from the fixture text. A difference between backends is a bug, or documented
 * here where the servers themselves differ.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Diagnostic, Reference, SymbolDefinition, SymbolInfo } from '../../model.js';
import type { FixtureSession } from './session.js';

/** Opens a session on a fresh copy of a fixture; `prepare` may change the copy before anything starts. */
export type OpenSession = (fixture: string, prepare?: (root: string) => Promise<void>) => Promise<FixtureSession>;

/** A file added to the ts-app copy with a deliberate type error, so diagnostics have something to find. */
export const BROKEN_FILE = 'src/broken.ts';
/** Its text: the error is the string assigned to a number. */
export const BROKEN_TEXT = "export const answer: number = 'forty-two';\n";

/** The IDE functions on fixtures/ts-app (with {@link BROKEN_FILE} added), asked through `open`'s backend. */
export function typeScriptAppConformance(open: OpenSession): void {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await open('ts-app', (root) => writeFile(join(root, BROKEN_FILE), BROKEN_TEXT));
  });
  afterAll(async () => {
    await f?.dispose();
  });

  it('findDefinitions and qualified method names', async () => {
    const [user] = (await f.value('findDefinitions("User")')) as SymbolDefinition[];
    expect(user?.kind).toBe('class');
    expect(user?.definedAt.start).toEqual({ ...(await f.at('src/model.ts', 'User implements')) });
    const [complete] = (await f.value('findDefinitions("Task.complete")')) as SymbolDefinition[];
    expect(complete?.kind).toBe('method');
    expect(complete?.definedAt.start).toEqual(await f.at('src/model.ts', 'complete(): void'));
    const [slugify] = (await f.value('findDefinitions("Text.slugify")')) as SymbolDefinition[];
    expect(slugify?.definedAt.start).toEqual(await f.at('src/util.ts', 'slugify(title'));
  });

  it('an ambiguous name, refined by file, then its references', async () => {
    const o = await f.outcome('findReferences("validateToken")');
    if (o.kind !== 'ambiguity') throw new Error(`expected an ambiguity, got ${o.kind}`);
    const auth = o.refinements.find((r) => r.program.includes('src/auth.ts'));
    expect(auth?.program).toBe('findReferences(findDefinition("validateToken", file: "src/auth.ts"))');
    const refs = (await f.value(auth?.program ?? '')) as Reference[];
    expect(refs.map((r) => r.referencedAt.start)).toContainEqual(await f.at('src/auth.ts', 'validateToken(token) === user.id'));
    expect(refs.every((r) => r.definedAt.path === 'src/auth.ts')).toBe(true);
  });

  it('columns count code points after an emoji', async () => {
    const refs = (await f.value('findReferences("User.displayName")')) as Reference[];
    expect(refs.map((r) => r.referencedAt.start)).toContainEqual(await f.at('src/util.ts', 'displayName()]'));
  });

  it('getSymbolInfo, implementations and the outline', async () => {
    const info = (await f.value('getSymbolInfo(findDefinition("validateToken", file: "util.ts"))')) as SymbolInfo;
    expect(info?.signature).toContain('validateToken(token: string): boolean');
    expect(info?.documentation).toContain('Cheap syntactic check');
    const impls = (await f.value('implementations("Repository")')) as SymbolDefinition[];
    expect(impls.map((i) => i.name).sort()).toEqual(['JournalRepository', 'MemoryRepository']);
    const outline = (await f.value('documentSymbols("src/util.ts")')) as SymbolDefinition[];
    expect(outline.map((s) => s.name)).toEqual(expect.arrayContaining(['validateToken', 'Text', 'slugify', 'greeting']));
  });

  it('callers and callees through the call hierarchy, at the call sites', async () => {
    const callers = (await f.value('callers(findDefinition("validateToken", file: "src/util.ts"))')) as SymbolDefinition[];
    expect(callers.map((c) => [c.name, c.definedAt.path, c.definedAt.start])).toEqual(
      expect.arrayContaining([
        ['validateToken', 'src/auth.ts', await f.at('src/auth.ts', 'validateToken(token: string): number')],
        ['createTask', 'src/service.ts', await f.at('src/service.ts', 'createTask(user')],
      ]),
    );
    const callees = (await f.value('callees(findDefinition("validateToken", file: "src/auth.ts"))')) as SymbolDefinition[];
    expect(callees.map((c) => [c.name, c.definedAt.path])).toContainEqual(['validateToken', 'src/util.ts']);
  });

  it('the type error of a file, at its place', async () => {
    const found = (await f.value(`diagnostics("${BROKEN_FILE}")`)) as Diagnostic[];
    expect(found.map((d) => [d.severity, d.start])).toEqual([['error', await f.at(BROKEN_FILE, 'answer')]]);
    expect(found[0]?.message).toContain("'string' is not assignable to type 'number'");
  });
}
