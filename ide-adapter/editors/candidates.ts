/**
 * Which editor windows may answer for a workspace, without connecting to any: the socket
 * `DIALECT_IDE` names, then the discovery records of windows whose folder is the workspace or
 * contains it (choice.ts orders them). Apart from connect.ts, which connects to them, so a caller
 * that only needs to know whether an editor might answer (the warm `dialect eval`,
 * `cli/warm-eval.ts`) loads no remote-protocol client.
 */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Workspace } from '../workspace.js';
import { containingRecords } from './choice.js';
import { discoveryDirPath, readRecords, recordPath, removeRecord, unsafeFolder, type DiscoveryRecord } from './discovery.js';

/** The variable naming the editor's socket (the extension sets it in its terminals); `off` turns editors off. */
export const DIALECT_IDE_ENV = 'DIALECT_IDE';
/** The value of {@link DIALECT_IDE_ENV} that keeps `dialect` from asking any editor. */
const EDITORS_OFF = 'off';

/** Whether a process exists (a record of a window that is gone is skipped). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A window to try: its socket, and the record that advertised it (none for `DIALECT_IDE`). */
export interface EditorCandidate {
  readonly socket: string;
  readonly editor?: string;
  readonly record?: DiscoveryRecord;
}

/** Removes a stale record, and its socket file when it is one of the private folder's own. */
export function removeStale(dir: string, record: DiscoveryRecord): void {
  removeRecord(recordPath(dir, record.workspaceRoot, record.pid));
  if (dirname(record.socket) === dir) removeRecord(record.socket);
}

/** The sockets to try for a workspace, in order, with the editor each record names; stale records of dead processes are removed. */
export function editorCandidates(workspace: Pick<Workspace, 'root'>, env: Readonly<Record<string, string | undefined>> = process.env): EditorCandidate[] {
  const named = env[DIALECT_IDE_ENV];
  if (named === EDITORS_OFF) return [];
  const candidates: EditorCandidate[] = [];
  if (named !== undefined && named !== '') candidates.push({ socket: named });
  const dir = discoveryDirPath(env);
  // Records are read only from a private folder: anyone who could write there could pose as the editor.
  if (existsSync(dir) && unsafeFolder(dir) === undefined) {
    const records = readRecords(dir);
    for (const record of records.filter((r) => !alive(r.pid))) removeStale(dir, record);
    for (const record of containingRecords(records, workspace.root)) {
      if (!alive(record.pid) || candidates.some((c) => c.socket === record.socket)) continue;
      candidates.push({ socket: record.socket, editor: record.editor, record });
    }
  }
  return candidates;
}
