/**
 * The check of the project files a language server reads whole before it answers anything
 * (`tsconfig.json`, `jsconfig.json`, `package.json` and the configurations they `extends`;
 * `Cargo.toml`): each must pass the one confinement check (`confine.ts` `readConfined`: inside
 * the workspace, a regular file, at most `MAX_PROJECT_FILE_BYTES`). Synchronous, on plain reads:
 * it runs in the file worker right after the project scan that finds the folders
 * (`project-scan.ts`), or on this thread for a server that reads only the root's files
 * (`lsp/project-files.ts` asks for it).
 */
import { lstatSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { isInside, readConfined } from './confine.js';

/** Project files larger than this are refused: real ones are a few kilobytes. */
export const MAX_PROJECT_FILE_BYTES = 1024 * 1024;

/**
 * How many configurations `extends` may name in all, each counted once (a shared base named by
 * every package counts one): four per project at `MAX_PROJECTS`. Past it the rest go unchecked,
 * and a server reading a hostile one is stopped by its memory bound (`memory-bound.ts`).
 */
const MAX_EXTENDED_CONFIGURATIONS = 1_000;

/** The project files of one kind of server. */
export interface ProjectFileRule {
  /** File names read in the root and in each project folder. */
  readonly names: readonly string[];
  /** Names marking a project folder at any depth (`findProjects`); none: only the root's files are read. */
  readonly projectMarkers: readonly string[];
  /** Names whose JSON (with comments) may `extends` other configurations (`tsconfig.json`); a file an `extends` names may too, whatever its name. */
  readonly extendsIn?: readonly string[];
  /**
   * The note a start shows when configurations extend an uninstalled package (the language's
   * words: what its server does without them, and the fix); none: nothing is said.
   */
  readonly uninstalledExtendsNote?: (root: string, found: readonly UninstalledExtends[]) => string | undefined;
}

/** A configuration whose `extends` names a package no `node_modules` above it holds (the server loads it without that configuration). */
export interface UninstalledExtends {
  /** The configuration (absolute). */
  readonly config: string;
  /** The first package specifier it names that is not installed. */
  readonly spec: string;
}

/** The check's verdict: why the server must not start, if it must not, and what it found on the way. */
export interface ProjectFilesVerdict {
  /** The first project file that fails the check, as a sentence for people; `undefined` when every one passes. */
  readonly refusal: string | undefined;
  /** Configurations read whose `extends` names an uninstalled package, in the order read (one entry each). */
  readonly uninstalledExtends: readonly UninstalledExtends[];
}

/** What to check, and for whom: the data a {@link checkProjectFiles} needs (it crosses to the worker). */
export interface ProjectFilesCheck {
  readonly rule: Pick<ProjectFileRule, 'names' | 'extendsIn'>;
  /** The server's name, for the refusal. */
  readonly serverName: string;
  /** Whether `extends` may lead out of the workspace (to a regular file of bounded size). */
  readonly trusted: boolean;
}

/**
 * Checks the project files of `check` in `root`: the root and the project folders `dirs`, and
 * their `extends` chains. The verdict's `refusal` names the first file that fails; on the way
 * it notes the configurations that extend an uninstalled package (no read of its own: the check
 * reads every configuration anyway).
 */
export function checkProjectFiles(root: string, dirs: readonly string[], check: ProjectFilesCheck): ProjectFilesVerdict {
  const { rule, serverName, trusted } = check;
  const queue: string[] = [];
  const queued = new Set<string>();
  /** Files named by an `extends`: configurations whatever their name, so their own `extends` is followed too. */
  const extended = new Set<string>();
  const uninstalledExtends: UninstalledExtends[] = [];
  const enqueue = (file: string): void => {
    if (queued.has(file)) return;
    queued.add(file);
    queue.push(file);
  };
  for (const dir of dirs) for (const name of rule.names) if (present(join(dir, name))) enqueue(join(dir, name));
  const own = queue.length;
  for (let next = 0; next < queue.length; next++) {
    const file = queue[next] as string;
    const inside = isInside(root, file);
    const read = readConfined(inside ? root : '/', file, MAX_PROJECT_FILE_BYTES);
    const shown = inside ? relative(root, file) : file;
    const problem = !read.ok
      ? read.reason === 'missing'
        ? undefined
        : read.reason === 'outside'
          ? `${shown} leads outside the workspace${read.real !== undefined ? ` (to ${read.real})` : ''}`
          : read.reason === 'not-a-file'
            ? `${shown} is not a regular file (a FIFO, socket, device or folder)`
            : `${shown} is larger than ${MAX_PROJECT_FILE_BYTES / 1024} KiB (MAX_PROJECT_FILE_BYTES)`
      : !trusted && !isInside(root, read.real)
        ? `${shown} is outside this untrusted workspace (named by an \`extends\`)`
        : undefined;
    if (problem !== undefined) {
      const refusal = `${serverName} was not started: ${problem}. A server reads its project files whole, so each must be a regular file inside the workspace of at most ${MAX_PROJECT_FILE_BYTES / 1024} KiB; fix or remove it.`;
      return { refusal, uninstalledExtends };
    }
    if (!read.ok || (rule.extendsIn?.includes(file.slice(file.lastIndexOf('/') + 1)) !== true && !extended.has(file))) continue;
    const { targets, uninstalled } = extendsTargets(read.text, dirname(file), root);
    if (uninstalled !== undefined) uninstalledExtends.push({ config: file, spec: uninstalled });
    for (const target of targets) {
      if (queue.length - own >= MAX_EXTENDED_CONFIGURATIONS) break;
      extended.add(target);
      enqueue(target);
    }
  }
  return { refusal: undefined, uninstalledExtends };
}

/** Whether something (a file, link, FIFO…) is at `path`, without following or opening it. */
function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The files an `extends` of a TypeScript configuration names, as TypeScript finds them: a path
 * (relative or absolute, `.json` added when it has none), or a package under a `node_modules`
 * of the configuration's folder or one above it within the workspace; and the first package it
 * names that none holds (`uninstalled`).
 */
function extendsTargets(text: string, dir: string, root: string): { targets: string[]; uninstalled: string | undefined } {
  const targets: string[] = [];
  let uninstalled: string | undefined;
  for (const spec of extendsSpecs(text)) {
    if (spec.startsWith('.') || isAbsolute(spec)) {
      const path = resolve(dir, spec);
      targets.push(present(path) || path.endsWith('.json') ? path : `${path}.json`);
      continue;
    }
    const found = packageConfiguration(root, dir, spec);
    if (found !== undefined) targets.push(found);
    else uninstalled ??= spec;
  }
  return { targets, uninstalled };
}

/** What a TypeScript configuration's text `extends`, in order (none when it cannot be parsed: the server reports that itself). */
function extendsSpecs(text: string): string[] {
  let value: unknown;
  try {
    value = (JSON.parse(withoutCommentsAndTrailingCommas(text)) as { extends?: unknown }).extends;
  } catch {
    return [];
  }
  return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
}

/**
 * The file a package `extends` names, as TypeScript finds it: under a `node_modules` of `dir` or
 * of a folder above it within the workspace; `undefined` when the package is not installed.
 */
function packageConfiguration(root: string, dir: string, spec: string): string | undefined {
  for (let d = dir; isInside(root, d); d = dirname(d)) {
    const base = join(d, 'node_modules', spec);
    const found = [base, `${base}.json`, join(base, 'tsconfig.json')].find((p) => present(p) && !isDirectory(p));
    if (found !== undefined) return found;
    if (d === root) break;
  }
  return undefined;
}

function isDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** JSON with comments (`//`, `/* *\/`) and trailing commas, as TypeScript accepts it, made JSON; one pass. */
export function withoutCommentsAndTrailingCommas(text: string): string {
  const parts: string[] = [];
  let i = 0;
  let pendingComma = -1; // index in `parts` of a comma that may be trailing
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '"') {
      const start = i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      parts.push(text.slice(start, ++i));
      pendingComma = -1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else {
      if (c === '}' || c === ']') {
        if (pendingComma >= 0) parts[pendingComma] = ' ';
        pendingComma = -1;
      } else if (c === ',') pendingComma = parts.length;
      else if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') pendingComma = -1;
      parts.push(c);
      i++;
    }
  }
  return parts.join('');
}
