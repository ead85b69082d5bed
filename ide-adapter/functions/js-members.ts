/**
 * Members JavaScript defines by assignment: `View.prototype.lookup = function lookup(…) {…}`,
 * `res.send = function send(…) {…}`, `exports.parse = (text) => …`. The TypeScript server lists
 * such a member as a property without a container, and a named function expression as a second
 * symbol of the same name at the same statement. People name the member by the object it is
 * assigned to (`View.prototype.lookup`, `res.send`), and it is one definition.
 */
import { codePointCount } from '../../dialect/index.js';

/** What an assignment to a member says about it. */
export interface AssignedMember {
  /** The object path it is assigned to: `View.prototype.lookup` → `['View', 'prototype']`. */
  readonly owners: readonly string[];
  /** Whether the assigned value is a function (so the member is a method). */
  readonly functionValue: boolean;
}

/** How much of the line around a name is read: the patterns run on a bounded window, never on a whole (minified) line. */
const CONTEXT_CHARS = 200;

const IDENT = '[A-Za-z_$][\\w$]*';
/** `a.b.` right before the member's name. */
const OWNER_PATH = new RegExp(`(?:^|[^\\w$.])((?:${IDENT}\\s*\\.\\s*)+)$`);
/** `= function`, `= async function*`, `= (…) =>`, `= x =>` right after the member's name. */
const ASSIGNED = new RegExp(`^\\s*=(?![=>])\\s*(?:(async\\s+)?function\\b|(async\\s*)?(?:\\([^)]*\\)|${IDENT})\\s*=>)?`);
/** `a.name = function ` right before a function expression's name. */
const FUNCTION_VALUE_OF = new RegExp(`(?:^|[^\\w$])(?:${IDENT}\\s*\\.\\s*)+(${IDENT})\\s*=\\s*(?:async\\s+)?function\\s*\\*?\\s*$`, 'd');

/** The member assigned at `column` (1-based, code points) of `line`, when the name there is `object.name = …`. */
export function assignedMember(line: string, column: number, name: string): AssignedMember | undefined {
  const at = utf16Index(line, column - 1);
  if (line.slice(at, at + name.length) !== name) return undefined;
  const owner = OWNER_PATH.exec(line.slice(Math.max(0, at - CONTEXT_CHARS), at));
  const assigned = ASSIGNED.exec(line.slice(at + name.length, at + name.length + CONTEXT_CHARS));
  if (owner === null || assigned === null) return undefined;
  const owners = (owner[1] ?? '').split('.').map((s) => s.trim()).filter((s) => s !== '');
  return { owners, functionValue: assigned[0].trim() !== '=' };
}

/**
 * Whether the name at `column` is the name of a function expression assigned to a member of the
 * same name (`res.send = function send`): then it is that member's definition, not another.
 * Returns the member's column (1-based, code points) on the same line.
 */
export function functionValueOfMember(line: string, column: number, name: string): number | undefined {
  const at = utf16Index(line, column - 1);
  const from = Math.max(0, at - CONTEXT_CHARS);
  const before = FUNCTION_VALUE_OF.exec(line.slice(from, at));
  const member = before?.indices?.[1];
  if (before === null || before[1] !== name || member === undefined) return undefined;
  return codePointCount(line, 0, from + member[0]) + 1;
}

function utf16Index(text: string, codePoints: number): number {
  let i = 0;
  for (let n = 0; n < codePoints && i < text.length; n++) i += (text.codePointAt(i) as number) > 0xffff ? 2 : 1;
  return i;
}
