/**
 * The background servers of this user: every record in the runtime folder whose process is alive
 * (records of dead processes are cleaned up on the way).
 */
import { readdirSync } from 'node:fs';
import { cleanUp } from './connect.js';
import type { ServerIdentity } from './identity.js';
import { isServerProcess } from './process.js';
import { identityFiles, isRecordFile, readRecord, type ServerRecord } from './record.js';

/** A running server: its record and files. */
export interface RunningServer {
  readonly record: ServerRecord;
  readonly files: Pick<ServerIdentity, 'id' | 'socketPath' | 'recordPath' | 'lockPath' | 'logPath'>;
}

/** The live servers recorded in `runtimeDir`, oldest first; stale records are removed. */
export function runningServers(runtimeDir: string): RunningServer[] {
  const out: RunningServer[] = [];
  for (const name of readdirSync(runtimeDir)) {
    if (!isRecordFile(name)) continue;
    const files = identityFiles(runtimeDir, name);
    const record = readRecord(files.recordPath);
    if (record === undefined) continue;
    if (!isServerProcess(record.pid)) {
      cleanUp(files);
      continue;
    }
    out.push({ record, files });
  }
  return out.sort((a, b) => a.record.startedAt - b.record.startedAt);
}
