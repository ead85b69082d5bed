/**
 * Cold start on a generated multi-crate Cargo workspace whose one registry dependency cannot be
 * fetched: Dialect's first answer (toolchain probe, `cargo metadata`, generated project
 * description, rust-analyzer load, the query) against rust-analyzer's own readiness when it is
 * handed a working project description directly, and against rust-analyzer left alone (cargo
 * metadata fails, it falls back to loading crates without their dependencies). Interleaved, medians.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReferencesRequest } from 'vscode-languageserver-protocol';
import { LanguageServer } from '../ide-adapter/lsp/client.js';
import { prepareRustWorkspace } from '../ide-adapter/languages/rust/workspace.js';
import { rustAnalyzerServer } from '../ide-adapter/languages/rust/index.js';
import { withSettings, type ServerDefinition } from '../ide-adapter/lsp/servers.js';
import { rustOfflineEnv } from '../ide-adapter/test/support/rust-offline.js';
import { IdeSession } from './lsp-support.js';
import { fmt, summarize, table } from './measure.js';

/** Member crates: `crates/base` plus `crates/c1…c6` and `apps/app`. */
const CRATES = 8;
/** Modules per dependent crate, each calling the cross-crate method once. */
const MODULES = 10;
/** Cold starts of Dialect and of the baseline (interleaved); rust-analyzer alone runs once (it shows what is missing). */
const REPETITIONS = 3;
const TIMEOUT_MS = 300_000;

/**
 * Writes the workspace: `base` defines `Meter::reading` and depends on `serde = "1"` (no lockfile,
 * no cache: unfetchable offline); every other crate depends on `base` by path and calls
 * `reading()` once per module. Returns how many calls there are.
 */
export async function generateWorkspace(root: string): Promise<number> {
  const members: string[] = [];
  const crate = async (dir: string, name: string, deps: string[], lib: string, files: Record<string, string>): Promise<void> => {
    members.push(dir);
    await mkdir(join(root, dir, 'src'), { recursive: true });
    const manifest = [`[package]`, `name = "${name}"`, `version = "0.1.0"`, `edition = "2021"`, '', '[dependencies]', ...deps, ''].join('\n');
    await writeFile(join(root, dir, 'Cargo.toml'), manifest);
    await writeFile(join(root, dir, 'src', lib), Object.keys(files).map((m) => `pub mod ${m};\n`).join('') + (lib === 'main.rs' ? 'fn main() {}\n' : ''));
    for (const [module, text] of Object.entries(files)) await writeFile(join(root, dir, 'src', `${module}.rs`), text);
  };
  await crate('crates/base', 'bench-base', ['serde = "1"'], 'lib.rs', {
    meter: '/// A meter.\npub struct Meter {\n    pub value: u64,\n}\n\nimpl Meter {\n    /// Its reading; called only from other crates.\n    pub fn reading(&self) -> u64 {\n        self.value\n    }\n}\n',
  });
  let calls = 0;
  for (let c = 1; c < CRATES; c++) {
    const app = c === CRATES - 1;
    const previous = c > 1 ? [`bench-c${c - 1} = { path = "../../crates/c${c - 1}" }`] : [];
    const files: Record<string, string> = {};
    for (let m = 0; m < MODULES; m++) {
      files[`m${m}`] = `use bench_base::meter::Meter;\n\n/// Module ${m} of crate ${c}.\npub fn use_${c}_${m}(meter: &Meter) -> u64 {\n    meter.reading() + ${m}\n}\n`;
      calls++;
    }
    await crate(app ? 'apps/app' : `crates/c${c}`, app ? 'bench-app' : `bench-c${c}`, ['bench-base = { path = "../../crates/base" }', ...previous], app ? 'main.rs' : 'lib.rs', files);
  }
  await writeFile(join(root, 'Cargo.toml'), `[workspace]\nmembers = [${members.map((m) => JSON.stringify(m)).join(', ')}]\nresolver = "2"\n`);
  return calls;
}

/** Position of `fn reading` (0-based LSP, ASCII file) in `crates/base/src/meter.rs`. */
const READING_POSITION = { line: 6, character: '    pub fn '.length };

export async function benchRustWorkspace(): Promise<string> {
  const base = await mkdtemp(join(tmpdir(), 'dialect-bench-workspace-'));
  const root = join(base, 'bench-workspace');
  try {
    const calls = await generateWorkspace(root);
    const env = await rustOfflineEnv();
    // The working description, computed once outside the timings, for the baseline.
    const prepared = await prepareRustWorkspace(root, { ...process.env, ...env });
    if (prepared.settings === undefined) throw new Error('expected cargo metadata to fail offline and a generated description');
    const described: ServerDefinition = { ...withSettings(rustAnalyzerServer, prepared.settings.section, prepared.settings.patch), prepare: undefined, env: prepared.env ?? {} };
    const alone: ServerDefinition = { ...rustAnalyzerServer, prepare: undefined };
    const uri = new URL(`file://${join(root, 'crates', 'base', 'src', 'meter.rs')}`).href;

    const product: number[] = [];
    const productFound: number[] = [];
    const describedReady: number[] = [];
    const aloneReady: number[] = [];
    const aloneFound: number[] = [];
    const rawReferences = async (server: LanguageServer): Promise<number> => {
      const refs = await server.request(ReferencesRequest.type, { textDocument: { uri }, position: READING_POSITION, context: { includeDeclaration: false } });
      return refs?.length ?? 0;
    };
    for (let i = 0; i < REPETITIONS; i++) {
      {
        const t0 = performance.now();
        const session = await IdeSession.open({ workspaceRoot: root, env, readyTimeoutMs: TIMEOUT_MS });
        const outcome = await session.evaluate('findReferences(findDefinition("reading"))', { deadlineMs: TIMEOUT_MS });
        product.push(performance.now() - t0);
        productFound.push(outcome.kind === 'value' ? (outcome.value as unknown[]).length : 0);
        await session.shutdown();
      }
      for (const [definition, times, found] of [
        [described, describedReady, undefined],
        ...(i === 0 ? ([[alone, aloneReady, aloneFound]] as const) : []),
      ] as const) {
        const t0 = performance.now();
        const server = await LanguageServer.start(definition, root, { env });
        await server.waitUntilReady({ timeoutMs: TIMEOUT_MS });
        times.push(performance.now() - t0);
        if (found !== undefined) found.push(await rawReferences(server));
        await server.shutdown();
      }
    }
    const s = (times: number[]): string => `${fmt.ms(summarize(times).median / 1000)} s`;
    const refs = (found: number[]): string => `${Math.min(...found)}–${Math.max(...found)} of ${calls}`;
    return [
      `### Language servers: a Cargo workspace of ${CRATES} crates whose dependencies cannot be fetched`,
      '',
      `A generated workspace of ${CRATES} crates in nested folders (\`crates/…\`, \`apps/app\`): \`bench-base\` depends on \`serde = "1"\` (no lockfile, no cache, no network) and defines \`Meter::reading\`; the ${CRATES - 1} other crates depend on it by path and call \`reading()\` ${calls} times in all. Cold starts, ${REPETITIONS} each of Dialect and the baseline, interleaved (medians), and one of rust-analyzer alone. std is loaded through the offline aid in every run, so most of each start is rust-analyzer indexing std and priming its caches; Dialect's extra time is the toolchain probe and \`cargo metadata\` (about 0.6 s) and the first reference search, which type-checks the ${CRATES - 1} calling crates.`,
      '',
      table(
        ['cold start', 'time', 'references of `Meter::reading` found'],
        [
          ['Dialect: first answer of `findReferences(findDefinition("reading"))` (finds a working cargo, runs `cargo metadata --offline`, generates the project description, starts rust-analyzer, waits, asks)', s(product), refs(productFound)],
          ['rust-analyzer ready when handed the same project description directly (baseline)', s(describedReady), '—'],
          ['rust-analyzer left alone (its `cargo metadata` fails; it loads the crates without their dependencies), ready', s(aloneReady), refs(aloneFound)],
        ],
      ),
    ].join('\n');
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
