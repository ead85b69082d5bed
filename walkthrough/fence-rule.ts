/**
 * Fenced forms of our elements, turned into element tokens after block parsing:
 *
 *     ```mermaid                 ```comment                        ```action
 *     flowchart TD; A --> B      location: findDefinition(`User`)  button: Add tests
 *     ```                        icon: lightbulb                   
 *                                                                  Please add tests for …
 *                                The text of the comment.          ```
 *                                ```
 *
 *     ```gitdiff(range="HEAD~2..HEAD", exclude-unstaged)
 *     ```
 */
import type { StateCore, Token } from 'markdown-it';
import { buildElement, isElementName } from './elements.js';
import { WarningCode } from './errors.js';
import type { ElementKind } from './model.js';
import { ELEMENT_TOKEN, parseEnv, type ElementTokenMeta } from './parse-env.js';
import { scanTag, type RawAttribute } from './tags.js';

/** Header keys of the fenced forms (`location: …` lines before the body). */
const HEADER_KEYS: Readonly<Record<ElementKind, readonly string[]>> = { comment: ['location', 'icon'], action: ['button'], mermaid: [], gitdiff: [] };

/** The markdown-it core rule that turns fenced walkthrough elements into element tokens. */
export function fenceCoreRule(state: StateCore): void {
  const env = parseEnv(state.env);
  for (const token of state.tokens) {
    if (token.type !== 'fence') continue;
    const info = /^([a-z]+)(?![A-Za-z0-9_-])(.*)$/s.exec(token.info.trim());
    const name = info?.[1];
    if (name === undefined || !isElementName(name)) continue;
    const line = env.lineOffset + (token.map?.[0] ?? 0) + 1;
    if (env.nestedIn !== undefined) {
      env.collector.warn({ code: WarningCode.NestedElement, message: `a \`\`\`${name} block cannot be used inside <${env.nestedIn.kind}>; it is shown as code`, line });
      continue;
    }
    convert(token, name, info?.[2] ?? '', line, env);
  }
}

function convert(token: Token, kind: ElementKind, argumentText: string, line: number, env: ReturnType<typeof parseEnv>): void {
  const { collector } = env;
  const id = collector.nextId(kind);
  const args = parseFenceArguments(kind, argumentText);
  const header = splitHeader(token.content, HEADER_KEYS[kind]);
  const { element, warnings } = buildElement({ kind, id, attributes: [...args.attributes, ...header.attributes], content: kind === 'mermaid' ? token.content : header.body, form: 'fenced', line });
  collector.elements.push(element);
  if (args.problem !== undefined) collector.warn({ code: WarningCode.MalformedElement, message: `malformed \`\`\`${kind} line: ${args.problem}`, line, elementId: id });
  for (const w of warnings) collector.warn(w);
  if (element.kind === 'comment' || element.kind === 'action') {
    const markdown = element.kind === 'comment' ? element.content : element.message;
    collector.pending.push({ id, kind: element.kind, markdown, mode: 'block', lineOffset: line + header.lines });
  }
  token.type = ELEMENT_TOKEN;
  token.meta = { id } satisfies ElementTokenMeta;
}

/** `(range="…", exclude-unstaged)` or ` range="…" exclude-unstaged` after the fence's name. */
export function parseFenceArguments(kind: string, text: string): { attributes: readonly RawAttribute[]; problem?: string } {
  let inner = text.trim();
  if (inner === '') return { attributes: [] };
  if (inner.startsWith('(')) {
    if (!inner.endsWith(')')) return { attributes: [], problem: `the arguments of ${kind}( are not closed with ")"` };
    inner = inner.slice(1, -1);
  }
  // Commas between arguments are spaces to the tag scanner (but not inside quotes).
  let spaced = '';
  let quote: string | undefined;
  for (const c of inner) {
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      spaced += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      spaced += c;
    } else spaced += c === ',' ? ' ' : c;
  }
  const tag = scanTag(`<${kind} ${spaced}>`, 0);
  if (tag?.kind === 'open') return { attributes: tag.attributes };
  return { attributes: [], problem: tag?.kind === 'malformed' ? tag.reason : `cannot read the arguments ${JSON.stringify(text.trim())}` };
}

/** `key: value` lines at the top of a fenced body (only known keys), then an optional blank line. */
export function splitHeader(body: string, keys: readonly string[]): { attributes: RawAttribute[]; body: string; lines: number } {
  const lines = body.split('\n');
  const attributes: RawAttribute[] = [];
  let i = 0;
  for (; i < lines.length; i++) {
    const m = /^\s*([A-Za-z][\w-]*)\s*:(.*)$/.exec(lines[i] ?? '');
    const key = m?.[1];
    if (key === undefined || !keys.includes(key.toLowerCase())) break;
    attributes.push({ name: key, value: (m?.[2] ?? '').trim() });
  }
  if (i > 0 && i < lines.length && (lines[i] ?? '').trim() === '') i++;
  return { attributes, body: lines.slice(i).join('\n'), lines: i };
}
