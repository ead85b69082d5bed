/**
 * File paths ↔ `file://` URIs. Servers differ in how they percent-encode (rust-analyzer and tsgo
 * both decode anything), so we always parse URIs back with the platform parser instead of
 * comparing strings.
 */
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The `file://` URI of an absolute (or cwd-relative) path. */
export function pathToUri(path: string): string {
  return pathToFileURL(resolve(path)).href;
}

/** The absolute path of a `file://` URI; `undefined` for other schemes (e.g. rust-analyzer's virtual files). */
export function uriToPath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}
