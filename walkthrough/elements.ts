/**
 * Building elements from their attributes and content, with a warning for every unknown,
 * duplicate, missing or invalid attribute. Never throws: a broken element still becomes an element
 * (a comment without location is shown as unresolved) or a warning.
 */
import { closest } from '../dialect/index.js';
import { WarningCode } from './errors.js';
import { DEFAULT_EMOJI, DEFAULT_ICON, ICON_NAMES, iconEmoji } from './icons.js';
import type { ElementForm, ElementKind, WalkthroughElement, WalkthroughWarning } from './model.js';
import type { RawAttribute } from './tags.js';

/** The element names we parse. */
export const ELEMENT_NAMES: readonly ElementKind[] = ['comment', 'action', 'mermaid', 'gitdiff'];

/** Whether a tag name is one of the walkthrough elements. */
export function isElementName(name: string): name is ElementKind {
  return (ELEMENT_NAMES as readonly string[]).includes(name);
}

type AttributeType = 'text' | 'flag';

const ATTRIBUTES: Readonly<Record<ElementKind, Readonly<Record<string, AttributeType>>>> = {
  comment: { location: 'text', icon: 'text' },
  action: { button: 'text' },
  mermaid: {},
  gitdiff: { range: 'text', 'exclude-unstaged': 'flag', 'exclude-staged': 'flag' },
};

const REQUIRED: Readonly<Record<ElementKind, readonly string[]>> = { comment: ['location'], action: ['button'], mermaid: [], gitdiff: [] };

/** How each element is written, for warnings that teach. */
export const ELEMENT_SYNTAX: Readonly<Record<ElementKind, string>> = {
  comment: '<comment location="findDefinition(`validateToken`)" icon="lightbulb">text</comment>',
  action: '<action button="Add tests">message for the agent</action>',
  mermaid: '<mermaid>flowchart TD; A --> B</mermaid>',
  gitdiff: '<gitdiff range="HEAD~2..HEAD" exclude-unstaged exclude-staged />',
};

/** A scanned element tag before validation: its name, attributes and content. */
export interface ElementInput {
  readonly kind: ElementKind;
  readonly id: string;
  readonly attributes: readonly RawAttribute[];
  /** The content between the tags (or the body of a fenced form). */
  readonly content: string;
  readonly form: ElementForm;
  /** 1-based line. */
  readonly line: number;
  /** Whether the element was written without content (`<gitdiff … />`). */
  readonly selfClosing?: boolean;
}

/** The element, and its warnings (each with `elementId` set). */
export function buildElement(input: ElementInput): { element: WalkthroughElement; warnings: WalkthroughWarning[] } {
  const { kind, id, line } = input;
  const warnings: WalkthroughWarning[] = [];
  const warn = (code: WalkthroughWarning['code'], message: string): void => {
    warnings.push({ code, message, line, elementId: id });
  };
  const known = ATTRIBUTES[kind];
  const values = new Map<string, string | undefined>();
  const invalid = new Set<string>();
  for (const { name, value } of input.attributes) {
    const key = name.toLowerCase();
    const type = known[key];
    if (type === undefined) {
      const near = closest(name, Object.keys(known));
      const allowed = Object.keys(known);
      warn(
        WarningCode.UnknownAttribute,
        `<${kind}> has no attribute "${name}"${near.length > 0 ? `; did you mean "${near[0]}"?` : ''} (${allowed.length > 0 ? `allowed: ${allowed.join(', ')}` : 'it takes no attributes'})`,
      );
      continue;
    }
    if (values.has(key)) {
      warn(WarningCode.DuplicateAttribute, `<${kind}> has "${key}" twice; the first one is used`);
      continue;
    }
    if (type === 'text' && value === undefined) {
      invalid.add(key);
      warn(WarningCode.InvalidAttribute, `"${key}" of <${kind}> needs a value, e.g. ${ELEMENT_SYNTAX[kind]}`);
      continue;
    }
    if (type === 'text' && value !== undefined && value.trim() === '') {
      invalid.add(key);
      warn(WarningCode.InvalidAttribute, `"${key}" of <${kind}> is empty`);
      continue;
    }
    if (type === 'flag' && value !== undefined && !['', 'true', 'false'].includes(value.trim().toLowerCase())) {
      warn(WarningCode.InvalidAttribute, `"${key}" of <${kind}> is a flag: write it alone (${key}), not ${key}="${value}"`);
      continue;
    }
    values.set(key, value);
  }
  for (const required of REQUIRED[kind]) {
    if (!values.has(required) && !invalid.has(required)) {
      warn(WarningCode.MissingAttribute, `<${kind}> needs a "${required}" attribute, e.g. ${ELEMENT_SYNTAX[kind]}`);
    }
  }
  const text = (key: string): string | undefined => {
    const v = values.get(key);
    return v === undefined ? undefined : v.trim();
  };
  const flag = (key: string): boolean => values.has(key) && (values.get(key) ?? '').trim().toLowerCase() !== 'false';
  const base = { id, line, form: input.form };
  const content = input.form === 'inline' ? input.content.trim() : trimBlankLines(input.content);

  switch (kind) {
    case 'comment': {
      const icon = text('icon') ?? DEFAULT_ICON;
      let emoji = iconEmoji(icon);
      if (emoji === undefined) {
        const near = closest(icon, ICON_NAMES);
        warn(WarningCode.UnknownIcon, `unknown icon "${icon}"${near.length > 0 ? `; did you mean "${near[0]}"?` : ''} (known: ${ICON_NAMES.join(', ')}); using the default icon, "${DEFAULT_ICON}"`);
        emoji = DEFAULT_EMOJI;
      }
      if (content.trim() === '') warn(WarningCode.EmptyContent, `<comment> has no text; write what the reader should notice between <comment …> and </comment>`);
      return { element: { ...base, kind, location: text('location'), icon, emoji, content }, warnings };
    }
    case 'action': {
      const button = text('button') ?? 'Action';
      return { element: { ...base, kind, button, message: content.trim() === '' ? button : content }, warnings };
    }
    case 'mermaid':
      if (content.trim() === '') warn(WarningCode.EmptyContent, '<mermaid> has no diagram; put mermaid text between <mermaid> and </mermaid>');
      return { element: { ...base, kind, source: content }, warnings };
    case 'gitdiff':
      if (content.trim() !== '') warn(WarningCode.IgnoredContent, `the content of <gitdiff> is ignored; write it as ${ELEMENT_SYNTAX.gitdiff}`);
      return {
        element: { ...base, kind, range: text('range'), excludeUnstaged: flag('exclude-unstaged'), excludeStaged: flag('exclude-staged') },
        warnings,
      };
  }
}

/**
 * Drops leading and trailing blank lines, keeping the indentation of the rest. Scanned by hand: a
 * pattern for the trailing blank lines is retried from every line break of a long run of them
 * (quadratic: 40,000 empty lines in a block element took 30 s).
 */
export function trimBlankLines(text: string): string {
  const blank = (c: string | undefined): boolean => c === ' ' || c === '\t';
  // Leading: whole blank lines, each with its line break.
  let start = 0;
  for (;;) {
    let at = start;
    while (blank(text[at])) at++;
    if (text[at] === '\n') start = at + 1;
    else if (text[at] === '\r' && text[at + 1] === '\n') start = at + 2;
    else break;
  }
  // Trailing: a line break and the blanks after it, again and again.
  let end = text.length;
  for (;;) {
    let at = end;
    while (at > start && blank(text[at - 1])) at--;
    if (at <= start || text[at - 1] !== '\n') break;
    end = at - 1 > start && text[at - 2] === '\r' ? at - 2 : at - 1;
  }
  const rest = text.slice(start, end);
  // A text of blanks alone is empty.
  for (const c of rest) if (!blank(c)) return rest;
  return '';
}
