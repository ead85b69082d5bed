// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Imports each layer may not make: layering runs dialect ← ide-adapter ← walkthrough ← mcp ← cli. */
const layer = (
  /** @type {string[]} */ forbiddenDirs,
  /** @type {string[]} */ extraPatterns = [],
  /** @type {{ group: string[], message: string }[]} */ boundaries = [],
) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        ...forbiddenDirs.map((dir) => ({
          group: [`**/${dir}/**`, `**/${dir}`],
          message: `Layering runs dialect ← ide-adapter ← walkthrough ← mcp ← cli; this layer may not import ${dir}/.`,
        })),
        ...extraPatterns.map((p) => ({ group: [p], message: 'The Dialect core stays free of Node and LSP imports.' })),
        ...boundaries,
      ],
    },
  ],
});

export default tseslint.config(
  { ignores: ['dist/**', 'vscode/dist/**', 'node_modules/**', '.tmp/**', 'fixtures/**', 'test-artifacts/**', 'grammar/diagrams.html', 'walkthrough/assets/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.js', 'bin/*.js'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
    },
  },
  { files: ['dialect/**/*.ts'], ignores: ['dialect/test/**'], rules: layer(['ide-adapter', 'walkthrough', 'mcp', 'cli'], ['node:*', 'fs', 'path', 'child_process', 'vscode-*']) },
  { files: ['ide-adapter/**/*.ts'], rules: layer(['walkthrough', 'mcp', 'cli']) },
  {
    // The LSP client is generic: language knowledge lives in languages/<lang>/, as data and hooks on the definition.
    files: ['ide-adapter/lsp/**/*.ts'],
    rules: layer(['walkthrough', 'mcp', 'cli'], [], [
      { group: ['**/languages/**', '**/languages'], message: 'lsp/ is the generic client: it takes server definitions as data and never imports languages/.' },
    ]),
  },
  {
    // The IDE functions are backend-agnostic: servers only through the port, files only through Workspace.
    files: ['ide-adapter/functions/**/*.ts'],
    rules: layer(['walkthrough', 'mcp', 'cli'], [], [
      { group: ['**/lsp/**', '**/lsp-backend*', 'vscode-*'], message: 'The IDE functions reach language servers only through IdeBackend (../backend.ts).' },
      { group: ['**/languages/**', '**/languages'], message: 'The IDE functions reach a language only through hooks on its server definition, behind IdeBackend.' },
      { group: ['node:*', 'fs', 'fs/*'], message: 'The IDE functions reach files only through Workspace (../workspace.ts).' },
    ]),
  },
  { files: ['walkthrough/**/*.ts'], rules: layer(['mcp', 'cli']) },
  { files: ['mcp/**/*.ts'], rules: layer(['cli']) },
  // The VS Code extension is a host beside mcp/: it builds on the IDE adapter (its backend port and
  // the remote protocol) and on walkthroughs (it shows them); its tests also drive the CLI.
  { files: ['vscode/**/*.ts'], ignores: ['vscode/test/**'], rules: layer(['mcp', 'cli']) },
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
);
