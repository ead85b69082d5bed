/**
 * Cold start offline on a generated multi-crate Cargo workspace whose one registry dependency cannot
 * be fetched, without the offline std aid (std's own crates.io dependencies cannot be fetched
 * either): Dialect's ready time and first answer (toolchain probe, `cargo metadata`, generated
 * project description with std's crate graph, rust-analyzer load, the query) against
 * rust-analyzer's own readiness when handed the same description directly, when handed it without
 * std's graph (it runs `cargo metadata` on std, as before), and left alone. Interleaved, medians.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReferencesRequest } from 'vscode-languageserver-protocol';
import { LanguageServer } from '../ide-adapter/lsp/client.js';
import { prepareRustWorkspace } from '../ide-adapter/languages/rust/workspace.js';
import { rustAnalyzerServer } from '../ide-adapter/languages/rust/index.js';
import type { RustProjectJson } from '../ide-adapter/languages/rust/project.js';
import { withSettings, type ServerDefinition } from '../ide-adapter/lsp/servers.js';
import { IdeSession } from './lsp-support.js';
import { fmt, summarize, table } from './measure.js';

/** Member crates: `crates/base` plus `crates/c1…c6` and `apps/app`. */
const CRATES = 8;
/** Modules per dependent crate, each calling the cross-crate method once. */
const MODULES = 10;
/** Cold starts of Dialect and of the described baselines (interleaved); rust-analyzer alone runs once (it shows what is missing). */
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

/** Environment of a user without network: no offline std aid, an empty cargo cache, cargo offline. */
function offlineEnv(cargoHome: string): Record<string, string> {
  return { PATH: `/usr/bin:${process.env.PATH ?? ''}`, CARGO_HOME: cargoHome, CARGO_NET_OFFLINE: 'true' };
}

/** First answer allowed against the raw server's ready time: at most this factor, plus {@link TARGET_SLACK_S}. */
const TARGET_FACTOR = 2;
const TARGET_SLACK_S = 1;

export async function benchRustWorkspace(): Promise<string> {
  const base = await mkdtemp(join(tmpdir(), 'dialect-bench-workspace-'));
  const root = join(base, 'bench-workspace');
  const cargoHome = join(base, 'cargo-home');
  try {
    const calls = await generateWorkspace(root);
    await mkdir(cargoHome);
    const env = offlineEnv(cargoHome);
    // The working description (std's graph included), computed once outside the timings, for the baselines.
    const prepared = await prepareRustWorkspace(root, { ...process.env, ...env });
    if (prepared.settings === undefined) throw new Error('expected cargo metadata to fail offline and a generated description');
    const linked = (prepared.settings.patch as { linkedProjects: RustProjectJson[] }).linkedProjects;
    if (linked[0]?.sysroot_project === undefined) throw new Error("expected std's crates in the description (are std's sources with their vendored crates installed?)");
    const server = (patch: Record<string, unknown>): ServerDefinition => ({ ...withSettings(rustAnalyzerServer, prepared.settings?.section ?? 'rust-analyzer', patch), prepare: undefined, env: prepared.env ?? {} });
    const described = server(prepared.settings.patch);
    // What it was before: the same description without std's crates, so rust-analyzer runs `cargo metadata` on std's workspace.
    const withoutStd = server({ linkedProjects: linked.map(({ sysroot_project: _std, ...rest }) => rest) });
    const alone: ServerDefinition = { ...rustAnalyzerServer, prepare: undefined };
    const uri = new URL(`file://${join(root, 'crates', 'base', 'src', 'meter.rs')}`).href;

    const productReady: number[] = [];
    const product: number[] = [];
    const productFound: number[] = [];
    const productHealthy: boolean[] = [];
    const describedReady: number[] = [];
    const describedHealthy: boolean[] = [];
    const withoutStdReady: number[] = [];
    const withoutStdHealthy: boolean[] = [];
    const aloneReady: number[] = [];
    const aloneFound: number[] = [];
    const rawReferences = async (running: LanguageServer): Promise<number> => {
      const refs = await running.request(ReferencesRequest.type, { textDocument: { uri }, position: READING_POSITION, context: { includeDeclaration: false } });
      return refs?.length ?? 0;
    };
    for (let i = 0; i < REPETITIONS; i++) {
      {
        const t0 = performance.now();
        const session = await IdeSession.open({ workspaceRoot: root, env, readyTimeoutMs: TIMEOUT_MS });
        const completeness = await session.backend.waitUntilReady({ timeoutMs: TIMEOUT_MS });
        productReady.push(performance.now() - t0);
        const outcome = await session.evaluate('findReferences(findDefinition("reading"))', { deadlineMs: TIMEOUT_MS });
        product.push(performance.now() - t0);
        productFound.push(outcome.kind === 'value' ? (outcome.value as unknown[]).length : 0);
        productHealthy.push(completeness.servers.every((s) => s.health === undefined));
        await session.shutdown();
      }
      for (const [definition, times, healthy, found] of [
        [described, describedReady, describedHealthy, undefined],
        [withoutStd, withoutStdReady, withoutStdHealthy, undefined],
        ...(i === 0 ? ([[alone, aloneReady, undefined, aloneFound]] as const) : []),
      ] as const) {
        const t0 = performance.now();
        const running = await LanguageServer.start(definition, root, { env });
        await running.waitUntilReady({ timeoutMs: TIMEOUT_MS });
        times.push(performance.now() - t0);
        healthy?.push(running.health === undefined);
        if (found !== undefined) found.push(await rawReferences(running));
        await running.shutdown();
      }
    }
    const median = (times: number[]): number => summarize(times).median / 1000;
    const s = (times: number[]): string => `${fmt.ms(median(times))} s`;
    const refs = (found: number[]): string => `${Math.min(...found)}–${Math.max(...found)} of ${calls}`;
    const health = (healthy: boolean[]): string => (healthy.every(Boolean) ? 'healthy' : healthy.some(Boolean) ? 'degraded in some runs' : 'degraded (std not loaded)');
    const target = TARGET_FACTOR * median(describedReady) + TARGET_SLACK_S;
    return [
      `### Language servers: a Cargo workspace of ${CRATES} crates whose dependencies cannot be fetched, offline`,
      '',
      `A generated workspace of ${CRATES} crates in nested folders (\`crates/…\`, \`apps/app\`): \`bench-base\` depends on \`serde = "1"\` (no lockfile, no cache, no network) and defines \`Meter::reading\`; the ${CRATES - 1} other crates depend on it by path and call \`reading()\` ${calls} times in all. Run as a user without network: an empty cargo cache, no offline std aid, so std's own crates.io dependencies cannot be fetched either. Dialect describes the workspace's crates and std's (from std's sources and the crates vendored with them) to rust-analyzer, which then runs no \`cargo metadata\` at all. Cold starts, ${REPETITIONS} each of Dialect and the two described baselines, interleaved (medians), and one of rust-analyzer alone. Target: Dialect's first answer ≤ ${TARGET_FACTOR} × the raw server's ready time + ${TARGET_SLACK_S} s.`,
      '',
      table(
        ['cold start', 'time', 'server', 'references of `Meter::reading` found'],
        [
          ['Dialect: ready (finds a working cargo, runs `cargo metadata --offline`, describes the workspace and std, starts rust-analyzer, waits)', s(productReady), health(productHealthy), '—'],
          ['Dialect: first answer of `findReferences(findDefinition("reading"))` (the same, then asks)', s(product), health(productHealthy), refs(productFound)],
          ["rust-analyzer ready when handed the same description directly (raw; the baseline)", s(describedReady), health(describedHealthy), '—'],
          ["rust-analyzer ready when handed the description without std's crates (before: it runs `cargo metadata` on std's workspace, which fails offline)", s(withoutStdReady), health(withoutStdHealthy), '—'],
          ['rust-analyzer left alone (its `cargo metadata` fails; it loads the crates without their dependencies), ready', s(aloneReady), '—', refs(aloneFound)],
        ],
      ),
      '',
      `First answer ${fmt.ms(median(product))} s against the target ${fmt.ms(target)} s (${TARGET_FACTOR} × ${fmt.ms(median(describedReady))} s + ${TARGET_SLACK_S} s): ${median(product) <= target ? 'met' : 'not met'}.`,
    ].join('\n');
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
