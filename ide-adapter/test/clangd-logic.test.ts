/** clangd's pure parts: which binary (newest that works), the private compilation database, C++ names. */
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clangdCandidates } from '../languages/cpp/candidates.js';
import { clangdStateDir, preparePrivateDatabase } from '../languages/cpp/compile-db.js';
import { clangdServer } from '../languages/cpp/index.js';
import { cppKind, splitCppOutlineName, tidyClangdHover } from '../languages/cpp/names.js';
import { findServerBinary } from '../lsp/discovery.js';
import { treeOf } from './support/clangd.js';
import { MAX_NOTE_LINE } from '../notes-ledger.js';
import { unfoundIncludesWarning } from '../languages/cpp/unfound-includes.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dialect-clangd-logic-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fakeClangd(path: string, works: boolean): Promise<void> {
  await writeFile(path, works ? '#!/bin/sh\necho "clangd version 1"\n' : '#!/bin/sh\nexit 1\n');
  await chmod(path, 0o755);
}

describe('which clangd', () => {
  it('lists clangd and clangd-N on PATH newest first (a plain clangd by the LLVM version it links to)', async () => {
    const bin = join(dir, 'bin');
    await mkdir(join(dir, 'llvm-17', 'bin'), { recursive: true });
    await mkdir(bin, { recursive: true });
    await fakeClangd(join(bin, 'clangd-14'), true);
    await fakeClangd(join(bin, 'clangd-19'), false);
    await fakeClangd(join(dir, 'llvm-17', 'bin', 'clangd'), true);
    await symlink(join(dir, 'llvm-17', 'bin', 'clangd'), join(bin, 'clangd'));
    const ours = clangdCandidates({ PATH: bin }).filter((c) => c.startsWith(bin));
    expect(ours).toEqual([join(bin, 'clangd-19'), join(bin, 'clangd'), join(bin, 'clangd-14')]);
  });

  it('takes the newest that works, and only DIALECT_CLANGD when it is set', async () => {
    const bin = join(dir, 'bin');
    const found = await findServerBinary({ ...clangdServer, candidates: (env) => clangdCandidates(env).filter((c) => c.startsWith(dir) || env?.['DIALECT_CLANGD'] !== undefined) }, { env: { PATH: bin } });
    expect(found.path).toBe(join(bin, 'clangd'));
    expect(clangdCandidates({ PATH: bin, DIALECT_CLANGD: '/opt/clangd' })).toEqual(['/opt/clangd']);
  });
});

describe('the private compilation database', () => {
  it("copies the workspace's build/compile_commands.json with absolute directories, writing nothing into the tree", async () => {
    const root = join(dir, 'ws');
    await mkdir(join(root, 'build'), { recursive: true });
    await mkdir(join(root, 'src'), { recursive: true });
    await writeFile(join(root, 'src', 'a.cpp'), 'int a() { return 1; }\n');
    await writeFile(join(root, 'build', 'compile_commands.json'), JSON.stringify([{ directory: '..', file: 'src/a.cpp', arguments: ['c++', '-c', 'src/a.cpp'] }]));
    const before = await treeOf(root);
    const env = { XDG_CACHE_HOME: join(dir, 'cache') };
    const db = await preparePrivateDatabase(root, env);
    expect(db).toMatchObject({ source: 'compile_commands.json', origin: 'build/compile_commands.json', entries: 1, dir: clangdStateDir(root, env) });
    expect(db.warning).toBeUndefined();
    expect(db.dir.startsWith(join(dir, 'cache', 'dialect', 'clangd'))).toBe(true);
    const written = JSON.parse(await readFile(join(db.dir, 'compile_commands.json'), 'utf8')) as { directory: string }[];
    expect(written[0]?.directory).toBe(root);
    expect(await treeOf(root)).toEqual(before);
  });

  it('describes a layout without a database (root, header folders and the folders above them as include folders) and says so with the fix', async () => {
    const root = join(dir, 'plain');
    await mkdir(join(root, 'lib', 'inc'), { recursive: true });
    await writeFile(join(root, 'lib', 'inc', 'x.h'), 'int x(void);\n');
    await writeFile(join(root, 'lib', 'x.c'), '#include "x.h"\nint x(void) { return 0; }\n');
    const db = await preparePrivateDatabase(root, { XDG_CACHE_HOME: join(dir, 'cache') });
    expect(db.source).toBe('described');
    expect(db.warning).toMatch(/no compilation database.*Fix: cmake -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or bear -- make/);
    const written = JSON.parse(await readFile(join(db.dir, 'compile_commands.json'), 'utf8')) as { file: string; arguments: string[] }[];
    expect(written.map((c) => c.file)).toEqual([join(root, 'lib', 'x.c')]);
    expect(written[0]?.arguments).toEqual(['clang', '-I', root, '-I', join(root, 'lib', 'inc'), '-I', join(root, 'lib'), '-c', join(root, 'lib', 'x.c')]);
  });
});

describe('headers found nowhere (CLI11: its tests include <catch2/catch.hpp>, not installed, so clangd parsed no test body)', () => {
  it('counts an include that fails whichever branch is taken; not one a branch does without, nor the platform\'s', async () => {
    const root = join(dir, 'unfound');
    await mkdir(join(root, 'tests'), { recursive: true });
    await mkdir(join(root, 'include', 'lib'), { recursive: true });
    await writeFile(join(root, 'include', 'lib', 'api.h'), '#ifndef LIB_API_H\n#define LIB_API_H\n#include <vector>\n#include <sys/types.h>\nint api(void);\n#endif\n');
    // CLI11's tests/catch.hpp: either branch includes a header found nowhere.
    await writeFile(join(root, 'tests', 'catch.hpp'), '#pragma once\n#ifdef USE_CATCH3\n#include <catch2/catch_all.hpp>\n#else\n#include <catch2/catch.hpp>\n#endif\n#include "lib/api.h"\n');
    // A platform's header in a branch the other platforms do without; a generated header written unconditionally.
    await writeFile(join(root, 'tests', 'main.cpp'), '#include "catch.hpp"\n#ifdef _WIN32\n#include <win32/extra.h>\n#endif\n#include "generated/config.h"\n#include "../../../outside/x.h"\nint main() { return api(); }\n');
    const db = await preparePrivateDatabase(root, { XDG_CACHE_HOME: join(dir, 'cache') });
    const warning = await db.unfound;
    expect(warning).toBe(
      'C/C++: 3 headers found nowhere (catch2/…, generated/…) in 2 files: code using them is not analysed. Fix: install them, or a compilation database',
    );
    // CLI11's, within one note line (nothing of it cut): 16 headers of four libraries in 13 files.
    const many = ['nlohmann/json.hpp', 'boost/any.hpp', 'catch2/catch.hpp', 'gtest/gtest.h'].flatMap((h, i) => Array.from({ length: 4 }, (_, j) => ({ header: `${h}${j}`, file: `tests/t${i * 4 + j}.cpp` })));
    expect((unfoundIncludesWarning(many.slice(0, 16)) ?? '').length).toBeLessThanOrEqual(MAX_NOTE_LINE);
  });

  it('says nothing when every include is found', async () => {
    const root = join(dir, 'found');
    await mkdir(join(root, 'src'), { recursive: true });
    await writeFile(join(root, 'src', 'a.h'), 'int a(void);\n');
    await writeFile(join(root, 'src', 'a.c'), '#include "a.h"\n#include <stdio.h>\n#include <sys/types.h>\nint a(void) { return 0; }\n');
    expect(await (await preparePrivateDatabase(root, { XDG_CACHE_HOME: join(dir, 'cache') })).unfound).toBeUndefined();
  });
});

describe('C++ names and kinds', () => {
  it('splits the owners clangd writes into an outline name', () => {
    expect(splitCppOutlineName('Circle::area')).toEqual({ name: 'area', owners: ['Circle'] });
    expect(splitCppOutlineName('Box<std::pair<int, int>>::get')).toEqual({ name: 'get', owners: ['Box'] });
    expect(splitCppOutlineName('area')).toEqual({ name: 'area', owners: [] });
  });

  it("names kinds in C++'s words", () => {
    expect(cppKind('class', 'using Meters = double;', 'Meters')).toBe('type alias');
    expect(cppKind('class', 'union Value {', 'Value')).toBe('union');
    expect(cppKind('struct', 'struct stack {', 'stack')).toBe('struct');
    expect(cppKind('constructor', '~Shape();', '~Shape')).toBe('destructor');
    expect(cppKind('enummember', '  Red,', 'Red')).toBe('enumerator');
    // zlib: the tag is a struct, the name after the closing brace an alias.
    expect(cppKind('struct', 'typedef struct z_stream_s {', 'z_stream_s')).toBe('struct');
    expect(cppKind('class', '} z_stream;', 'z_stream')).toBe('type alias');
    expect(cppKind('class', 'typedef struct node node_t;', 'node_t')).toBe('type alias');
    expect(cppKind('class', 'class TINYXML2_LIB XMLDocument : public XMLNode', 'XMLDocument')).toBe('class');
  });

  it("drops clangd's hover title, keeps the type and the doc comment", () => {
    expect(tidyClangdHover('### function `scale`  \nprovided by `"geo/math.h"`  \n\n→ `int`  \nScales.')).toBe('→ `int`\nScales.');
  });
});
