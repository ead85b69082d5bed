/**
 * The witnesses of a TypeScript project's loading (src/project-witness.ts) on real files: the
 * files the anchor imports first, then its neighbours; never the anchor, never an open file; each
 * with a name its text declares; none for a one-file project.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectWitnesses } from '../src/project-witness.js';

describe('projectWitnesses', () => {
  let root: string;
  const file = (path: string): string => join(root, path);

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'dialect-witness-'));
    await mkdir(file('src/lib'), { recursive: true });
    await mkdir(file('alone'), { recursive: true });
    await writeFile(file('src/a.ts'), `import { deep } from './lib/deep.js';\nexport { other } from "./lib";\nexport const a = deep;\n`);
    await writeFile(file('src/lib/deep.ts'), `// a comment first\nexport async function deep(): Promise<number> { return 1; }\n`);
    await writeFile(file('src/lib/index.ts'), `export class Other {}\nexport const other = new Other();\n`);
    await writeFile(file('src/b.ts'), `export interface Bee { readonly b: number }\n`);
    await writeFile(file('src/c.ts'), `// nothing declared\n`);
    await writeFile(file('src/0-script.js'), `export function script() {}\n`);
    await writeFile(file('src/types.d.ts'), `declare const ambient: number;\n`);
    await writeFile(file('alone/only.ts'), `export const only = 1;\n`);
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('takes the imported files first, then the neighbours, each with a declared name', () => {
    expect(projectWitnesses(file('src/a.ts'), () => false)).toEqual([
      { file: file('src/lib/deep.ts'), name: 'deep' },
      { file: file('src/lib/index.ts'), name: 'Other' },
      { file: file('src/b.ts'), name: 'Bee' },
    ]);
  });

  it('passes over open files (they prove nothing) and files that declare nothing', () => {
    const open = new Set([file('src/lib/deep.ts')]);
    expect(projectWitnesses(file('src/a.ts'), (f) => open.has(f)).map((w) => w.name)).toEqual(['Other', 'Bee', 'script']);
  });

  it('has none for a one-file project', () => {
    expect(projectWitnesses(file('alone/only.ts'), () => false)).toEqual([]);
  });
});
