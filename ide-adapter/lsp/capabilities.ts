/**
 * What the client announces in `initialize` and how it answers `workspace/configuration`.
 */
import { SymbolKind, type ClientCapabilities } from 'vscode-languageserver-protocol';
import { SUPPORTED_ENCODINGS } from './positions.js';
import type { ServerDefinition } from './servers.js';

type Settings = Readonly<Record<string, unknown>>;

/** The client capabilities we announce: only what the client layer and the IDE functions use. */
export function clientCapabilities(definition: ServerDefinition): ClientCapabilities {
  const symbolKind = { valueSet: Array.from({ length: SymbolKind.TypeParameter }, (_, i) => (i + 1) as SymbolKind) };
  return {
    general: { positionEncodings: [...SUPPORTED_ENCODINGS] },
    window: { workDoneProgress: true, showMessage: {} },
    workspace: {
      configuration: true,
      workspaceFolders: true,
      symbol: { dynamicRegistration: false, symbolKind },
      didChangeConfiguration: { dynamicRegistration: true },
      // Servers that do not watch the disk (tsgo) register globs; the client watches for them.
      didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
    },
    textDocument: {
      synchronization: { dynamicRegistration: false, didSave: false, willSave: false, willSaveWaitUntil: false },
      definition: { linkSupport: true },
      declaration: { linkSupport: true },
      typeDefinition: { linkSupport: true },
      implementation: { linkSupport: true },
      references: {},
      hover: { contentFormat: ['markdown', 'plaintext'] },
      documentSymbol: { hierarchicalDocumentSymbolSupport: true, symbolKind },
      callHierarchy: { dynamicRegistration: false },
      typeHierarchy: { dynamicRegistration: false },
      publishDiagnostics: {},
    },
    experimental: { ...(definition.experimentalCapabilities ?? {}) },
  };
}

/** `section` (e.g. `rust-analyzer` or `typescript.preferences`) looked up in settings; `null` if absent. */
export function lookupSetting(settings: Settings | undefined, section: string | undefined): unknown {
  if (settings === undefined) return null;
  if (section === undefined || section === '') return settings;
  if (Object.hasOwn(settings, section)) return settings[section];
  let current: unknown = settings;
  for (const part of section.split('.')) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, part)) return null;
    current = (current as Record<string, unknown>)[part];
  }
  return current ?? null;
}
