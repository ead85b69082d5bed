/**
 * Every code has one doc line: the codes are read from the product source itself (every
 * `const XCode = {...} as const` object, the language-server client's `LspErrorCode` union and any
 * `code:` literal), so a code added anywhere without a line in its layer's docs record fails here
 * as well as in the type checker. No code is written as a raw string where it is used.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIdeRegistry } from '../../ide-adapter/index.js';
import { CODE_DOCS } from '../codes.js';
import { dialectReference } from '../describe.js';
import { repoRoot } from './support.js';

const PRODUCT_FOLDERS = ['dialect', 'ide-adapter', 'walkthrough', 'mcp', 'cli'];

function productFiles(): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'test' && entry.name !== 'node_modules') visit(path);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        out.push({ path: relative(repoRoot, path), text: readFileSync(path, 'utf8') });
      }
    }
  };
  for (const folder of PRODUCT_FOLDERS) visit(join(repoRoot, folder));
  return out;
}

/** The string values of every `const XCode = { … } as const` object, and each member of `LspErrorCode`. */
function codesInSource(): Map<string, string> {
  const found = new Map<string, string>();
  for (const { path, text } of productFiles()) {
    for (const object of text.matchAll(/const \w*Code = \{([\s\S]*?)\} as const/g)) {
      for (const value of (object[1] ?? '').matchAll(/^\s*\w+: '([^']+)',/gm)) found.set(value[1] as string, path);
    }
    const union = /export type LspErrorCode =([\s\S]*?');/.exec(text);
    for (const member of (union?.[1] ?? '').matchAll(/\|\s*'([^']+)'/g)) found.set(member[1] as string, path);
  }
  return found;
}

describe('codes', () => {
  const codes = codesInSource();

  it('reads the code objects of every layer from the source', () => {
    // One code of each layer, so a broken scan cannot pass vacuously.
    for (const code of ['unterminated-string', 'function-failed', 'path-outside-workspace', 'invalid-regex', 'git-failed', 'request-timeout', 'server-crashed', 'invalid-config', 'limit-exceeded', 'no-location', 'broken-link']) {
      expect(codes.has(code), code).toBe(true);
    }
  });

  it('documents every code in the source in one line, and documents nothing else', () => {
    const undocumented = [...codes].filter(([code]) => !(code in CODE_DOCS)).map(([code, path]) => `${code} (${path})`);
    expect(undocumented).toEqual([]);
    const stale = Object.keys(CODE_DOCS).filter((code) => !codes.has(code));
    expect(stale).toEqual([]);
    for (const [code, doc] of Object.entries(CODE_DOCS)) {
      expect(doc.trim(), code).not.toBe('');
      expect(doc, code).not.toContain('\n');
    }
  });

  it('writes no code as a raw string literal where it is used', () => {
    const raw = productFiles().flatMap(({ path, text }) =>
      [...text.matchAll(/\b(?:code: |fail\()'([a-z-]+)'/g)].map((m) => `${path}: ${m[0]}`),
    );
    expect(raw).toEqual([]);
  });

  it('lists every code in the dialect reference agents read', () => {
    const reference = dialectReference(createIdeRegistry());
    const missing = Object.keys(CODE_DOCS).filter((code) => !reference.includes(`- \`${code}\`: `));
    expect(missing).toEqual([]);
  });
});
