/**
 * A workspace source can name any file of the machine (`#include "/home/me/.config/token"`), and
 * clangd then reports that file's first error on the include line: "In included file: unknown
 * type name 'ghp_…'" — the outside file's text in a workspace diagnostic. Untrusted, such a
 * diagnostic's text is withheld (`SourcePolicy`, as hover text is), naming the file; trusted it is
 * shown as the server sent it. Real clangd on a copy of `fixtures/c-plain`.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../model.js';
import { clangdAvailable, openClangdSession } from './support/clangd.js';
import type { FixtureSession } from './support/session.js';

const available = await clangdAvailable();

/** A secret outside the workspace, shaped so that clang quotes it (a bare identifier). */
const SECRET = 'ghp_SecretTokenOutsideTheWorkspace42';

let outside: string;
let token: string;

beforeAll(async () => {
  outside = await mkdtemp(join(tmpdir(), 'dialect-outside-secret-'));
  await mkdir(outside, { recursive: true });
  token = join(outside, 'token');
  await writeFile(token, `${SECRET}\n`);
});

afterAll(async () => {
  await rm(outside, { recursive: true, force: true });
});

/** A source whose first line includes the outside file. */
const includer = (): string => `#include "${token}"\nint includer(void) { return 0; }\n`;

/** A source that breaks a system header it includes: clangd reports the header's error on the include line. */
const SYSTEM_NOTE = '#define size_t int int\n#include <string.h>\n';

async function diagnosticsOf(f: FixtureSession): Promise<Diagnostic[]> {
  return (await f.value('diagnostics("src/includer.c")')) as Diagnostic[];
}

describe.skipIf(!available)('clangd diagnostics quoting a file outside the workspace', () => {
  let untrusted: FixtureSession;
  let trusted: FixtureSession;
  beforeAll(async () => {
    const prepare = async (root: string) => {
      await writeFile(join(root, 'src', 'includer.c'), includer());
      await writeFile(join(root, 'src', 'system.c'), SYSTEM_NOTE);
    };
    [untrusted, trusted] = await Promise.all([openClangdSession('c-plain', prepare), openClangdSession('c-plain', prepare, { trusted: true })]);
  }, 300_000);
  afterAll(async () => {
    await Promise.all([untrusted?.dispose(), trusted?.dispose()]);
  });

  it('trusted (control): clangd quotes the outside file in the include line diagnostic', async () => {
    const list = await diagnosticsOf(trusted);
    expect(list.some((d) => d.message.includes(SECRET))).toBe(true);
  }, 120_000);

  it('untrusted: the diagnostic stays, its text is withheld, naming the file', async () => {
    const list = await diagnosticsOf(untrusted);
    expect(JSON.stringify(list)).not.toContain(SECRET);
    const onInclude = list.filter((d) => d.start.line === 1);
    expect(onInclude).toHaveLength(1);
    expect(onInclude[0]?.message).toBe(`diagnostic text withheld: it comes from ${token}, outside this untrusted workspace (trust the workspace to see it)`);
  }, 120_000);

  it('untrusted: a note in a system header (installed code) is shown as clangd wrote it', async () => {
    const list = (await untrusted.value('diagnostics("src/system.c")')) as Diagnostic[];
    const include = list.find((d) => d.start.line === 2);
    expect(include?.message).toMatch(/^In included file: /);
    expect(include?.message).toMatch(/\n\/usr\/(include|lib)\/\S+\.h:\d+:\d+:/);
  }, 120_000);
});
