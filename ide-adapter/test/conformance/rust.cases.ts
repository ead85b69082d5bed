/**
 * Rust's row of the conformance table (support/conformance-table.ts): fixtures/rust-app, with a
 * module holding a deliberate type error added to the copy. Answered by the spawned rust-analyzer
 * (conformance-rust.test.ts) and by the rust-analyzer the Dialect extension spawns in VS Code
 * (vscode/test/rust.test.ts).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LanguageConformance } from '../support/conformance-table.js';

/** A module added to the rust-app copy with a deliberate type error, so diagnostics have something to find. */
const BROKEN_FILE = 'src/broken.rs';
/** Its text: a string where a number is expected. */
const BROKEN_TEXT = '/// A deliberate type error for the conformance table.\npub fn broken() -> u32 {\n    "not a number"\n}\n';

/** The Rust cases. */
export const rustConformance: LanguageConformance = {
  language: 'Rust',
  fixture: 'rust-app',
  prepare: async (root) => {
    await writeFile(join(root, BROKEN_FILE), BROKEN_TEXT);
    const lib = join(root, 'src/lib.rs');
    await writeFile(lib, `${await readFile(lib, 'utf8')}\npub mod broken;\n`);
  },
  cases: {
    definitionByName: { name: 'User', expect: { name: 'User', kind: 'struct', at: { file: 'src/model.rs', needle: 'User {' } } },
    definitionByQualifiedName: { name: 'Task::complete', expect: { name: 'complete', at: { file: 'src/model.rs', needle: 'complete(&mut self)' } } },
    ambiguity: {
      program: 'findReferences("validate_token")',
      candidates: [
        { file: 'src/auth.rs', needle: 'validate_token(token: &str)' },
        { file: 'src/util.rs', needle: 'validate_token(token: &str)' },
      ],
    },
    // After an emoji on the line: columns count code points.
    referencesAtName: { of: '"User::display_name"', includes: [{ file: 'src/util.rs', needle: 'display_name()' }] },
    hover: { of: 'findDefinition("validate_token", file: "util.rs")', signature: 'pub fn validate_token(token: &str) -> bool', documentation: 'Cheap syntactic check' },
    outline: { file: 'src/model.rs', names: ['Priority', 'User', 'Task', 'new', 'complete'] },
    implementations: { of: 'findDefinition("Repository", kind: "trait")', names: ['impl Repository<T> for JournalRepository<T>', 'impl Repository<T> for MemoryRepository<T>'] },
    callers: {
      of: 'findDefinition("validate_token", file: "src/util.rs")',
      include: [
        { name: 'validate_token', at: { file: 'src/auth.rs', needle: 'validate_token(token: &str)' } },
        { name: 'create_task', at: { file: 'src/service.rs', needle: 'create_task(&mut self' } },
      ],
    },
    callees: { of: 'findDefinition("authenticate")', include: ['validate_token'] },
    typeDefinition: { of: 'findDefinition("Task::priority")', expect: { name: 'Priority', kind: 'enum', at: { file: 'src/model.rs', needle: 'Priority {' } } },
    symbolAt: { at: { file: 'src/main.rs', needle: 'issue_token(&alice)' }, name: 'issue_token', kind: 'function' },
    diagnostics: { at: { file: BROKEN_FILE, needle: '"not a number"' }, severity: 'error', message: 'expected u32' },
    lines: { of: '"Task::complete"', contains: 'self.status = TaskStatus::Done;' },
  },
};
