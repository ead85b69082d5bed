/**
 * TypeScript's row of the conformance table (support/conformance-table.ts): fixtures/ts-app, with
 * a file holding a deliberate type error added to the copy. Answered by the spawned tsgo
 * (conformance-typescript.test.ts) and by VS Code's own TypeScript features
 * (vscode/test/conformance.test.ts), which must give the same answers.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LanguageConformance } from '../support/conformance-table.js';

/** A file added to the ts-app copy with a deliberate type error, so diagnostics have something to find. */
const BROKEN_FILE = 'src/broken.ts';
/** Its text: the error is the string assigned to a number. */
const BROKEN_TEXT = "export const answer: number = 'forty-two';\n";

/** The TypeScript cases. */
export const typeScriptConformance: LanguageConformance = {
  language: 'TypeScript',
  fixture: 'ts-app',
  prepare: (root) => writeFile(join(root, BROKEN_FILE), BROKEN_TEXT),
  cases: {
    definitionByName: { name: 'User', expect: { name: 'User', kind: 'class', at: { file: 'src/model.ts', needle: 'User implements' } } },
    definitionByQualifiedName: { name: 'Text.slugify', expect: { name: 'slugify', kind: 'function', at: { file: 'src/util.ts', needle: 'slugify(title' } } },
    ambiguity: {
      program: 'findReferences("validateToken")',
      candidates: [
        { file: 'src/auth.ts', needle: 'validateToken(token: string): number' },
        { file: 'src/util.ts', needle: 'validateToken(token: string): boolean' },
      ],
    },
    // After an emoji on the line: columns count code points, on every backend.
    referencesAtName: { of: '"User.displayName"', includes: [{ file: 'src/util.ts', needle: 'displayName()]' }] },
    hover: { of: 'findDefinition("validateToken", file: "util.ts")', signature: 'validateToken(token: string): boolean', documentation: 'Cheap syntactic check' },
    outline: { file: 'src/model.ts', names: ['Priority', 'User', 'displayName', 'Task', 'owner', 'complete'] },
    implementations: { of: '"Repository"', names: ['JournalRepository', 'MemoryRepository'] },
    callers: {
      of: 'findDefinition("validateToken", file: "src/util.ts")',
      include: [
        { name: 'validateToken', at: { file: 'src/auth.ts', needle: 'validateToken(token: string): number' } },
        { name: 'createTask', at: { file: 'src/service.ts', needle: 'createTask(user' } },
      ],
    },
    callees: { of: 'findDefinition("validateToken", file: "src/auth.ts")', include: ['validateToken'] },
    typeDefinition: { of: 'findDefinition("defaultConfig")', expect: { name: 'Config', kind: 'interface', at: { file: 'src/config.ts', needle: 'Config {' } } },
    symbolAt: { at: { file: 'src/index.ts', needle: 'issueToken(alice)' }, name: 'issueToken', kind: 'function' },
    diagnostics: { at: { file: BROKEN_FILE, needle: 'answer' }, severity: 'error', message: "'string' is not assignable to type 'number'" },
    lines: { of: '"Task.complete"', contains: "this.status = { kind: 'done' };" },
  },
};
