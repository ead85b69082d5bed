/**
 * Code rust-analyzer does not analyse in a file it loads: an item under a `#[cfg(…)]` that is off
 * here (strum's `#[cfg(feature = "test_phf")]` tests), which it marks with an `inactive-code` hint
 * and resolves only in part (a `#[derive(strum::EnumString)]` there is no reference). A references
 * answer names the mentions there it does not list (`ServerDefinition.inactiveCode`); this module
 * says which files may have such code at a mention before their diagnostics are asked, reading the
 * text: asking every file with a cfg costs seconds (nom's `IResult`: 1.7 s for three files whose
 * mentions were in macro bodies, not under a cfg).
 */
import type { InactiveCandidate, InactiveCode } from '../../lsp/servers.js';
import { Workspace } from '../../workspace.js';
import { evaluateCfg, PackageFeatures } from './unbuilt.js';

/** A `#[cfg(…)]` or `#![cfg(…)]` attribute's start (group 1: `!` for an inner one). */
const CFG_START = /#(!?)\[cfg\(/;
/** A whole cfg attribute on one line (the predicate in group 1). */
const CFG_WHOLE = /#!?\[cfg\((.*)\)\]/;
/** What braces inside are not code: a string (no raw string), a char literal, a line comment. */
const NOT_CODE = /"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])'|\/\/.*$/g;

/**
 * Whether a line's cfg attribute may be off for a package with `features` on: any cfg it cannot
 * tell (a custom one, one written over several lines) may be.
 */
function mayBeOff(line: string, features: ReadonlySet<string>): boolean {
  const whole = CFG_WHOLE.exec(line);
  return whole === null || evaluateCfg(whole[1] as string, features) !== true;
}

/**
 * The last line (0-based) of what the attribute at line `at` covers: an inner attribute
 * (`#![cfg]`), the rest of the file; an outer one, the next item, statement or expression — to
 * its closing brace, or its `;` when no brace opens first. Braces in strings, char literals and
 * line comments do not count; an item that never closes runs to the file's end (the safe side).
 */
function coveredUntil(lines: readonly string[], at: number): number {
  const line = lines[at] ?? '';
  const start = CFG_START.exec(line);
  if (start === null || start[1] === '!') return lines.length - 1;
  let depth = 0;
  let opened = false;
  for (let i = at; i < lines.length; i++) {
    let code = (lines[i] ?? '').replace(NOT_CODE, '');
    // The attribute itself (to its `)]`) is not part of what it covers.
    if (i === at) code = code.slice(code.indexOf(')]', start.index) + 2 || code.length);
    for (const ch of code) {
      if (ch === '{') {
        depth++;
        opened = true;
      } else if (ch === '}') depth--;
      else if (ch === ';' && depth === 0 && !opened) return i;
      if (opened && depth <= 0) return i;
    }
  }
  return lines.length - 1;
}

/** The files among `files` where a mention line is covered by a cfg attribute that may be off. */
async function candidates(root: string, files: readonly InactiveCandidate[]): Promise<readonly string[]> {
  const packages = new PackageFeatures(new Workspace(root));
  const out: string[] = [];
  for (const file of files) {
    if (!CFG_START.test(file.text)) continue;
    const lines = file.text.split('\n');
    const features = (await packages.of(file.path).catch(() => undefined)) ?? new Set<string>();
    const mentions = file.lines.map((l) => l - 1);
    const covered = lines.some((line, at) => CFG_START.test(line) && mayBeOff(line, features) && mentions.some((m) => m >= at && m <= coveredUntil(lines, at)));
    if (covered) out.push(file.path);
  }
  return out;
}

/** The code of rust-analyzer's diagnostic (a hint) on an item under a `#[cfg]` that is off here. */
const INACTIVE_CODE_DIAGNOSTIC = 'inactive-code';

/** rust-analyzer's hint on an item under a `#[cfg]` that is off here, which it does not analyse. */
export const RUST_INACTIVE_CODE: InactiveCode = { code: INACTIVE_CODE_DIAGNOSTIC, candidates, where: 'code under a #[cfg] that is off here', marker: CFG_START.source };
