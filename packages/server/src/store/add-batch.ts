import type { ResolvedScope } from '@memory-service/contract';
import { enqueueIndexJobStatement } from './index-jobs.js';
import type { MemoryStore } from './memories.js';
import type { MemoryRow, NewMemory } from './memory-rows.js';

/** A `memories/add` waiting for its group commit. */
export interface PendingAdd {
  memory: NewMemory;
  scope: ResolvedScope;
  now: Date;
  requestId: string;
}

/**
 * The most adds one group commit takes: enough to amortise a transaction over a burst of concurrent writers, small
 * enough that one batch's transaction stays a few milliseconds.
 */
export const MAX_ADD_BATCH = 64;

/**
 * Writes one group commit's adds: rows, FTS entries and index jobs in one transaction; resolves once it is durable,
 * with each add's row. An add whose duplicate is live and visible to its scope writes nothing, no row and no index
 * job (null; `MemoryStore.insertUnlessDuplicate`).
 */
export function writeAdds(memories: MemoryStore, adds: PendingAdd[]): Promise<Array<MemoryRow | null>> {
  // The job's INSERT selects the memory's row, so an add that wrote none queues none.
  return memories.insertUnlessDuplicate(adds, (id, add) => [enqueueIndexJobStatement(id, 'add', add.now)]);
}
