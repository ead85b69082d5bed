/**
 * FOR TESTS AND BENCHMARKS ONLY. Offline, rust-analyzer cannot load the standard library (the
 * sysroot's `cargo metadata` needs crates.io). The shared aid `rust-offline-std/make-std-stubs.py`
 * writes stub crates plus a CARGO_HOME that replaces crates.io with them; this helper runs it once
 * per machine into a cache directory under the OS temp dir and returns the environment to pass to
 * `LanguageServer.start`/`ServerPool` (`env` option). The product never uses this.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Debian sysroot library whose lockfile the stubs mirror. */
const SYSROOT_LIBRARY = '/usr/lib/rustlib/src/rust/library';
const SCRIPT =
  process.env.DIALECT_RUST_OFFLINE_STD_SCRIPT ?? fileURLToPath(new URL('../../../../shared/tools/rust-offline-std/make-std-stubs.py', import.meta.url));

let prepared: Promise<Record<string, string>> | undefined;

/**
 * Environment variables (`CARGO_HOME`, and `PATH` with `/usr/bin` first so Debian's cargo/rustc,
 * whose sysroot has the sources, win over rustup proxies) that let rust-analyzer load std offline.
 * When the aid or the sysroot sources are missing it returns only the `PATH` change, and
 * rust-analyzer runs without std, as it would for a user without network.
 */
export function rustOfflineEnv(): Promise<Record<string, string>> {
  prepared ??= prepare();
  return prepared;
}

async function prepare(): Promise<Record<string, string>> {
  const path = `/usr/bin:${process.env.PATH ?? ''}`;
  const lock = join(SYSROOT_LIBRARY, 'Cargo.lock');
  if (!existsSync(SCRIPT) || !existsSync(lock)) return { PATH: path };
  const hash = createHash('sha256').update(readFileSync(lock)).update(readFileSync(SCRIPT)).digest('hex').slice(0, 16);
  const dir = join(tmpdir(), `dialect-rust-offline-std-${hash}`);
  const env = { CARGO_HOME: join(dir, 'cargo-home'), PATH: path };
  const done = join(dir, 'done');
  if (existsSync(done)) return env;
  // Test files run in parallel processes: a lock directory makes exactly one of them write.
  const lockDir = `${dir}.lock`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      await mkdir(lockDir);
      break;
    } catch {
      if (existsSync(done)) return env;
      const age = await stat(lockDir).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (age > 120_000) await rm(lockDir, { recursive: true, force: true }); // a crashed writer
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lockDir}`);
      await new Promise((r) => setTimeout(r, 200)); // bounded polling: another test process holds the lock
    }
  }
  try {
    if (!existsSync(done)) {
      await rm(dir, { recursive: true, force: true });
      await new Promise<void>((resolve, reject) => {
        execFile('python3', [SCRIPT, join(dir, 'std-stubs'), env.CARGO_HOME], { timeout: 60_000, killSignal: 'SIGKILL' }, (error, _stdout, stderr) =>
          error ? reject(new Error(`make-std-stubs.py failed: ${error.message}\n${stderr}`)) : resolve(),
        );
      });
      await writeFile(done, new Date().toISOString());
    }
  } finally {
    await rm(lockDir, { recursive: true, force: true });
  }
  return env;
}
