/**
 * Packages the extension as a `.vsix` with `@vscode/vsce`: the bundled extension (see build.ts)
 * staged in a temporary folder with its manifest, README and LICENSE — nothing else, so no
 * `node_modules` and no sources — then `vsce package --no-dependencies`. `tsx vscode/package.ts
 * [outDir]` writes `dialect-ide-vscode-<version>.vsix` into `outDir` (default: the repository's
 * `dist/`) and prints its path as the last line of its output (vsce's own output goes to stderr);
 * with `--if-stale`, only when it is older than its sources (the npm package's `prepack`).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildExtension, EXTENSION_SOURCE_DIR } from './build.js';

/** Where the `.vsix` goes unless told otherwise: the repository's build output. */
export const DEFAULT_PACKAGE_DIR = resolve(EXTENSION_SOURCE_DIR, '..', 'dist');

/** Files shipped next to the bundle, from this folder (vsce wants a README and a LICENSE). */
const SHIPPED_FILES = ['README.md', 'LICENSE'] as const;

/** An upper bound for vsce (measured: about 2 s on 2 cores). */
const VSCE_TIMEOUT_MS = 120_000;

/**
 * The project has no public repository URL yet; vsce otherwise asks interactively. Remove this
 * flag once package.json has a `repository` field.
 */
const VSCE_FLAGS = ['--no-dependencies', '--allow-missing-repository'] as const;

/** Builds the extension and packages it; returns the `.vsix` path. */
export async function packageExtension(outDir: string = DEFAULT_PACKAGE_DIR): Promise<string> {
  const manifest = JSON.parse(await readFile(join(EXTENSION_SOURCE_DIR, 'package.json'), 'utf8')) as { name: string; version: string };
  const vsix = join(resolve(outDir), `${manifest.name}-${manifest.version}.vsix`);
  const stage = await mkdtemp(join(tmpdir(), 'dialect-vsix-'));
  try {
    await buildExtension(stage);
    for (const file of SHIPPED_FILES) await copyFile(join(EXTENSION_SOURCE_DIR, file), join(stage, file));
    await mkdir(dirname(vsix), { recursive: true });
    await runVsce(['package', ...VSCE_FLAGS, '--out', vsix], stage);
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
  return vsix;
}

/** Runs vsce's CLI (the installed devDependency) with the current Node, bounded; rejects on failure. */
function runVsce(args: readonly string[], cwd: string): Promise<void> {
  const cli = join(dirname(createRequire(import.meta.url).resolve('@vscode/vsce/package.json')), 'vsce');
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, stdio: ['ignore', process.stderr, process.stderr], timeout: VSCE_TIMEOUT_MS });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolvePromise();
      else reject(new Error(`vsce ${args.join(' ')} failed (${signal ?? `exit code ${code}`}) in ${cwd}; its output is above`));
    });
  });
}

/**
 * Whether the `.vsix` in `outDir` is older than what it is made of: the extension's sources and
 * manifest, and the CLI bundle's build (`dist/bundle/meta.json`, rewritten whenever the shared
 * modules change). The npm package ships the `.vsix` (`prepack`), which packs it only then.
 */
async function isStale(outDir: string): Promise<boolean> {
  const manifest = JSON.parse(await readFile(join(EXTENSION_SOURCE_DIR, 'package.json'), 'utf8')) as { name: string; version: string };
  const vsix = join(resolve(outDir), `${manifest.name}-${manifest.version}.vsix`);
  if (!existsSync(vsix)) return true;
  const built = statSync(vsix).mtimeMs;
  const sources = [join(EXTENSION_SOURCE_DIR, 'src'), ...['package.json', 'README.md', 'LICENSE', 'build.ts', 'package.ts'].map((f) => join(EXTENSION_SOURCE_DIR, f)), join(DEFAULT_PACKAGE_DIR, 'bundle', 'meta.json')];
  const newer = (path: string): boolean => {
    if (!existsSync(path)) return true;
    const stats = statSync(path);
    if (!stats.isDirectory()) return stats.mtimeMs > built;
    return readdirSync(path).some((name) => newer(join(path, name)));
  };
  return sources.some(newer);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2).filter((a) => a !== '--if-stale');
  const outDir = args[0] !== undefined ? resolve(args[0]) : DEFAULT_PACKAGE_DIR;
  if (process.argv.includes('--if-stale') && !(await isStale(outDir))) process.stderr.write('package:vscode: the .vsix is up to date\n');
  else console.log(await packageExtension(outDir));
}
