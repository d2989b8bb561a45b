import type { ResolvedScope } from '@memory-service/contract';
import { enqueueIndexJobStatement } from '../store/index-jobs.js';
import type { MemoryStore } from '../store/memories.js';
import type { MemoryRow, NewMemory } from '../store/memory-rows.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';

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

/** Writes one group commit's adds: rows, FTS entries and index jobs in one transaction. */
export function writeAdds(memories: MemoryStore, adds: PendingAdd[]): Promise<MemoryRow[]> {
  return memories.insertMany(adds, (id, add) => [enqueueIndexJobStatement(id, 'add', add.now)]);
}

/**
 * Stores a memory as one member of its tenant database's group commit (adds that arrive while a batch is being
 * written go together in the next one): the row, its FTS entry and its index job commit in one transaction, so the
 * memory is durable and lexically findable when this resolves. Its vector and graph edges follow from the job, in
 * the background (see `indexing/`).
 */
export function addMemoryRow(tenant: TenantDatabase, add: PendingAdd): Promise<MemoryRow> {
  return tenant.adds.submit(add);
}
