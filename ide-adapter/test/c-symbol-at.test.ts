/**
 * symbolAt on a declaration's own name gives that symbol's definition, as findDefinitions does.
 * clangd's go-to-definition toggles: at a function's definition it answers the header's
 * declaration, at a struct's definition its forward declaration (hiredis: `symbolAt` on
 * `typedef struct redisContext {` gave `struct redisContext;` at line 108). Real clangd on a copy
 * of fixtures/c-plain with a forward-declared struct added (the fixture shape of that case).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SymbolDefinition } from '../model.js';
import { presentValue } from '../present.js';
import { clangdServer } from '../languages/cpp/index.js';
import { requireServer } from './support/servers.js';
import { openFixtureSession, type FixtureSession } from './support/session.js';

const available = (await requireServer(clangdServer)) !== undefined;

const LIST_H = ['#ifndef LIST_H', '#define LIST_H', '', '/* Used before it is defined. */', 'struct list;', 'int list_len(const struct list *l);', '', 'struct list {', '  struct list *next;', '};', '', '#endif', ''].join('\n');
// cJSON's shape: a struct tag and a typedef of one name, one thing to a reader.
const JSON_H = ['#ifndef JSON_H', '#define JSON_H', '', '/* A JSON value. */', 'typedef struct json {', '  struct json *next;', '  int type;', '} json;', '', 'json *json_parse(const char *text);', '', '#endif', ''].join('\n');
const JSON_C = ['#include "json.h"', '', 'json *json_parse(const char *text) {', '  (void)text;', '  return 0;', '}', ''].join('\n');
const LIST_C = ['#include "list.h"', '', 'int list_len(const struct list *l) {', '  int n = 0;', '  for (; l != 0; l = l->next) n++;', '  return n;', '}', ''].join('\n');
// A use in a branch the preprocessor does not take (LIST_TRACE is never defined), one in the branch it takes, one in a comment.
const LIST_USE_C = [
  '#include "list.h"',
  '',
  'int list_total(const struct list *l) {',
  '  int n = list_len(l);',
  '#ifdef LIST_TRACE',
  '  n += list_len(l->next); /* traced */',
  '#else',
  '  n += list_len(l);',
  '#endif',
  '  /* list_len( is counted above */',
  '  return n;',
  '}',
  '',
].join('\n');

describe.runIf(available)('symbolAt at a declaration (real clangd, fixtures/c-plain)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('c-plain', async (root) => {
      await mkdir(join(root, 'include'), { recursive: true });
      await writeFile(join(root, 'include', 'list.h'), LIST_H);
      await writeFile(join(root, 'src', 'list.c'), LIST_C);
      await writeFile(join(root, 'src', 'list_use.c'), LIST_USE_C);
      await writeFile(join(root, 'include', 'json.h'), JSON_H);
      await writeFile(join(root, 'src', 'json.c'), JSON_C);
    });
  });
  afterAll(async () => {
    await f?.dispose();
  });

  const at = (symbol: unknown) => {
    const s = symbol as SymbolDefinition;
    return `${s.definedAt.path}:${s.definedAt.start.line}:${s.definedAt.start.column}`;
  };

  it("a function's definition gives itself, as findDefinitions does, not the header's declaration", async () => {
    const definition = await f.nameIn('src/list.c', 'int list_len(', 'list_len');
    const want = `src/list.c:${definition.line}:${definition.column}`;
    expect(at(await f.value(`only(findDefinitions("list_len"))`)), 'findDefinitions').toBe(want);
    expect(at(await f.value(`symbolAt("src/list.c", ${definition.line}, ${definition.column})`)), 'at the definition').toBe(want);
  });

  it('a function declared in a header and defined in a source file says where each declaration is, the other file by its path', async () => {
    const header = await f.nameIn('include/list.h', 'int list_len(', 'list_len');
    const definition = await f.nameIn('src/list.c', 'int list_len(', 'list_len');
    expect(presentValue(await f.value('findDefinitions("list_len")')).split('\n')[0]).toContain(
      `[declared 2 times: include/list.h:${header.line}:${header.column}, line ${definition.line}]`,
    );
  });

  it('references leave out a use in a preprocessor branch not taken, and the answer says where it is, once', async () => {
    const o = await f.outcome('findReferences(only(findDefinitions("list_len")))');
    if (o.kind !== 'value') throw new Error(`expected a value, got ${o.kind}`);
    const lines = LIST_USE_C.split('\n');
    const line = (text: string): number => lines.findIndex((l) => l.includes(text)) + 1;
    const uses = (o.value as { referencedAt: { path: string; start: { line: number } } }[]).filter((r) => r.referencedAt.path === 'src/list_use.c').map((r) => r.referencedAt.start.line);
    // clangd answers for the branches it takes only.
    expect(uses).toEqual([line('int n = list_len(l);'), line('  n += list_len(l);')]);
    const skipped = o.notes.filter((n) => n.includes('preprocessor'));
    expect(skipped).toEqual([`clangd skips preprocessor branches not taken: "list_len" is also written in one at src/list_use.c:${line('list_len(l->next)')}; search(".", "\\\\blist_len\\\\b") finds every mention`]);
  });

  it("a struct's definition gives itself, not its forward declaration", async () => {
    const definition = await f.nameIn('include/list.h', 'struct list {', 'list');
    const want = `include/list.h:${definition.line}:${definition.column}`;
    expect(at(await f.value(`symbolAt("include/list.h", ${definition.line}, ${definition.column})`))).toBe(want);
  });

  it('a struct tag and a typedef of one name (cJSON) are one definition: the typedef, with the struct declared in it', async () => {
    const o = await f.outcome('findDefinition("json")');
    if (o.kind !== 'value') throw new Error(`expected one definition, got ${o.kind}: ${JSON.stringify(o)}`);
    const typedef = await f.nameIn('include/json.h', '} json;', 'json');
    const tag = await f.nameIn('include/json.h', 'typedef struct json {', 'json');
    const s = o.value as SymbolDefinition;
    expect(at(s)).toBe(`include/json.h:${typedef.line}:${typedef.column}`);
    expect((s.declarations ?? []).map((d) => [d.kind, `${d.definedAt.path}:${d.definedAt.start.line}:${d.definedAt.start.column}`])).toContainEqual(['struct', `include/json.h:${tag.line}:${tag.column}`]);
    // Its references are the uses of both names.
    const refs = (await f.value('findReferences("json")')) as { referencedAt: { path: string; start: { line: number } } }[];
    expect(refs.map((r) => `${r.referencedAt.path}:${r.referencedAt.start.line}`)).toEqual(expect.arrayContaining([`include/json.h:${tag.line + 1}`, `src/json.c:3`]));
  });
});

