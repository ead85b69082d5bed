import { defineConfig } from 'vitest/config';

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
 * run one at a time, after the rest.
 */
const EDITOR_TESTS = ['vscode/test/**/*.test.ts', 'scripts/test/package.test.ts'];

export default defineConfig({
  test: {
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
        },
      },
    ],
  },
});
