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
export interface CoverageFigures {
  total: number;
  pending: number;
  failed: number;
  /** When the longest-waiting pending memory was last written (null when none is pending). */
  oldestPendingAt: string | null;
}

/** Coverage of a model's vectors over the memories visible to a scope. */
export async function coverage(
  { database, vectorTables }: Vectorised,
  scope: ResolvedScope,
  modelId: string,
): Promise<CoverageFigures> {
  const base = embeddable(scope);
  const missing = allOf(base, await vectorTables.lackingCondition(modelId));
  const total = await database.get<{ count: number }>(`SELECT COUNT(*) AS count FROM memories m WHERE ${base.sql}`, [
    ...base.args,
  ]);
  const pending = await database.get<{ count: number; oldest: string | null }>(
    `SELECT COUNT(*) AS count, MIN(m.updated_at) AS oldest FROM memories m WHERE ${missing.sql}`,
    missing.args,
  );
  const failed = await database.get<{ count: number }>(
    `SELECT COUNT(*) AS count FROM memories m WHERE ${missing.sql} AND EXISTS (
       SELECT 1 FROM embedding_jobs j WHERE j.memory_id = m.id AND j.model_id = ? AND j.status = 'failed')`,
    [...missing.args, modelId],
  );
  return {
    total: Number(total?.count ?? 0),
    pending: Number(pending?.count ?? 0),
    failed: Number(failed?.count ?? 0),
    oldestPendingAt: pending?.oldest ?? null,
  };
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
