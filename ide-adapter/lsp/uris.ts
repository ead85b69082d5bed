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

/**
 * A `file:///…` URI whose path the platform parser would give back as written: nothing encoded,
 * no `.` or `..` segment to resolve, no query or fragment. Reference lists name thousands of
 * files, and the parser costs microseconds each.
 */
const PLAIN_FILE_URI = /^file:\/\/\/[\w\-./~+@=,]*$/;

/** The absolute path of a `file://` URI; `undefined` for other schemes (e.g. rust-analyzer's virtual files). */
export function uriToPath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  if (PLAIN_FILE_URI.test(uri) && !uri.includes('/.') && process.platform !== 'win32') return uri.slice('file://'.length);
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}
