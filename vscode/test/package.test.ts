/**
 * `npm run package:vscode`: the real vsce packages the bundled extension, the command prints the
 * `.vsix` path as its last line, and the archive holds the manifest and the bundle (and nothing
 * from node_modules or the sources).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { zipEntryNames } from './support/zip.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
/** Bundling plus vsce (measured about 2 s; generous for a busy machine). */
const PACKAGE_MS = 120_000;

describe('npm run package:vscode', () => {
  let out: string | undefined;
  afterAll(async () => {
    if (out !== undefined) await rm(out, { recursive: true, force: true });
  });

  it('builds a .vsix with the manifest and the bundled extension and prints its path last', async () => {
    out = await mkdtemp(join(tmpdir(), 'dialect-vsix-out-'));
    const run = spawnSync('npm', ['run', 'package:vscode', '--', out], { cwd: repoRoot, encoding: 'utf8', timeout: PACKAGE_MS });
    expect(run.status, run.stderr).toBe(0);
    const manifest = JSON.parse(await readFile(join(repoRoot, 'vscode', 'package.json'), 'utf8')) as { name: string; version: string };
    const lines = run.stdout.trim().split('\n');
    const vsix = lines[lines.length - 1] ?? '';
    expect(vsix).toBe(join(out, `${manifest.name}-${manifest.version}.vsix`));
    expect(existsSync(vsix)).toBe(true);
    const names = await zipEntryNames(vsix);
    expect(names).toContain('extension/package.json');
    expect(names).toContain('extension/dist/extension.cjs');
    // The walkthrough panel's own files: a webview loads nothing from the network.
    for (const asset of ['page.js', 'page.css', 'mermaid.min.js', 'purify.min.js']) expect(names).toContain(`extension/dist/walkthrough/${asset}`);
    // The file worker runs search and every user pattern under its budget, from its own file.
    expect(names).toContain('extension/dist/ide-adapter/file-worker.js');
    // The shims an untrusted window's rust-analyzer runs cargo and rustc through (see build.ts).
    for (const shim of ['bin/cargo', 'bin/rustc', 'shim.sh']) expect(names).toContain(`extension/ide-adapter/languages/rust/untrusted-toolchain/${shim}`);
    expect(names).toContain('extension.vsixmanifest');
    expect(names.filter((n) => n.includes('node_modules/') || n.endsWith('.ts'))).toEqual([]);
  }, PACKAGE_MS);
});
