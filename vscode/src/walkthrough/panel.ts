/**
 * The walkthrough's webview panel: the same page as `walkthrough render` writes (renderer,
 * stylesheet, script), its scripts loaded from the extension (`dist/walkthrough/`, mermaid and
 * DOMPurify included: nothing from the network) under the webview's CSP (`cspSource`, a nonce per
 * render, no inline handlers). The stylesheet is inlined with the render's nonce, so the page is
 * styled from its first paint (fetched through the webview, it came seconds late in code-server). What the page posts is validated here; only ids and indexes are
 * taken from it — paths and lines always come from the extension's own model.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { z } from 'zod';
import type { WebviewAssets } from '../../../walkthrough/index.js';

/** The panel's view type. */
export const PANEL_VIEW_TYPE = 'dialect.walkthrough';
/** The extension's folder of page files (see build.ts). */
export const PAGE_ASSETS_DIR = ['dist', 'walkthrough'] as const;

/** The page stylesheet of the extension's files, read once. */
let stylesheet: string | undefined;

/** What the page posts (see walkthrough/assets/page.js); everything else is ignored. */
const PageMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('revealComment'), comment: z.string() }),
  z.object({ type: z.literal('placeComment'), comment: z.string(), choice: z.number().int().nonnegative() }),
  z.object({ type: z.literal('action'), action: z.string() }),
  z.object({ type: z.literal('openLocation'), path: z.string(), line: z.number().int().positive().optional() }),
]);
/** A message from the page. */
export type PageMessage = z.infer<typeof PageMessageSchema>;

/** The panel of the walkthrough shown now. */
export class WalkthroughPanel implements vscode.Disposable {
  readonly #panel: vscode.WebviewPanel;
  readonly #assetsRoot: vscode.Uri;
  #disposed = false;

  /** Opens a panel beside the active editor, without taking the focus from it. */
  constructor(extensionUri: vscode.Uri, title: string, onMessage: (message: PageMessage) => void, onClose: () => void) {
    this.#assetsRoot = vscode.Uri.joinPath(extensionUri, ...PAGE_ASSETS_DIR);
    this.#panel = vscode.window.createWebviewPanel(PANEL_VIEW_TYPE, title, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
      enableScripts: true,
      enableFindWidget: true,
      localResourceRoots: [this.#assetsRoot],
    });
    this.#panel.webview.onDidReceiveMessage((raw: unknown) => {
      const parsed = PageMessageSchema.safeParse(raw);
      if (parsed.success) onMessage(parsed.data);
    });
    this.#panel.onDidDispose(() => {
      this.#disposed = true;
      onClose();
    });
  }

  /** Where the page loads its files from. */
  assets(): WebviewAssets {
    const webview = this.#panel.webview;
    const uri = (file: string): string => webview.asWebviewUri(vscode.Uri.joinPath(this.#assetsRoot, file)).toString();
    stylesheet ??= readFileSync(join(this.#assetsRoot.fsPath, 'page.css'), 'utf8');
    return { cspSource: webview.cspSource, stylesheet, script: uri('page.js'), mermaid: uri('mermaid.min.js'), dompurify: uri('purify.min.js') };
  }

  /** Shows a page (rendered with {@link assets}). */
  show(title: string, html: string): void {
    if (this.#disposed) return;
    this.#panel.title = title;
    this.#panel.webview.html = html;
  }

  /** Tells the page something (see the host messages in page.js). */
  post(message: Record<string, unknown>): void {
    if (!this.#disposed) void this.#panel.webview.postMessage({ ...message, source: 'dialect-extension' });
  }

  get visible(): boolean {
    return !this.#disposed && this.#panel.visible;
  }

  get disposed(): boolean {
    return this.#disposed;
  }

  dispose(): void {
    if (!this.#disposed) this.#panel.dispose();
  }
}
