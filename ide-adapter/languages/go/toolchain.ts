/**
 * The installed go against the go a workspace's go.mod asks for. go 1.19 loads a go.mod that
 * says `go 1.23` without a word (only go ≥ 1.21 refuses), and every use of a newer
 * standard-library API (`r.SetPathValue`, go 1.22) is then a compiler error in diagnostics and
 * resolves nowhere: true of the installed go, misleading about the code. One warning says so.
 * The version is read from the GOROOT of the go found outside the workspace (its `VERSION`
 * file); no go command runs.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readConfined } from '../../confine.js';
import type { KeyedWarning } from '../../lsp/servers.js';
import { MAX_PROJECT_FILE_BYTES } from '../../lsp/project-files.js';
import { goOutside } from './trust.js';

type Env = Readonly<Record<string, string | undefined>>;

/** A GOROOT's VERSION file is a few lines; more is not one. */
const MAX_VERSION_FILE_BYTES = 4096;

/** `[major, minor]` of a version written `1.19`, `1.19.8` or `go1.19.8`; `undefined` otherwise. */
function majorMinor(version: string): [number, number] | undefined {
  const match = /^(?:go)?(\d+)\.(\d+)/.exec(version);
  return match === null ? undefined : [Number(match[1]), Number(match[2])];
}

/** The release of the go found outside the workspace (`1.19.8`), from its GOROOT's VERSION file. */
export function installedGoVersion(root: string, env: Env): string | undefined {
  const go = goOutside(root, env);
  if (go === undefined) return undefined;
  try {
    const file = join(dirname(dirname(go)), 'VERSION');
    const text = readFileSync(file, 'utf8').slice(0, MAX_VERSION_FILE_BYTES);
    return /^go(\d+\.\d+(?:\.\d+)?)/.exec(text)?.[1];
  } catch {
    return undefined; // No VERSION file (a go built from a checkout): nothing is claimed.
  }
}

/** The `go` directive of the root's go.mod (`1.23`), if it has one. */
function goModVersion(root: string): string | undefined {
  const goMod = readConfined(root, join(root, 'go.mod'), MAX_PROJECT_FILE_BYTES);
  if (!goMod.ok) return undefined;
  return /^go[ \t]+(\d+\.\d+(?:\.\d+)?)[ \t]*(?:\/\/.*)?$/m.exec(goMod.text)?.[1];
}

/**
 * The warning when go.mod asks for a newer go than the one installed; none otherwise. Its key is
 * the known problem's (`go-version-too-new`: go ≥ 1.21 says it in its own words), so the fact is
 * told once whoever finds it first.
 */
export function olderGoWarnings(root: string, env: Env): KeyedWarning[] {
  const wanted = goModVersion(root);
  const installed = installedGoVersion(root, env);
  const want = wanted === undefined ? undefined : majorMinor(wanted);
  const have = installed === undefined ? undefined : majorMinor(installed);
  if (want === undefined || have === undefined || wanted === undefined || installed === undefined) return [];
  if (have[0] > want[0] || (have[0] === want[0] && have[1] >= want[1])) return [];
  return [
    {
      key: 'go-version-too-new',
      text: `Go: go.mod asks for go ${wanted}, the installed go is ${installed}: packages may not load, and uses of newer standard-library APIs are compiler errors that resolve nowhere. Fix: install go ${want[0]}.${want[1]} or newer`,
    },
  ];
}
