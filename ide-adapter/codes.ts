/**
 * The IDE adapter's codes: adds them to the core's `DialectCode` union (declaration merging, see
 * `dialect/codes.ts`) and documents each in one line. A code has one owner: the `const` object
 * named here; a layer that needs the same meaning reuses that object's member.
 */
import type { CodeDocs, CodeOf } from '../dialect/index.js';
import type { CapabilityCode, SelectionCode } from './backend.js';
import type { ConfigCode } from './config.js';
import type { IndexCode } from './functions/host.js';
import type { DiagnosticsCode } from './functions/diagnostics.js';
import type { PositionCode } from './functions/positions.js';
import type { SymbolCode } from './functions/symbols.js';
import type { GitCode } from './git/codes.js';
import type { LspErrorCode } from './lsp/errors.js';
import type { BackendCode } from './lsp-backend.js';
import type { RemoteCode } from './remote/codes.js';
import type { BackgroundServerCode } from './server-codes.js';
import type { SearchCode } from './search.js';
import type { TrustCode } from './trust.js';
import type { WorkspaceCode } from './workspace.js';
import type { WriteCode } from './safe-write.js';

/** Every code the IDE adapter's errors carry, the language-server client's included. */
export type IdeCode =
  | CodeOf<typeof CapabilityCode>
  | CodeOf<typeof SelectionCode>
  | ConfigCode
  | CodeOf<typeof IndexCode>
  | CodeOf<typeof DiagnosticsCode>
  | CodeOf<typeof PositionCode>
  | CodeOf<typeof SymbolCode>
  | CodeOf<typeof GitCode>
  | CodeOf<typeof BackendCode>
  | CodeOf<typeof RemoteCode>
  | CodeOf<typeof BackgroundServerCode>
  | CodeOf<typeof SearchCode>
  | CodeOf<typeof TrustCode>
  | CodeOf<typeof WorkspaceCode>
  | CodeOf<typeof WriteCode>
  | LspErrorCode;

declare module '../dialect/codes.js' {
  interface DialectCodeSets {
    /** The IDE adapter's codes (workspace, search, git, configuration, trust, language servers). */
    ide: IdeCode;
  }
}

/** The IDE adapter's codes, documented. */
export const IDE_CODE_DOCS: CodeDocs<IdeCode> = {
  'unsupported-by-server': "The file's language server does not offer the request the function needs; the hint names an alternative function.",
  'no-language-server': "No language server handles the file's language (see dialect.json to add one).",
  'no-editor': 'No editor answers the workspace (Dialect uses its own language servers), so there is no selection; open the folder in VS Code with the Dialect extension.',
  'no-active-editor': 'The editor answers, but no tab showing a workspace file is active, so there is no selection.',
  'config-not-found': 'DIALECT_CONFIG names a configuration file that cannot be read.',
  'invalid-config': 'dialect.json is not JSON or not a valid configuration; the message lists each problem.',
  'workspace-not-loaded': 'A language server could not load the workspace, so its empty answers mean nothing; the message says why.',
  'unknown-severity': 'A severity filter that is not error, warning, information or hint.',
  'no-symbol-at': 'Nothing that names a symbol is at the position; the message lists the names on that line.',
  'position-outside-file': 'The line or column is not in the file.',
  'symbol-not-found': 'No definition has the name (with the filters given).',
  'not-a-repository': 'The workspace is not inside a git repository.',
  'git-repository-outside': "git's repository folder (after a gitdir: file, a .git symlink, commondir or alternates) is outside the workspace and does not name the workspace back as its linked worktree or submodule, so git is not run.",
  'bad-revision': 'git does not know the revision or range.',
  'git-failed': 'git failed; the message is its first error line.',
  'git-not-found': 'git is not installed.',
  'document-unreadable': 'A document the language server needs could not be read from disk.',
  'invalid-regex': 'The search pattern is not a valid regular expression.',
  'regex-timeout': 'The regular expression ran past its budget (a pattern that backtracks badly).',
  'glob-timeout': 'Matching files against the glob ran past its budget.',
  'walk-timeout': 'Listing the files of the folder ran past its budget.',
  'trust-not-a-folder': 'The folder to trust does not exist or is not a folder.',
  'trust-store-unreadable': 'The trust store exists but cannot be read or parsed.',
  'path-outside-workspace': 'A path leads outside the workspace root (directly, or through a symlink).',
  'write-refused-link': 'Dialect refused to write a file because its name is a symbolic link: it never writes through a link; remove the link or choose another path.',
  'write-refused-existing': 'Dialect refused to replace a file it did not write (for a page: one not beginning with the page mark); remove it or choose another path.',
  'write-refused-special': 'Dialect refused to write a file because a folder, FIFO, socket or device has its name.',
  'file-not-found': 'The file does not exist in the workspace.',
  'not-a-file': 'The path is not a regular file (a folder, FIFO, socket or device).',
  'file-too-large': 'The file is larger than the most the workspace reads (MAX_FILE_BYTES).',
  'invalid-range': 'The line range is not valid for the file.',
  'server-not-found': 'No candidate binary of the language server answered --version; the message names the install command.',
  'server-misconfigured': "The variable that overrides a server's binary (e.g. DIALECT_RUST_ANALYZER) names a missing or broken program.",
  'server-refused': "The language server was deliberately not started (e.g. an untrusted workspace's configuration could make it run programs).",
  'spawn-failed': 'The language server could not be spawned or died before initialize completed.',
  'initialize-failed': 'The initialize handshake with the language server failed or timed out.',
  'request-timeout': 'A request got no answer within its deadline; the message names the method and what the server was doing.',
  'server-unresponsive': 'A request timed out and the server did not answer a liveness probe either: it is being restarted; ask again.',
  'server-memory-exceeded': 'The server (with its helper processes) passed its memory bound (DIALECT_SERVER_MEMORY_MB) and was killed; it is being restarted.',
  'request-cancelled': "The caller's AbortSignal fired while a request was running.",
  'request-failed': 'The language server answered with an error response.',
  'server-crashed': 'The language server died and could not be brought back (or died again on the retried request).',
  'server-stopped': 'The language server was shut down by the client.',
  'no-server-for-file': "No configured language server handles the file's extension.",
  'background-server-lost': 'The connection to the background server closed or failed before the call was answered; run again (a new server starts) or add --no-server to answer in-process.',
  'remote-protocol-mismatch': 'The background server speaks another protocol version, serves another workspace, or sent an invalid message; add --no-server to answer in-process.',
  'background-server-error': "The background server failed with an error that is not one of Dialect's; the message is its own.",
  'unsafe-runtime-dir': 'The runtime folder of the background servers is a symbolic link, not yours, or open to others; the hint says how to fix it (commands answer in-process meanwhile).',
  'server-start-failed': 'The background server could not be started; the message quotes its log (commands answer in-process meanwhile).',
  'server-start-timeout': 'Another command was starting the background server and it did not answer in time (commands answer in-process meanwhile).',
};
