/**
 * The C row of the conformance table (fixtures/c-plain: a Makefile project WITHOUT a compilation
 * database, headers in include/), answered by clangd through the layout Dialect describes to it
 * from a private folder.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LanguageConformance } from '../support/conformance-table.js';

const BROKEN = 'int broken(void) { return missing_name; }\n';

export const cConformance: LanguageConformance = {
  language: 'C',
  fixture: 'c-plain',
  prepare: (root) => writeFile(join(root, 'src', 'broken.c'), BROKEN),
  cases: {
    // Declared in the header, defined in the source: one definition.
    definitionByName: { name: 'stack_push', expect: { name: 'stack_push', kind: 'function', at: { file: 'src/stack.c', needle: 'stack_push(struct stack *s, int value) {' } } },
    // C qualifies only members, by their struct.
    definitionByQualifiedName: { name: 'stack.capacity', expect: { name: 'capacity', kind: 'field', at: { file: 'include/stack.h', needle: 'capacity;' } } },
    // Two `static` functions of one name in two files.
    ambiguity: {
      program: 'findDefinition("valid")',
      candidates: [
        { file: 'src/main.c', needle: 'valid(int value)' },
        { file: 'src/stack.c', needle: 'valid(const struct' },
      ],
    },
    referencesAtName: { of: 'findDefinition("stack_pop")', includes: [{ file: 'src/main.c', needle: 'stack_pop(s, &value)' }] },
    hover: { of: '"stack_push"', signature: 'int stack_push(struct stack *s, int value)', documentation: 'Pushes a value' },
    outline: { file: 'include/stack.h', names: ['stack', 'items', 'capacity', 'stack_new', 'stack_free'] },
    // C has no subtypes: nothing implements a struct.
    implementations: { of: '"stack"', names: [] },
    callers: { of: '"stack_pop"', include: [{ name: 'sum_all', at: { file: 'src/main.c', needle: 'sum_all(struct' } }] },
    callees: {
      exception: 'clangd 19 has no outgoing calls (added in clangd 20): the answer names lines(symbol) and callers instead',
      program: 'callees("sum_all")',
      code: 'unsupported-by-server',
    },
    typeDefinition: { of: 'findDefinition("last_stack")', expect: { name: 'stack', kind: 'struct', at: { file: 'include/stack.h', needle: 'stack {' } } },
    symbolAt: { at: { file: 'src/main.c', needle: 'stack *numbers' }, name: 'stack', kind: 'struct' },
    diagnostics: { at: { file: 'src/broken.c', needle: 'missing_name' }, severity: 'error', message: "undeclared identifier 'missing_name'" },
    lines: { of: '"stack_pop"', contains: '*out = s->items[--s->size];' },
  },
};
