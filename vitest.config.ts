import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Settings every test file shares. */
const shared = {
  testTimeout: 60_000,
  hookTimeout: 120_000,
  pool: 'forks',
  // Every process a test starts runs in-process unless the test asks for the background server
  // (cli/test/server*.test.ts pass DIALECT_NO_SERVER=0 with a private runtime folder): a test
  // must never leave a background server behind in the user's runtime folder.
  env: { DIALECT_NO_SERVER: '1' },
} as const;

/**
 * The files that drive a real VS Code (code-server and headless Chromium): the heaviest, so they
 * run one at a time. `vitest run` runs them after the rest; `npm test` (scripts/test.sh) runs
 * this project beside the other, as a second vitest process.
 */
const EDITOR_TESTS = ['vscode/test/**/*.test.ts', 'scripts/test/package.test.ts'];

/**
 * The files that take longest (measured on CI, 2 cores; longest first). They start first, so no
 * long file starts last and keeps one worker busy while the other idles — on a clean clone (CI)
 * vitest has no timings of its own and would start the largest files first. The rest follow
 * vitest's order (its cached timings, else file size).
 */
const LONGEST_FIRST = [
  'scripts/test/package.test.ts',
  'vscode/test/conformance.test.ts',
  'vscode/test/walkthrough.test.ts',
  'vscode/test/rust.test.ts',
  'vscode/test/cold-window.test.ts',
  'vscode/test/rust-trust.test.ts',
  'cli/test/eval.test.ts',
  'ide-adapter/test/untrusted.test.ts',
  'ide-adapter/test/completeness.test.ts',
  'ide-adapter/test/client-faults.test.ts',
  'walkthrough/test/browser.test.ts',
  'cli/test/repl.test.ts',
  'cli/test/delegates.test.ts',
  'ide-adapter/test/functions-diagnostics.test.ts',
  'ide-adapter/test/pool.test.ts',
  'ide-adapter/test/functions-rust-macros.test.ts',
  'cli/test/server.test.ts',
  'ide-adapter/test/rust-analyzer.test.ts',
  'cli/test/signals.test.ts',
  'cli/test/trust.test.ts',
];

/** vitest's order, with {@link LONGEST_FIRST} first (in its order). */
class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification): number => {
      const at = LONGEST_FIRST.indexOf(relative(this.ctx.config.root, file.moduleId));
      return at < 0 ? LONGEST_FIRST.length : at;
    };
    // Stable: the other files keep vitest's order. (Projects stay apart: vitest groups files by project.)
    return sorted.map((file, index) => ({ file, index })).sort((a, b) => rank(a.file) - rank(b.file) || a.index - b.index).map(({ file }) => file);
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        test: {
          ...shared,
          name: 'servers',
          include: ['**/test/**/*.test.ts'],
          exclude: ['node_modules/**', 'dist/**', 'fixtures/**', ...EDITOR_TESTS],
          // Most of a test's time is a language server's (another process): two files at once
          // keep both cores busy.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...shared,
          name: 'editor',
          include: EDITOR_TESTS,
          exclude: ['node_modules/**', 'dist/**', 'fixtures/**'],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
          // The extension is bundled once for every window of the run.
          globalSetup: ['vscode/test/support/extension-build.ts'],
        },
      },
    ],
  },
});
