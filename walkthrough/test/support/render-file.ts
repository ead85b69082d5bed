/** Reading and rendering a walkthrough file the way the CLI does (load, then render with its title). */
import type { WalkthroughEnvironment } from '../../environment-types.js';
import { loadWalkthroughFile, renderWalkthroughDocument, type RenderedWalkthrough, type RenderWalkthroughOptions } from '../../index.js';

/** Reads a walkthrough file and renders it; the title defaults to its first heading, else the file name. */
export async function renderWalkthroughFile(path: string, env: WalkthroughEnvironment, options: RenderWalkthroughOptions = {}): Promise<RenderedWalkthrough> {
  const { document, title } = await loadWalkthroughFile(path, options.limits);
  return renderWalkthroughDocument(document, env, { ...options, title: options.title ?? title });
}
