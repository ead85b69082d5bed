/**
 * The Dialect extension for VS Code: for every workspace folder of the window, an `EditorBackend`
 * (the editor's own language features) served on a private socket and advertised two ways — a
 * discovery record keyed by the folder (for `dialect` processes started outside the editor) and
 * `DIALECT_IDE` in the window's integrated terminals (the socket of the terminal's folder). For
 * Rust without the rust-analyzer extension it starts rust-analyzer itself (`spawned-server.ts`),
 * and stops it with the window.
 */
import * as vscode from 'vscode';
import { Workspace } from '../../ide-adapter/workspace.js';
import { openBridge, type Bridge } from './bridge.js';
import { EditorBackend } from './editor-backend.js';
import { spawnServer, type SpawnedServer } from './spawned-server.js';
import { WalkthroughPresenter } from './walkthrough/presenter.js';

/** The variable integrated terminals get: the socket of their folder's backend. */
export const DIALECT_IDE_VARIABLE = 'DIALECT_IDE';

const bridges: Bridge[] = [];
/** Servers the extension started itself (for languages without an editor extension): stopped with the window. */
const spawned: SpawnedServer[] = [];

/** Called by VS Code once the window has started (`onStartupFinished`). */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel('Dialect', { log: true });
  context.subscriptions.push(log);
  const editor = `${vscode.env.appName} ${vscode.version}`;
  // Walkthroughs presented through any folder's bridge show in this window's one panel.
  const presenter = new WalkthroughPresenter(context.extensionUri, editor, log);
  context.subscriptions.push(presenter);
  const identity = {
    version: manifestVersion(context.extension.packageJSON),
    installPath: context.extensionPath,
    editor,
    trusted: () => vscode.workspace.isTrusted,
    extend: presenter.serve.bind(presenter),
  };
  const collection = context.environmentVariableCollection;
  // A socket lives as long as this window's extension host: never restore it into a later window.
  collection.persistent = false;
  collection.description = 'Lets `dialect` in this terminal ask VS Code (the Dialect extension).';
  const spawn = (definition: Parameters<typeof spawnServer>[0], root: string): SpawnedServer | undefined => {
    const server = spawnServer(definition, root, { log, trusted: () => vscode.workspace.isTrusted });
    if (server !== undefined) spawned.push(server);
    return server;
  };
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  for (const folder of folders) {
    try {
      const bridge = await openBridge(new EditorBackend(new Workspace(folder.uri.fsPath), spawn), identity);
      bridges.push(bridge);
      // Each folder's terminals get their own folder's socket; the window's first folder is the default.
      collection.getScoped({ workspaceFolder: folder }).replace(DIALECT_IDE_VARIABLE, bridge.socket);
      if (folder === folders[0]) collection.replace(DIALECT_IDE_VARIABLE, bridge.socket);
      // Found last: whoever finds the record finds a window whose terminals are set up too.
      bridge.advertise();
      log.info(`serving ${folder.uri.fsPath} on ${bridge.socket}`);
    } catch (error) {
      log.error(error instanceof Error ? error : String(error));
    }
  }
  context.subscriptions.push({ dispose: () => void closeBridges() });
}

/** Called by VS Code when the window closes: stops serving and removes the discovery records. */
export async function deactivate(): Promise<void> {
  await closeBridges();
}

async function closeBridges(): Promise<void> {
  const open = bridges.splice(0);
  await Promise.all([...open.map((b) => b.close()), ...spawned.splice(0).map((s) => s.stop())]);
}

/** The `version` of the extension's package.json (typed `any` by the API). */
function manifestVersion(manifest: unknown): string {
  const version = typeof manifest === 'object' && manifest !== null ? (manifest as { version?: unknown }).version : undefined;
  return typeof version === 'string' ? version : '0.0.0';
}
