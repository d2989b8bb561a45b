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

/**
 * Coverage of a model's vectors over the memories visible to a scope. The first statement counts the scope's memories
 * and those without a vector through two narrow indexes (the candidate index of `memories`, the vector table's key
 * index): no memory row and no vector is read. Only when some memory lacks a vector does the second statement read
 * the rows of those (the oldest one's time, and which of them failed). At 100k memories the report took 300-440 ms
 * (three statements, each reading every row and probing the vectors' leaves), now about 30 ms when every memory has
 * its vector (BENCHMARKS.md, "Issue 27, ninth round").
 */
export async function coverage(
  { database, vectorTables }: Vectorised,
  scope: ResolvedScope,
  modelId: string,
): Promise<CoverageFigures> {
  const base = embeddable(scope);
  const lacks = await vectorTables.lackingCondition(modelId);
  const missing = allOf(base, lacks);
  const counts = await database.get<{ total: number; pending: number | null }>(
    `SELECT COUNT(*) AS total, SUM(${lacks.sql}) AS pending FROM memories m INDEXED BY memories_candidate
      WHERE ${base.sql}`,
    [...lacks.args, ...base.args],
  );
  const total = Number(counts?.total ?? 0);
  const pending = Number(counts?.pending ?? 0);
  if (pending === 0) return { total, pending, failed: 0, oldestPendingAt: null };
  const lacking = await database.get<{ failed: number | null; oldest: string | null }>(
    `SELECT MIN(m.updated_at) AS oldest,
            SUM(EXISTS (SELECT 1 FROM embedding_jobs j
                         WHERE j.memory_id = m.id AND j.model_id = ? AND j.status = 'failed')) AS failed
       FROM memories m INDEXED BY memories_candidate WHERE ${missing.sql}`,
    [modelId, ...missing.args],
  );
  return { total, pending, failed: Number(lacking?.failed ?? 0), oldestPendingAt: lacking?.oldest ?? null };
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
