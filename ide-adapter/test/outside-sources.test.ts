/**
 * What a language server may show from outside the workspace (`lsp/outside-sources.ts`), against
 * the real rust-analyzer: an untrusted crate whose path dependency `../outside` holds a secret
 * constant (with a doc comment) never shows it — not through the hover of a local alias, not of a
 * re-export, not in any text an answer carries; trusted, it does; the standard library's hover
 * keeps its documentation either way (the toolchain is allowed).
 */
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Outcome } from '../../dialect/index.js';
import type { HoverInfo } from '../backend.js';
import { IdeSession } from '../session.js';
import { rustOfflineEnv } from './support/rust-offline.js';
import { positionOf, requireServer } from './support/servers.js';
import { typeScriptServer } from '../languages/typescript/index.js';
import { serversAvailable } from './support/session.js';
import { SourcePolicy } from '../lsp/outside-sources.js';

const available = await serversAvailable('rust');
const offline = await rustOfflineEnv();
const tsAvailable = (await requireServer(typeScriptServer)) !== undefined;

const SECRET = 'SECRET-7f3a9c-from-outside';
const SECRET_DOC = 'Outside-doc-4e1b: the token of another project';
const OUTSIDE_LIB = `/// ${SECRET_DOC}\npub const TOKEN: &str = "${SECRET}";\n\n/// Outside-fn-doc-9d2c\npub fn outside_fn() -> usize { 1 }\n`;
const LIB = [
  'pub use outside::outside_fn;',
  '',
  '/// Our own alias.',
  'pub const MY: &str = outside::TOKEN;',
  '',
  'pub fn local_len() -> usize {',
  '    let v: Vec<u8> = Vec::new();',
  '    v.len() + MY.len() + outside_fn()',
  '}',
  '',
].join('\n');

describe.runIf(available)('text from outside the workspace (real rust-analyzer)', () => {
  let base: string;
  let root: string;
  beforeAll(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'dialect-outside-')));
    await mkdir(join(base, 'outside', 'src'), { recursive: true });
    await writeFile(join(base, 'outside', 'Cargo.toml'), '[package]\nname = "outside"\nversion = "0.1.0"\nedition = "2021"\n');
    await writeFile(join(base, 'outside', 'src', 'lib.rs'), OUTSIDE_LIB);
    root = join(base, 'ws');
    await mkdir(join(root, 'src'), { recursive: true });
    await writeFile(join(root, 'Cargo.toml'), '[package]\nname = "ws"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\noutside = { path = "../outside" }\n');
    await writeFile(join(root, 'src', 'lib.rs'), LIB);
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  const text = (o: unknown): string => JSON.stringify(o) ?? '';
  interface Answers {
    my: Outcome;
    diagnostics: Outcome;
    /** The hover at a call of the outside crate's function, and at std's `Vec::len`, through the port. */
    outsideCall: HoverInfo | undefined;
    len: HoverInfo | undefined;
  }
  async function answers(trusted: boolean): Promise<Answers> {
    const session = await IdeSession.open({ workspaceRoot: root, env: offline, readyTimeoutMs: 120_000, trusted });
    try {
      await session.waitUntilReady({ timeoutMs: 120_000 });
      const run = (program: string) => session.evaluate(program, { deadlineMs: 120_000 });
      const lib = await readFile(join(root, 'src', 'lib.rs'), 'utf8');
      const at = (needle: string) => {
        const p = positionOf(lib, needle);
        return { line: p.line, column: p.column };
      };
      return {
        my: await run('getSymbolInfo("MY")'),
        diagnostics: await run('diagnostics("src/lib.rs")'),
        outsideCall: await session.backend.hover('src/lib.rs', at('outside_fn()')),
        len: await session.backend.hover('src/lib.rs', at('len() +')),
      };
    } finally {
      await session.shutdown();
    }
  }

  it('untrusted: no answer carries the outside constant or its docs; std keeps its docs', async () => {
    const o = await answers(false);
    for (const answer of Object.values(o)) {
      expect(text(answer)).not.toContain(SECRET);
      expect(text(answer)).not.toContain(SECRET_DOC);
      expect(text(answer)).not.toContain('Outside-fn-doc-9d2c');
    }
    expect(o.my).toMatchObject({ kind: 'value', value: { name: 'MY', documentation: 'Our own alias.' } });
    // Vec::len lives in the toolchain's std: allowed, docs shown.
    expect(o.len?.documentation).toMatch(/number of elements/i);
  }, 300_000);

  it('trusted: the path dependency is loaded and shown as before', async () => {
    const o = await answers(true);
    expect(text(o.my)).toContain(SECRET);
    expect(text(o.outsideCall)).toContain('Outside-fn-doc-9d2c');
    expect(o.len?.documentation).toMatch(/number of elements/i);
  }, 300_000);
});

describe.runIf(tsAvailable)('hover of a symbol defined outside the workspace (real tsgo)', () => {
  let base: string;
  let root: string;
  beforeAll(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'dialect-outside-ts-')));
    await mkdir(join(base, 'outside'), { recursive: true });
    await writeFile(join(base, 'outside', 'lib.ts'), '/** Outside-ts-doc-5a7e */\nexport function outsideFn(): number {\n  return 1;\n}\n');
    root = join(base, 'ws');
    await mkdir(join(root, 'src'), { recursive: true });
    await writeFile(join(root, 'tsconfig.json'), '{"compilerOptions": {"strict": true}, "include": ["src"]}\n');
    await writeFile(join(root, 'src', 'index.ts'), "import { outsideFn } from '../../outside/lib';\n\n/** Inside-doc */\nexport const n: number = outsideFn();\nexport const s: string = n.toFixed(2);\n");
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  async function hovers(trusted: boolean): Promise<{ outside: HoverInfo | undefined; lib: HoverInfo | undefined; info: Outcome }> {
    const session = await IdeSession.open({ workspaceRoot: root, readyTimeoutMs: 60_000, trusted });
    try {
      await session.waitUntilReady({ timeoutMs: 60_000 });
      const text = await readFile(join(root, 'src', 'index.ts'), 'utf8');
      const call = positionOf(text, 'outsideFn()');
      const toFixed = positionOf(text, 'toFixed');
      return {
        outside: await session.backend.hover('src/index.ts', { line: call.line, column: call.column }),
        lib: await session.backend.hover('src/index.ts', { line: toFixed.line, column: toFixed.column }),
        info: await session.evaluate('getSymbolInfo("n")', { deadlineMs: 60_000 }),
      };
    } finally {
      await session.shutdown();
    }
  }

  it('untrusted: withheld with a note naming the file; the bundled lib files and our own symbols still show', async () => {
    const h = await hovers(false);
    expect(Object.keys(h.outside ?? {})).toEqual(['withheld']);
    expect(h.outside?.withheld).toMatch(/^hover text withheld: it comes from .*\/outside\/lib\.ts, outside this untrusted workspace/);
    expect(h.lib?.signature).toMatch(/toFixed/); // lib.es5.d.ts, shipped with the bundled server
    expect(h.info).toMatchObject({ kind: 'value', value: { name: 'n', documentation: 'Inside-doc' } });
  }, 120_000);

  it('trusted: shown', async () => {
    const h = await hovers(true);
    expect(h.outside?.documentation).toContain('Outside-ts-doc-5a7e');
  }, 120_000);
});

describe('the installed roots a policy allows', () => {
  it('are found on first use (only an untrusted workspace asks), once', () => {
    let found = 0;
    const roots = (): readonly string[] => {
      found++;
      return ['/opt/toolchain'];
    };
    const trusted = new SourcePolicy('/work/app', true, roots);
    expect(trusted.mayShow('/opt/elsewhere/x.rs')).toBe(true);
    expect(found).toBe(0);
    const untrusted = new SourcePolicy('/work/app', false, roots);
    expect(found).toBe(0);
    expect([untrusted.mayShow('/opt/toolchain/lib.rs'), untrusted.mayShow('/opt/elsewhere/x.rs'), untrusted.mayShow('/work/app/src/a.rs')]).toEqual([true, false, true]);
    expect(found).toBe(1);
  });
});
