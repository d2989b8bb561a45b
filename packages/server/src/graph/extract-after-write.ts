import type { InStatement } from '@libsql/client';
import type { Logger } from '../logger.js';
import type { MemoryRow } from '../store/memory-rows.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import { type GraphSyncOutcome, syncMemoryGraphs } from './sync-memory-graph.js';

/**
 * The indexer's graph step for memories written by `memories/add` and `memories/edit`: (re-)extracts their graphs in
 * one write, with each memory's `alsoCommit` statements in the same transaction. A graph failure never fails the
 * write; it is logged (codes only, no SQL) and recorded in `graph_errors` for graph/status. Returns one outcome per
 * row, in order.
 */
export async function extractGraphAfterWrites(
  logger: Logger,
  tenant: TenantDatabase,
  rows: readonly MemoryRow[],
  now: Date,
  alsoCommit?: (row: MemoryRow) => InStatement[],
): Promise<GraphSyncOutcome[]> {
  const outcomes = await syncMemoryGraphs(tenant, rows, now, alsoCommit);
  rows.forEach((row, index) => {
    const outcome = outcomes[index];
    if (outcome !== 'synced') logger.warn('graph extraction degraded', { memoryId: row.id, outcome });
  });
  return outcomes;
}
