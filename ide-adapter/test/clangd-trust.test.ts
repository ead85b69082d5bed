/**
 * What a C/C++ workspace can make clangd run, closed when untrusted (languages/cpp/trust.ts).
 * clangd runs a workspace's program only through `--query-driver`; the workspace names it in
 * compile_commands.json or `.clangd` (`CompileFlags: Compiler:`). The control proves the marker
 * fires when a glob matches; then: untrusted, neither the "compiler" nor the `.clangd` config is
 * obeyed, and answers still come; trusted, `.clangd` is obeyed (what trust is for) and still only
 * the system's compilers may be queried.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic, SymbolDefinition } from '../model.js';
import { findServerBinary } from '../lsp/discovery.js';
import { clangdServer } from '../languages/cpp/index.js';
import { clangdAvailable, openClangdSession } from './support/clangd.js';
import type { FixtureSession } from './support/session.js';

const available = await clangdAvailable();

/** A source that errors only when the `.clangd` config was obeyed (it defines FROM_PROJECT_CONFIG). */
const PROBE = '#ifdef FROM_PROJECT_CONFIG\n#error the project config was obeyed\n#endif\nint probe_value(void) { return 1; }\n';

/**
 * A hostile workspace: its compile_commands.json and its `.clangd` name `tools/cc`, a script
 * that writes `marker` (outside the workspace, so the tree stays comparable) and then compiles.
 */
async function hostile(root: string, marker: string): Promise<void> {
  const cc = join(root, 'tools', 'cc');
  await mkdir(join(root, 'tools'), { recursive: true });
  await writeFile(cc, `#!/bin/sh\necho ran >> '${marker}'\nexec /usr/bin/gcc "$@"\n`);
  await chmod(cc, 0o755);
  await writeFile(join(root, 'src', 'probe.c'), PROBE);
  const files = ['src/main.c', 'src/stack.c', 'src/probe.c'];
  await writeFile(join(root, 'compile_commands.json'), JSON.stringify(files.map((file) => ({ directory: root, file, arguments: [cc, '-Iinclude', '-c', file] }))));
  await writeFile(join(root, '.clangd'), `CompileFlags:\n  Compiler: ${cc}\n  Add: [-DFROM_PROJECT_CONFIG]\n`);
}

async function probeDiagnostics(f: FixtureSession): Promise<Diagnostic[]> {
  return (await f.value('diagnostics("src/probe.c")')) as Diagnostic[];
}

describe.skipIf(!available)('clangd in an untrusted C workspace runs none of its programs', () => {
  let f: FixtureSession & { copy: { base: string } };
  let marker: string;
  beforeAll(async () => {
    f = await openClangdSession('c-plain', async (root) => {
      marker = join(root, '..', 'untrusted-marker');
      await hostile(root, marker);
    });
  });
  afterAll(async () => {
    await f?.dispose();
  });

  it('control: the same database with a --query-driver glob over the workspace runs its "compiler"', async () => {
    const binary = await findServerBinary(clangdServer);
    const controlMarker = join(f.copy.base, 'control-marker');
    await hostile(f.root, controlMarker);
    const r = spawnSync(binary.path, [`--check=${join(f.root, 'src', 'probe.c')}`, `--query-driver=${f.root}/**`, '--log=error'], { cwd: f.root, encoding: 'utf8', timeout: 60_000 });
    expect(r.error).toBeUndefined();
    expect(existsSync(controlMarker)).toBe(true);
    // Restore the session's own marker path in the workspace files.
    await hostile(f.root, marker);
  });

  it('answers, without running the workspace compiler or obeying its .clangd', async () => {
    const found = (await f.value('findDefinitions("stack_push")')) as SymbolDefinition[];
    expect(found.map((d) => d.definedAt.path)).toEqual(['src/stack.c']);
    const diagnostics = await probeDiagnostics(f);
    expect(diagnostics.map((d) => d.message).join('\n')).not.toContain('project config was obeyed');
    expect(existsSync(marker)).toBe(false);
  });
});

describe.skipIf(!available)('clangd in a trusted C workspace', () => {
  let f: FixtureSession;
  let marker: string;
  beforeAll(async () => {
    f = await openClangdSession(
      'c-plain',
      async (root) => {
        marker = join(root, '..', 'trusted-marker');
        await hostile(root, marker);
      },
      { trusted: true },
    );
  });
  afterAll(async () => {
    await f?.dispose();
  });

  it("obeys the project's .clangd, and queries only the system's compilers", async () => {
    const diagnostics = await probeDiagnostics(f);
    expect(diagnostics.map((d) => d.message).join('\n')).toContain('project config was obeyed');
    expect(existsSync(marker)).toBe(false);
  });
});
