/**
 * The system's C and C++ headers: clangd's `installedSources`. They are code the user installed
 * (libc, libstdc++, the compilers' own headers), so hover text and diagnostic notes from them are
 * shown in an untrusted workspace too, as Rust's std is (`lsp/outside-sources.ts`).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Fixed header folders of Debian-like and other Unix systems. */
const HEADER_FOLDERS = ['/usr/include', '/usr/local/include', '/usr/lib/gcc', '/usr/lib/clang'];

/** The system header folders, with each installed LLVM's (`/usr/lib/llvm-19`: clang's own headers). */
export function systemHeaderFolders(): readonly string[] {
  let llvm: string[] = [];
  try {
    llvm = readdirSync('/usr/lib').filter((name) => name.startsWith('llvm-')).map((name) => join('/usr/lib', name, 'lib', 'clang'));
  } catch {
    // No /usr/lib: only the fixed folders.
  }
  return [...HEADER_FOLDERS, ...llvm];
}
