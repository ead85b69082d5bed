/**
 * What a language server may show from outside the workspace — the one policy, for every text a
 * server returns (hover signatures and docs, links in them, hierarchy items, diagnostics), beside
 * the location confinement of `lsp-backend.ts`:
 *
 * - the workspace's own files: always;
 * - toolchain and registry sources, which each definition names (`installedSources`: Rust's
 *   sysroot and std sources, `$CARGO_HOME/registry` and `git`, rustup toolchains; the TypeScript
 *   libraries shipped with the bundled server): always — they are public code the user
 *   installed, and std's docs are what hover is for;
 * - any other folder a workspace names (a Cargo path dependency `../outside`, a tsconfig leading
 *   out): only when the workspace is trusted.
 *
 * Where it acts: rust-analyzer in an untrusted workspace is never given crates from such folders
 * (`languages/rust/workspace.ts` describes the workspace's own crates instead: `outsidePathPackages`), which
 * is the strong form — what is not loaded cannot leak through any text, constant values and
 * inherited docs included. A hover whose symbol is defined in such a folder is withheld with a
 * note (`LspBackend`'s hover asks for the definition first: `mayShow`), and links in hover text
 * into such folders lose their path (`outsideLinks`). Hierarchy items, symbols and diagnostics
 * outside the workspace are dropped with their locations already. A diagnostic *in* the workspace
 * can still carry an outside file's text: a source that includes `/home/me/.config/token` gets
 * clangd's "In included file: unknown type name '<the token>'" on its include line. Such a
 * diagnostic's text is withheld, naming the file (`diagnosticText`), when the server says where it
 * comes from: a related place, or a `path:line:col:` note in the message (clangd writes the
 * included file's place so).
 */
import { realpathSync } from 'node:fs';
import { isInside } from '../confine.js';
import type { ServerDefinition } from './servers.js';
import { uriToPath } from './uris.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Folders whose sources are public code the user installed: what the definitions name (`installedSources`), in both forms. */
export function allowedSourceRoots(definitions: readonly ServerDefinition[], env: Env = process.env): string[] {
  const roots = definitions.flatMap((d) => d.installedSources?.(env) ?? []);
  // Both forms: toolchains are often reached through links (Debian's std sources under /usr/lib/rustlib lead to /usr/src).
  return [...new Set([...roots, ...roots.map(real)])];
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The policy of one workspace: which files' text its servers may show. */
export class SourcePolicy {
  #allowed: readonly string[] | (() => readonly string[]);

  /**
   * `allowed` are the installed roots whose text may be shown, or how to find them: found on first
   * use, as only an untrusted workspace asks (finding them resolves packages and toolchains, time a
   * server's start should not wait for).
   */
  constructor(
    readonly root: string,
    readonly trusted: boolean,
    allowed: readonly string[] | (() => readonly string[]),
  ) {
    this.#allowed = allowed;
  }

  #roots(): readonly string[] {
    if (typeof this.#allowed === 'function') this.#allowed = this.#allowed();
    return this.#allowed;
  }

  /** Whether text from the file at `absPath` may be shown. */
  mayShow(absPath: string): boolean {
    if (this.trusted) return true;
    // The workspace by the real location (a path inside may lead out through a symlink); the
    // installed roots by either (the workspace controls neither their paths nor their links).
    const resolved = real(absPath);
    return isInside(this.root, resolved) || this.#roots().some((r) => isInside(r, absPath) || isInside(r, resolved));
  }

  /** The note that replaces withheld text. */
  withheld(absPath: string): string {
    return `hover text withheld: it comes from ${absPath}, outside this untrusted workspace (only its own files, toolchains and registries are shown; trust the workspace to see it)`;
  }

  /** `file://` links of hover text into folders it may not show, with their paths removed. */
  outsideLinks(markdown: string): string {
    if (this.trusted) return markdown;
    return markdown.replace(/file:\/\/[^\s)]+/g, (uri) => {
      const abs = uriToPath(uri.replace(/#.*$/, ''));
      return abs !== undefined && !this.mayShow(abs) ? '(a file outside the workspace)' : uri;
    });
  }
}

/**
 * `path:line:col:` at a line's start: where a compiler's message says its text comes from (clangd's
 * notes on an included file's error, flattened into the message).
 */
const NOTE_PLACE = /(?:^|\n)(\/[^\n]*?):\d+:\d+:/g;

/** A diagnostic as the policy reads it: its message and the URIs of its related places. */
export interface DiagnosticText {
  readonly message: string;
  readonly relatedInformation?: readonly { readonly location: { readonly uri: string } }[];
}

/**
 * A diagnostic's text as the policy lets it be shown: withheld, naming the file, when the server
 * says it comes from a file it may not show (a related place, or a note in the message).
 */
export function diagnosticText(policy: SourcePolicy, diagnostic: DiagnosticText): string {
  const { message } = diagnostic;
  if (policy.trusted) return message;
  const places = (diagnostic.relatedInformation ?? []).map((r) => uriToPath(r.location.uri)).filter((p): p is string => p !== undefined);
  for (const match of message.matchAll(NOTE_PLACE)) places.push(match[1] as string);
  const away = places.find((path) => !policy.mayShow(path));
  return away === undefined ? message : `diagnostic text withheld: it comes from ${away}, outside this untrusted workspace (trust the workspace to see it)`;
}

/**
 * Hover text as the policy lets it be shown: withheld (with the note) when the hovered symbol is
 * defined in a file it may not show — `definitions` asks the server, only when the workspace is
 * untrusted — else the text with links out of bounds removed.
 */
export async function shownHover(policy: SourcePolicy, markdown: string, definitions: () => Promise<readonly string[]>): Promise<{ readonly markdown: string } | { readonly withheld: string }> {
  if (policy.trusted) return { markdown };
  const away = (await definitions()).find((path) => !policy.mayShow(path));
  return away !== undefined ? { withheld: policy.withheld(away) } : { markdown: policy.outsideLinks(markdown) };
}
