/**
 * Language servers on a generated 1,000-file crate: cold start (first answer vs the server's own
 * readiness) and warm per-call latency of the IDE functions through the interpreter against the
 * same raw LSP requests sent directly on the same warm server, interleaved.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HoverRequest, ReferencesRequest, WorkspaceSymbolRequest } from 'vscode-languageserver-protocol';
import { rustOfflineEnv } from '../ide-adapter/test/support/rust-offline.js';
import type { LspBackend} from './lsp-support.js';
import { IdeSession, type LanguageServerHandle } from './lsp-support.js';
import { fmt, interleaved, table } from './measure.js';

const FILES = 1000;

/** Writes a crate of `files` modules; `Entity` is used about 12 times per module. */
export async function generateCrate(dir: string, files = FILES): Promise<void> {
  await mkdir(join(dir, 'src'), { recursive: true });
  await writeFile(join(dir, 'Cargo.toml'), '[package]\nname = "bench-crate"\nversion = "0.1.0"\nedition = "2021"\n\n[workspace]\n');
  const mods: string[] = ['pub mod core;'];
  await writeFile(
    join(dir, 'src', 'core.rs'),
    '/// The entity every module uses.\n#[derive(Debug, Clone, Copy)]\npub struct Entity {\n    pub id: u64,\n}\n\nimpl Entity {\n    /// Makes an entity.\n    pub fn new(id: u64) -> Self {\n        Entity { id }\n    }\n}\n',
  );
  for (let i = 0; i < files; i++) {
    const n = String(i).padStart(4, '0');
    mods.push(`pub mod m${n};`);
    await writeFile(
      join(dir, 'src', `m${n}.rs`),
      [
        'use crate::core::Entity;',
        '',
        `/// Item number ${i}.`,
        `pub struct Item${i} {`,
        '    pub entity: Entity,',
        '    pub value: u64,',
        '}',
        '',
        `impl Item${i} {`,
        `    pub fn new(entity: Entity) -> Self {`,
        `        Self { entity, value: ${i} }`,
        '    }',
        '',
        '    pub fn entity(&self) -> &Entity {',
        '        &self.entity',
        '    }',
        '',
        '    pub fn pair(entity: Entity, other: Entity) -> (Entity, Entity) {',
        '        (entity, other)',
        '    }',
        '}',
        '',
        `pub fn make_${i}(e: Entity) -> Entity {`,
        `    Item${i}::new(e).entity.clone()`,
        '}',
        '',
        `pub fn helper_${i}(a: &Entity, b: &Entity) -> u64 {`,
        '    a.id + b.id',
        '}',
        '',
      ].join('\n'),
    );
  }
  await writeFile(join(dir, 'src', 'lib.rs'), `${mods.join('\n')}\n`);
}

export async function benchLanguageServers(): Promise<string> {
  const base = await mkdtemp(join(tmpdir(), 'dialect-bench-crate-'));
  const root = join(base, 'bench-crate');
  try {
    await generateCrate(root);
    const env = await rustOfflineEnv();

    // Cold start: first answer through the interpreter vs the server's own readiness.
    const t0 = performance.now();
    const session = await IdeSession.open({ workspaceRoot: root, env, readyTimeoutMs: 600_000 });
    const server: LanguageServerHandle = await (session.backend as LspBackend).pool.server('rust-analyzer');
    const readyAt = server.waitUntilReady({ timeoutMs: 600_000 }).then(() => performance.now() - t0);
    const first = await session.evaluate('findDefinitions("Item500")', { deadlineMs: 600_000 });
    const firstAnswer = performance.now() - t0;
    const readiness = await readyAt;
    if (first.kind !== 'value' || (first.value as unknown[]).length !== 1) throw new Error('findDefinitions("Item500") did not find the definition');

    const entity = await session.evaluate('findDefinition("Entity")');
    const item = await session.evaluate('findDefinition("Item500")');
    if (entity.kind !== 'value' || item.kind !== 'value') throw new Error('lookup failed');
    const entitySym = entity.value as { definedAt: { path: string; start: { line: number; column: number } } };
    const itemSym = item.value as typeof entitySym;
    const abs = (p: string): string => session.workspace.resolve(p);
    const uri = (p: string): string => new URL(`file://${abs(p)}`).href;
    const lspPos = async (s: typeof entitySym) => {
      const doc = await server.ensureOpen(abs(s.definedAt.path));
      return server.toLspPosition(doc.lines, s.definedAt.start);
    };
    const entityPos = await lspPos(entitySym);
    const itemPos = await lspPos(itemSym);
    const firstRefs = performance.now();
    await session.evaluate('findReferences(_)', { bindings: { _: entity.value } });
    const firstReferences = performance.now() - firstRefs;
    const rawRefs = await server.request(ReferencesRequest.type, { textDocument: { uri: uri(entitySym.definedAt.path) }, position: entityPos, context: { includeDeclaration: false } });
    const refCount = rawRefs?.length ?? 0;

    const evalValue = async (program: string, bindings?: Record<string, unknown>): Promise<void> => {
      const o = await session.evaluate(program, bindings !== undefined ? { bindings } : {});
      if (o.kind !== 'value') throw new Error(`${program} failed`);
    };
    const cases: { name: string; adapter: () => Promise<void>; raw: () => Promise<unknown>; rawText: string }[] = [
      {
        name: 'findDefinitions("Item500")',
        adapter: () => evalValue('findDefinitions("Item500")'),
        // What the adapter asks when warm: the index (the outline it uses to land on the name is
        // cached until the file changes).
        raw: () => server.request(WorkspaceSymbolRequest.type, { query: 'Item500' }),
        rawText: 'workspace/symbol',
      },
      {
        name: 'findReferences(Item500)',
        adapter: () => evalValue('findReferences(_)', { _: item.value }),
        raw: () => server.request(ReferencesRequest.type, { textDocument: { uri: uri(itemSym.definedAt.path) }, position: itemPos, context: { includeDeclaration: false } }),
        rawText: 'references',
      },
      {
        name: `findReferences(Entity) — ${fmt.int(refCount)} uses`,
        adapter: () => evalValue('findReferences(_)', { _: entity.value }),
        raw: () => server.request(ReferencesRequest.type, { textDocument: { uri: uri(entitySym.definedAt.path) }, position: entityPos, context: { includeDeclaration: false } }),
        rawText: 'references',
      },
      {
        name: 'getSymbolInfo(Entity)',
        adapter: () => evalValue('getSymbolInfo(_)', { _: entity.value }),
        raw: () => server.request(HoverRequest.type, { textDocument: { uri: uri(entitySym.definedAt.path) }, position: entityPos }),
        rawText: 'hover',
      },
    ];
    const rows: string[][] = [];
    for (const c of cases) {
      const runs = c.name.startsWith('findReferences(Entity)') ? 15 : 60;
      const r = await interleaved({ raw: c.raw, adapter: c.adapter }, runs);
      const raw = r['raw']!.median;
      const adapter = r['adapter']!.median;
      const overhead = adapter - raw;
      rows.push([c.name, c.rawText, `${fmt.ms(raw)} ms`, `${fmt.ms(adapter)} ms`, `${overhead >= 0 ? '+' : ''}${fmt.ms(overhead)} ms (${fmt.ratio((adapter / raw - 1) * 100)}%)`]);
    }
    const memory = server.memory();
    await session.shutdown();
    return [
      '### Language servers: rust-analyzer on a generated 1,000-file crate',
      '',
      `A crate of ${FILES} modules (${FILES + 2} files) where \`Entity\` is used about 12 times per module; std loaded through the offline aid (tests and benchmarks only).`,
      '',
      table(
        ['cold start', 'time'],
        [
          ['rust-analyzer ready (its own quiescent status)', `${fmt.ms(readiness / 1000)} s`],
          ['first answer of `findDefinitions("Item500")` through the interpreter', `${fmt.ms(firstAnswer / 1000)} s`],
          [`first \`findReferences(Entity)\` after readiness (${fmt.int(refCount)} references; Dialect returns the first 2,000 and the count)`, `${fmt.ms(firstReferences)} ms`],
          ['rust-analyzer memory (RSS) after the run', memory !== undefined ? `${fmt.int(memory / 1048576)} MB` : 'n/a'],
        ],
      ),
      '',
      'Warm per-call latency: each IDE function through the interpreter against the same raw LSP requests sent directly on the same warm server, interleaved. Target: the adapter adds at most 10% (or 0.3 ms).',
      '',
      table(['call', 'raw LSP requests', 'raw', 'through Dialect', 'adapter adds'], rows),
    ].join('\n');
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
