/** The product pieces the language-server benchmark drives directly. */
export { IdeSession, LspBackend } from '../ide-adapter/index.js';
export type { LanguageServer as LanguageServerHandle } from '../ide-adapter/lsp/index.js';
