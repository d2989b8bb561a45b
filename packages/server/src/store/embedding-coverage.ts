import type { ResolvedScope } from '@memory-service/contract';
import type { Database } from './database.js';
import { type MemoryRow, prefixed } from './memory-rows.js';
import { allOf, type Condition, visibleTo } from './scope-filter.js';
import type { VectorTables } from './vector-tables.js';

/** A tenant database and its vector tables (a `TenantDatabase` is one). */
interface Vectorised {
  database: Database;
  vectorTables: VectorTables;
}

/** Memories that should have a vector: live, current (superseded ones are never served), visible to the scope. */
function embeddable(scope: ResolvedScope): Condition {
  return allOf({ sql: 'm.deleted_at IS NULL AND m.superseded_by IS NULL', args: [] }, visibleTo(scope, 'm'));
}

/** Counts for a scope and model: memories to embed, those without a vector, those whose embedding failed. */
export interface CoverageCounts {
  total: number;
  pending: number;
  failed: number;
}

/** The counts and the wait of the longest-waiting memory (the observability report's queue age). */
export interface CoverageFigures extends CoverageCounts {
  /** When the longest-waiting pending memory was last written (null when none is pending). */
  oldestPendingAt: string | null;
}

/**
 * The counts of a model's vectors over the memories visible to a scope, at a cost that does not grow with the
 * memories still to embed (the backfill asks once per batch, and at 1M memories a statement reading each pending row
 * took 3.5 s a batch). The scope's memories and those without a vector are counted through two narrow indexes (the
 * candidate index of `memories`, the vector table's key index): no memory row and no vector is read. The failed ones
 * are found from their failed jobs (a partial index of them), so only memories that failed are read.
 */
export async function coverageCounts(
  { database, vectorTables }: Vectorised,
  scope: ResolvedScope,
  modelId: string,
): Promise<CoverageCounts> {
  const base = embeddable(scope);
  const lacks = await vectorTables.lackingCondition(modelId);
  const counts = await database.get<{ total: number; pending: number | null }>(
    `SELECT COUNT(*) AS total, SUM(${lacks.sql}) AS pending FROM memories m INDEXED BY memories_candidate
      WHERE ${base.sql}`,
    [...lacks.args, ...base.args],
  );
  const total = Number(counts?.total ?? 0);
  const pending = Number(counts?.pending ?? 0);
  if (pending === 0) return { total, pending, failed: 0 };
  const missing = allOf(base, lacks);
  const failed = await database.get<{ failed: number }>(
    // CROSS JOIN keeps the failed jobs outside: the planner would otherwise walk every live memory.
    `SELECT COUNT(DISTINCT m.seq) AS failed FROM embedding_jobs j CROSS JOIN memories m ON m.id = j.memory_id
      WHERE j.model_id = ? AND j.status = 'failed' AND ${missing.sql}`,
    [modelId, ...missing.args],
  );
  return { total, pending, failed: Number(failed?.failed ?? 0) };
}

/**
 * The counts, and when the longest-waiting memory without a vector was last written. That time reads the row of every
 * memory still to embed (there is no index of write times): the report pays it, the backfill's batches do not.
 */
export async function coverage(tenant: Vectorised, scope: ResolvedScope, modelId: string): Promise<CoverageFigures> {
  const counts = await coverageCounts(tenant, scope, modelId);
  if (counts.pending === 0) return { ...counts, oldestPendingAt: null };
  const missing = allOf(embeddable(scope), await tenant.vectorTables.lackingCondition(modelId));
  const oldest = await tenant.database.get<{ oldest: string | null }>(
    `SELECT MIN(m.updated_at) AS oldest FROM memories m INDEXED BY memories_candidate WHERE ${missing.sql}`,
    missing.args,
  );
  return { ...counts, oldestPendingAt: oldest?.oldest ?? null };
}

/** The next memories without a vector for the model, in write order after a cursor. */
export async function nextPending(
  { database, vectorTables }: Vectorised,
  scope: ResolvedScope,
  modelId: string,
  afterSeq: number,
  limit: number,
): Promise<MemoryRow[]> {
  const lacking = await vectorTables.lackingCondition(modelId);
  const where = allOf(embeddable(scope), lacking, { sql: 'm.seq > ?', args: [afterSeq] });
  return database.all<MemoryRow>(`SELECT ${prefixed('m')} FROM memories m WHERE ${where.sql} ORDER BY m.seq LIMIT ?`, [
    ...where.args,
    limit,
  ]);
}
