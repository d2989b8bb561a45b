import type { OperationId } from '@memory-service/contract';

/**
 * Operations that never create a tenant (review finding 9): on a tenantId the workspace does not have yet, they
 * answer exactly as an existing, empty tenant would (search and list: nothing; context: an empty bundle; a session,
 * memory or skill file by id: its 404; observability: zeros), and no database is made. Only the other operations
 * (writes that create records: memories.add, skills.upsert, sessions.start, rollout and backfill settings)
 * provision a tenant on first use.
 *
 * Two kinds are here: reads, and writes that only change records that must already exist (on an empty tenant they
 * find nothing). An operation missing from this set provisions as before, so a new write never loses data.
 * The contract's operations table should carry this fact (issue 18 makes the table the only list); its `readOnly`
 * is another one ("safe to retry"), since context/get reads but logs its use.
 */
export const READ_ONLY_OPERATIONS: ReadonlySet<OperationId> = new Set<OperationId>([
  // Reads.
  'context.get',
  'memories.search',
  'memories.list',
  'skills.list',
  'sessions.snapshot',
  'embeddings.models',
  'graph.status.get',
  'graph.status.post',
  'graph.trace',
  'graph.rollout.get',
  'management.tenants.get',
  'management.embeddings.usage',
  'management.embeddings.backfill.get',
  'management.embeddings.observability',
  'management.memory.observability',
  'management.memory.evalReplay',
  // Writes that only reach existing records.
  'memories.edit',
  'memories.forget',
  'memories.bulkForget',
  'memories.vacuum',
  'memories.consolidate',
  'skills.delete',
  'skills.promote',
  'sessions.checkpoint',
  'sessions.end',
]);

/** Whether an operation may provision the database of a tenantId the workspace does not have yet. */
export function mayCreateTenant(operationId: string): boolean {
  return !READ_ONLY_OPERATIONS.has(operationId as OperationId);
}
