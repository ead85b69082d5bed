/**
 * Which editor windows may answer a workspace, in the order to try them: every window whose
 * folder is the workspace or contains it, the deepest folder first (the window closest to the
 * workspace has the most specific settings and index), and among equally deep folders the order
 * the records came in (newest first). Pure logic on discovery records, so it is tested alone.
 */
import { isInside } from '../confine.js';
import type { DiscoveryRecord } from './discovery.js';

/** The records whose folder contains `workspaceRoot` (or is it), deepest folder first, otherwise in their order. */
export function containingRecords(records: readonly DiscoveryRecord[], workspaceRoot: string): DiscoveryRecord[] {
  return records
    .map((record, index) => ({ record, index }))
    .filter(({ record }) => isInside(record.workspaceRoot, workspaceRoot))
    .sort((a, b) => b.record.workspaceRoot.length - a.record.workspaceRoot.length || a.index - b.index)
    .map(({ record }) => record);
}
