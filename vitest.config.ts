import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/test/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', 'fixtures/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Every process a test starts runs in-process unless the test asks for the background server
    // (cli/test/server*.test.ts pass DIALECT_NO_SERVER=0 with a private runtime folder): a test
    // must never leave a background server behind in the user's runtime folder.
    env: { DIALECT_NO_SERVER: '1' },
  },
});
