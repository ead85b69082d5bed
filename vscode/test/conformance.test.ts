/**
 * The conformance table against VS Code: the TypeScript and JavaScript rows
 * (ide-adapter/test/conformance/*.cases.ts) asked by a real Dialect client (`RemoteBackend` + the
 * IDE functions) of the Dialect extension inside a real code-server with headless Chromium,
 * answered by VS Code's built-in TypeScript features — and every answer compared with the spawned
 * tsgo's on the same fixture (issue 20: one answer from every backend). The monorepo checks
 * (support/conformance-monorepo.ts) run here too, as the spawned server answers them in
 * ide-adapter/test/functions-ts-monorepo.test.ts.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../ide-adapter/model.js';
import { javaScriptConformance } from '../../ide-adapter/test/conformance/javascript.cases.js';
import { typeScriptConformance } from '../../ide-adapter/test/conformance/typescript.cases.js';
import { runConformance } from '../../ide-adapter/test/support/conformance-table.js';
import { typeScriptMonorepoConformance } from '../../ide-adapter/test/support/conformance-monorepo.js';
import { openFixtureSession, serversAvailable, type FixtureSession } from '../../ide-adapter/test/support/session.js';
import { requireRig } from './support/rig.js';
import { openVsCodeSession } from './support/session.js';

const rig = await requireRig();
const tsgo = await serversAvailable('typescript');

const open = (fixture: string, prepare?: (root: string) => Promise<void>) => openVsCodeSession(rig as NonNullable<typeof rig>, fixture, prepare);
const spawned = { open: openFixtureSession, backend: 'the spawned tsgo' };

describe.skipIf(rig === undefined || !tsgo)('VS Code', () => {
  runConformance(typeScriptConformance, open, 'VS Code', { sameAs: spawned, focused: diagnosticsWaitBudget });
  runConformance(javaScriptConformance, open, 'VS Code', { sameAs: spawned });
});

describe.skipIf(rig === undefined)('exact names on a TypeScript monorepo answered by VS Code (fixtures/ts-monorepo in code-server)', () => {
  typeScriptMonorepoConformance(open, { overloadsNotMerged: true });
});

/** A file the test adds with a type error; nobody has opened it, so the editor has no diagnostics for it yet. */
const LATE_FILE = 'src/late-check.ts';
const LATE_TEXT = "export const late: number = 'not a number';\n";

/**
 * `diagnostics(path, wait:)` is the caller's budget in the editor too, as for a spawned server:
 * `wait: 0` answers at once with the note that says how to wait longer (it used to wait for the
 * editor's publish, up to its own fixed 10 s, and then quote the caller's budget), and a raised
 * wait gets the error the editor publishes.
 */
function diagnosticsWaitBudget(session: () => FixtureSession): void {
  it("diagnostics(path, wait:) is the caller's budget in the editor: 0 answers at once and says so; a raised wait gets the publish", async () => {
    const f = session();
    await writeFile(join(f.root, LATE_FILE), LATE_TEXT);
    const o = await f.outcome(`diagnostics("${LATE_FILE}", wait: 0)`);
    if (o.kind !== 'value') throw new Error(`expected a value, got ${JSON.stringify(o)}`);
    expect(o.value).toEqual([]);
    expect(o.notes).toContain(`the language server published no diagnostics for ${LATE_FILE} within the 0 s wait; there may be none, or it is still analysing — wait longer: diagnostics("${LATE_FILE}", wait: 1)`);
    const found = (await f.value(`diagnostics("${LATE_FILE}", wait: 60)`)) as Diagnostic[];
    const at = await f.at(LATE_FILE, 'late');
    expect(found.map((d) => `${d.start.line}:${d.start.column} ${d.severity}`)).toContain(`${at.line}:${at.column} error`);
  }, 120_000);
}
