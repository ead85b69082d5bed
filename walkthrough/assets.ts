/**
 * The files inlined into every page: the page script and stylesheet (`walkthrough/assets/`), and
 * for pages with diagrams mermaid and DOMPurify (which cleans mermaid's SVG): their browser
 * bundles, which the build copies into the package (`vendoredFile`) — all found from the package root (`ide-adapter/package-files.ts`), whether the code
 * runs from source, `dist/` or the bundle. Read on first use and kept for the process's lifetime.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageFile, vendoredFile, type VendoredFile } from '../ide-adapter/package-files.js';
import { WalkthroughError, WalkthroughErrorCode } from './errors.js';

const cache = new Map<string, string>();

function cached(key: string, load: () => string): string {
  let value = cache.get(key);
  if (value === undefined) {
    value = load();
    cache.set(key, value);
  }
  return value;
}

function read(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new WalkthroughError(WalkthroughErrorCode.AssetMissing, `cannot read ${what} at ${path}: ${(error as Error).message}`, { cause: error });
  }
}

/** The package's `walkthrough/assets/` folder. */
function assetsDirectory(): string {
  const dir = packageFile('walkthrough', 'assets');
  if (!existsSync(join(dir, 'page.js'))) throw new WalkthroughError(WalkthroughErrorCode.AssetMissing, `the walkthrough page assets are missing (looked in ${dir})`);
  return dir;
}

function vendored(specifier: VendoredFile, what: string): string {
  try {
    return vendoredFile(specifier);
  } catch (error) {
    throw new WalkthroughError(WalkthroughErrorCode.AssetMissing, `${what} is missing: ${(error as Error).message}`, { cause: error });
  }
}

/** The path of mermaid's browser bundle (the package's copy, or the dev dependency's). */
export function mermaidPath(): string {
  return vendored('mermaid/dist/mermaid.min.js', "mermaid's browser bundle");
}

/** The path of DOMPurify's browser bundle (the package's copy, or the dev dependency's). */
export function dompurifyPath(): string {
  return vendored('dompurify/dist/purify.min.js', "DOMPurify's browser bundle");
}

/** DOMPurify's browser bundle: the page passes every diagram's SVG through it before inserting it. */
export function dompurifyScript(): string {
  return cached('dompurify', () => read(dompurifyPath(), 'DOMPurify'));
}

/** Mermaid's browser bundle. */
export function mermaidScript(): string {
  return cached('mermaid', () => read(mermaidPath(), 'mermaid'));
}

/** `assets/page.js`. */
export function pageScript(): string {
  return cached('page.js', () => read(join(assetsDirectory(), 'page.js'), 'the page script'));
}

/** `assets/page.css`. */
export function pageStyle(): string {
  return cached('page.css', () => read(join(assetsDirectory(), 'page.css'), 'the page stylesheet'));
}
