/**
 * The npm package as users install it: `npm pack` of the checkout (its `prepack` bundles when
 * the bundle is stale), installed from the tarball into a temporary prefix with `--omit=dev`, and
 * the installed `dialect` run from folders outside the source tree — `eval` on a copy of a
 * fixture, `walkthrough render` with the page opened in Chromium, `trust` and `server`, the
 * extension's `.vsix` installed into code-server, and `mcp`
 * through a real MCP client: with `--workspace`, with the client's roots (started in `/`), and with
 * neither in `/` (refused). The tarball holds what runs and no tests; the install stays small.
 */
import { spawn } from 'node:child_process';
import { cpSync, lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium, servePages, watchPage } from '../../walkthrough/test/support/browser.js';
import { repoRoot } from '../../ide-adapter/test/support/servers.js';
import { requireRig } from '../../vscode/test/support/rig.js';

/** The bound the issue sets on the installed package (measured: about 84 MB, 31 MB of it tsgo and 38 MB pyright). */
const MAX_INSTALLED_BYTES = 100 * 1024 * 1024;
/** Packing (with a fresh bundle) and installing from the npm cache; generous for a loaded 2-core machine. */
const INSTALL_TIMEOUT_MS = 240_000;
const COMMAND_TIMEOUT_MS = 90_000;

/** The package's name on npm, as package.json has it. */
const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string };
/** The VS Code extension's manifest: the package ships its `.vsix`. */
const extension = JSON.parse(readFileSync(join(repoRoot, 'vscode', 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a program to its end (killed at the deadline). */
function run(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish in time\n${stdout}\n${stderr}`));
    }, options.timeoutMs ?? COMMAND_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Bytes of the files below a folder (links counted as links, as `du --apparent-size` does). */
function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? sizeOf(path) : lstatSync(path).size;
  }
  return total;
}

/** The 1-based line of the first line of a fixture file holding `text`. */
function lineOf(file: string, text: string): number {
  return readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(text)) + 1;
}

function textOf(result: unknown): string {
  return (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

const browser = chromiumAvailable();
const rig = await requireRig();

describe(`the npm package ${manifest.name}, installed`, () => {
  let base: string;
  let tarball: { readonly files: readonly { readonly path: string; readonly mode: number }[]; readonly filename: string };
  let prefix: string;
  let dialect: string;
  let env: NodeJS.ProcessEnv;
  /** A copy of fixtures/ts-app outside the source tree, and a second workspace for roots. */
  let app: string;
  let other: string;
  let userLine: number;

  beforeAll(async () => {
    base = realpathSync(await mkdtemp(join(tmpdir(), 'dialect-package-')));
    const packed = await run('npm', ['pack', '--json', '--pack-destination', base], { cwd: repoRoot, env: process.env, timeoutMs: INSTALL_TIMEOUT_MS });
    expect(packed.code, packed.stderr).toBe(0);
    tarball = (JSON.parse(packed.stdout) as (typeof tarball)[])[0] as typeof tarball;
    prefix = join(base, 'prefix');
    const installed = await run('npm', ['install', '--global', '--prefix', prefix, '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', join(base, tarball.filename)], {
      cwd: base,
      env: process.env,
      timeoutMs: INSTALL_TIMEOUT_MS,
    });
    expect(installed.code, installed.stderr).toBe(0);
    dialect = join(prefix, 'bin', 'dialect');
    // Only the installed command on PATH (with node), private state, trust store and runtime folder.
    env = {
      ...process.env,
      PATH: [join(prefix, 'bin'), dirname(process.execPath), '/usr/bin', '/bin'].join(delimiter),
      XDG_STATE_HOME: join(base, 'state'),
      XDG_CONFIG_HOME: join(base, 'config'),
      XDG_CACHE_HOME: join(base, 'cache'),
      XDG_RUNTIME_DIR: join(base, 'run'),
      DIALECT_NO_SERVER: '1',
    };
    app = join(base, 'projects', 'app');
    other = join(base, 'projects', 'other');
    cpSync(join(repoRoot, 'fixtures', 'ts-app'), app, { recursive: true });
    cpSync(join(repoRoot, 'fixtures', 'ts-app'), other, { recursive: true });
    userLine = lineOf(join(app, 'src', 'model.ts'), 'export class User');
  }, 2 * INSTALL_TIMEOUT_MS);

  afterAll(async () => {
    if (base !== undefined) await rm(base, { recursive: true, force: true });
  });

  it('packs what runs — the bundle, vendored page scripts, guidance, executable shims, the tour’s fixture, the extension — and no tests or sources', () => {
    const paths = tarball.files.map((f) => f.path);
    for (const file of [
      'bin/dialect.js',
      'dist/bundle/cli/main.js',
      'dist/bundle/ide-adapter/file-worker.cjs',
      'dist/vendor/mermaid/dist/mermaid.min.js',
      'dist/vendor/dompurify/dist/purify.min.js',
      'walkthrough/assets/page.js',
      'mcp/guidance/server-instructions.md',
      'fixtures/rust-app/Cargo.toml',
      `dist/${extension.name}-${extension.version}.vsix`,
      'LICENSE',
      'README.md',
      'package.json',
    ]) {
      expect(paths).toContain(file);
    }
    for (const shim of ['bin/cargo', 'bin/rustc', 'shim.sh']) {
      const entry = tarball.files.find((f) => f.path === `ide-adapter/languages/rust/untrusted-toolchain/${shim}`);
      expect(entry?.mode, shim).toBe(0o755);
    }
    // pyright is bundled (its own files, stubs included, under node_modules/): the rest is ours.
    expect(paths.filter((p) => !p.startsWith('node_modules/pyright/') && /(^|\/)test\/|\.test\.|\.ts$/.test(p))).toEqual([]);
    expect(paths).not.toContain('dist/bundle/meta.json');
  });

  it(`installs only its run-time dependencies (tsgo, pyright) and stays under ${MAX_INSTALLED_BYTES / 2 ** 20} MB`, () => {
    const root = join(prefix, 'lib', 'node_modules', manifest.name);
    expect(realpathSync(dialect)).toBe(join(root, 'bin', 'dialect.js'));
    const dependencies = readdirSync(join(root, 'node_modules')).flatMap((name) => (name.startsWith('@') ? readdirSync(join(root, 'node_modules', name)).map((n) => `${name}/${n}`) : [name]));
    expect(dependencies.filter((d) => !d.startsWith('@typescript/') && d !== 'tsnative' && d !== 'pyright' && !d.startsWith('.'))).toEqual([]);
    expect(sizeOf(prefix)).toBeLessThanOrEqual(MAX_INSTALLED_BYTES);
  });

  it('evaluates a program on a workspace outside the source tree', async () => {
    const r = await run(dialect, ['eval', 'findDefinitions("User")'], { cwd: app, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`src/model.ts:${userLine}:`);
    const version = await run(dialect, ['--version'], { cwd: base, env });
    expect(version.stdout).toBe(`dialect ${manifest.version}\n`);
  });

  it('trusts a folder, and answers through a background server of the installed package', async () => {
    const trusted = await run(dialect, ['trust', app], { cwd: base, env });
    expect(trusted.code, trusted.stderr).toBe(0);
    const list = await run(dialect, ['trust', '--list'], { cwd: base, env });
    expect(list.stdout).toContain(app);
    // The background server is started from the installed package's own bin/dialect.js.
    const withServer = { ...env, DIALECT_NO_SERVER: '0' };
    await mkdir(join(base, 'run'), { recursive: true, mode: 0o700 });
    try {
      const r = await run(dialect, ['eval', 'findDefinitions("User")'], { cwd: app, env: withServer });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`src/model.ts:${userLine}:`);
      const status = await run(dialect, ['server', 'status', '--json'], { cwd: base, env: withServer });
      expect(status.code, status.stderr).toBe(0);
      const servers = JSON.parse(status.stdout) as { workspaceRoot: string; product: { installPath: string } }[];
      expect(servers.map((s) => [s.workspaceRoot, s.product.installPath])).toEqual([[app, join(prefix, 'lib', 'node_modules', manifest.name)]]);
    } finally {
      const stopped = await run(dialect, ['server', 'stop', '--all'], { cwd: base, env: withServer });
      expect(stopped.code, stopped.stderr).toBe(0);
    }
  });

  it.runIf(browser)('renders a walkthrough whose page runs in Chromium with its inlined assets (mermaid drawn)', async () => {
    const doc = join(app, 'tour.md');
    await writeFile(doc, `# The model\n\n<comment location='findDefinition("User")'>The user.</comment>\n\n<mermaid>flowchart LR; User --> Session</mermaid>\n`);
    const out = join(base, 'page.html');
    const r = await run(dialect, ['walkthrough', 'render', doc, '-o', out], { cwd: app, env });
    expect(r.code, r.stderr).toBe(0);
    const html = await readFile(out, 'utf8');
    const launched = await launchChromium();
    const pages = await servePages({ 'page.html': html });
    try {
      const page = await launched.context.newPage();
      const watch = await watchPage(page);
      await page.goto(pages.url('page.html'));
      await page.locator('.wt-mermaid-rendered svg').first().waitFor({ timeout: 30_000 });
      expect(await page.locator('body').innerText()).toContain(`src/model.ts:${userLine}`);
      expect(watch.pageErrors).toEqual([]);
      expect(await watch.violations()).toEqual([]);
    } finally {
      await pages.close();
      await launched.close();
    }
  });

  it.runIf(rig !== undefined)('carries the VS Code extension as a .vsix that code-server installs with --install-extension', async () => {
    const vsix = join(prefix, 'lib', 'node_modules', manifest.name, 'dist', `${extension.name}-${extension.version}.vsix`);
    const dirs = ['--extensions-dir', join(base, 'code', 'extensions'), '--user-data-dir', join(base, 'code', 'user-data')];
    const codeServer = (args: readonly string[]): Promise<Run> => run(rig?.node as string, [rig?.codeServer as string, ...dirs, ...args], { cwd: base, env: process.env });
    const installed = await codeServer(['--install-extension', vsix]);
    expect(installed.code, installed.stderr).toBe(0);
    const listed = await codeServer(['--list-extensions', '--show-versions']);
    expect(listed.stdout).toContain(`${extension.publisher}.${extension.name}@${extension.version}`);
  });

  it("installs as a project's local dependency without replacing the project's own commands (tsc stays the project's TypeScript)", async () => {
    // A project with its own TypeScript, as the checkout pins it (in the npm cache: this install is offline-friendly).
    const project = join(base, 'projects', 'local');
    await mkdir(project, { recursive: true });
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'local-project', version: '1.0.0', private: true }));
    const typescript = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies['typescript'] ?? 'latest';
    const npm = (args: readonly string[]): Promise<Run> => run('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund'], { cwd: project, env: process.env, timeoutMs: INSTALL_TIMEOUT_MS });
    const own = await npm(['install', '--save-dev', `typescript@${typescript}`]);
    expect(own.code, own.stderr).toBe(0);
    const installed = await npm(['install', '--save-dev', join(base, tarball.filename)]);
    expect(installed.code, installed.stderr).toBe(0);
    // Only the project's commands and ours are linked: TypeScript 7's `tsc` and pyright's commands are not.
    expect(readdirSync(join(project, 'node_modules', '.bin')).sort()).toEqual(['dialect', 'tsc', 'tsserver']);
    const tsc = await run(join(project, 'node_modules', '.bin', 'tsc'), ['--version'], { cwd: project, env });
    expect(tsc.stdout.trim()).toBe(`Version ${typescript}`);
    // The local command answers TypeScript (tsgo) and Python (the bundled pyright) questions.
    const local = join(project, 'node_modules', '.bin', 'dialect');
    const ts = await run(local, ['eval', 'findDefinitions("User")'], { cwd: app, env });
    expect(ts.code, ts.stderr).toBe(0);
    expect(ts.stdout).toContain(`src/model.ts:${userLine}:`);
    const python = join(base, 'projects', 'py');
    cpSync(join(repoRoot, 'fixtures', 'py-app'), python, { recursive: true });
    const py = await run(local, ['eval', 'findDefinitions("Circle")', '--quiet'], { cwd: python, env });
    expect(py.code, py.stderr).toBe(0);
    expect(py.stdout).toMatch(/^class Circle {2}\S+\.py:\d+:\d+ /m);
  }, 2 * INSTALL_TIMEOUT_MS);

  describe('dialect mcp through a real MCP client', () => {
    /** A client over stdio to the installed `dialect mcp ARGS`, started in `cwd`; with `roots`, it declares the capability and lists them. */
    async function connect(args: readonly string[], cwd: string, roots?: { list: string[] }): Promise<{ client: Client; stderr: () => string; close: () => Promise<void> }> {
      const transport = new StdioClientTransport({ command: dialect, args: ['mcp', ...args], cwd, env: env as Record<string, string>, stderr: 'pipe' });
      let stderr = '';
      transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
      const client = new Client({ name: 'dialect-package-test', version: '1.0.0' }, { capabilities: roots !== undefined ? { roots: { listChanged: true } } : {} });
      if (roots !== undefined) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots.list.map((dir) => ({ uri: pathToFileURL(dir).href })) }));
      await client.connect(transport);
      return { client, stderr: () => stderr, close: () => client.close() };
    }

    it('serves --workspace', async () => {
      const c = await connect(['--workspace', app], base);
      try {
        expect(c.client.getServerVersion()?.name).toBe(manifest.name);
        const result = await c.client.callTool({ name: 'ide_operation', arguments: { program: 'findDefinitions("User")' } });
        expect(textOf(result)).toContain(`src/model.ts:${userLine}:`);
      } finally {
        await c.close();
      }
    });

    it("serves the client's roots when started in /, each root a workspace named by its folder, and follows their changes", async () => {
      const roots = { list: [app] };
      const c = await connect([], '/', roots);
      try {
        const one = await c.client.callTool({ name: 'ide_operation', arguments: { program: 'findDefinitions("User")' } });
        expect(textOf(one)).toContain(`src/model.ts:${userLine}:`);
        // A second root: calls must now say which workspace they mean.
        await writeFile(join(other, 'src', 'extra.ts'), 'export class OnlyInOther {}\n');
        roots.list = [app, other];
        await c.client.sendRootsListChanged();
        const unnamed = await c.client.callTool({ name: 'ide_operation', arguments: { program: 'findDefinitions("OnlyInOther")' } });
        expect((unnamed as CallToolResult).isError).toBe(true);
        expect(textOf(unnamed)).toContain('"app"');
        expect(textOf(unnamed)).toContain('"other"');
        const named = await c.client.callTool({ name: 'ide_operation', arguments: { program: 'findDefinitions("OnlyInOther")', workspace: 'other' } });
        expect(textOf(named)).toContain('src/extra.ts:1:');
        expect(c.stderr()).not.toContain('serving the workspace /\n');
      } finally {
        await c.close();
      }
    });

    it('refuses, without --workspace or roots, to index / and says how to configure the workspace', async () => {
      const c = await connect([], '/');
      try {
        const result = await c.client.callTool({ name: 'ide_operation', arguments: { program: 'findFiles("**/*.ts")' } });
        expect((result as CallToolResult).isError).toBe(true);
        expect(textOf(result)).toContain('no workspace');
        expect(textOf(result)).toContain('--workspace');
        expect(c.stderr()).not.toContain('serving the workspace');
      } finally {
        await c.close();
      }
    });
  });
});
