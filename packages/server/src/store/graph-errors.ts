import type { Database } from './database.js';

/** Codes of graph failures (also read by observability's top error codes). */
export type GraphErrorCode =
  | 'GRAPH_RELATIONSHIP_SYNC_FAILED'
  | 'GRAPH_RELATIONSHIP_PARTIAL_DEGRADE'
  | 'GRAPH_EXPANSION_FAILED';

/** A recorded graph failure as `graph/status` shows it. */
export interface GraphErrorEntry {
  code: string;
  message: string;
  createdAt: string;
}

/** Records a graph failure; never throws (recording must not turn a degraded write into a failed one). */
export async function recordGraphError(
  database: Database,
  code: GraphErrorCode,
  message: string,
  memoryId: string | null,
  now: Date,
): Promise<void> {
  try {
    await database.run('INSERT INTO graph_errors (code, message, memory_id, created_at) VALUES (?, ?, ?, ?)', [
      code,
      message,
      memoryId,
      now.toISOString(),
    ]);
  } catch {
    // The graph tables may be missing (health schema_missing); the caller has already logged the failure.
  }
}

/** The most recent graph failures, newest first. */
export async function recentGraphErrors(database: Database, limit: number): Promise<GraphErrorEntry[]> {
  const rows = await database.all<{ code: string; message: string; created_at: string }>(
    'SELECT code, message, created_at FROM graph_errors ORDER BY created_at DESC, id DESC LIMIT ?',
    [limit],
  );
  return rows.map((row) => ({ code: row.code, message: row.message, createdAt: row.created_at }));
}

/** How many graph failures were recorded since a time. */
export async function countGraphErrorsSince(database: Database, since: Date): Promise<number> {
  const row = await database.get<{ total: number }>('SELECT COUNT(*) AS total FROM graph_errors WHERE created_at > ?', [
    since.toISOString(),
  ]);
  return Number(row?.total ?? 0);
}

/** Graph failures since a time (inclusive), by code; none when the graph tables are missing. */
export async function graphErrorCodesSince(
  database: Database,
  since: Date,
): Promise<Array<{ code: string; count: number }>> {
  try {
    const rows = await database.all<{ code: string; count: number }>(
      'SELECT code, COUNT(*) AS count FROM graph_errors WHERE created_at >= ? GROUP BY code',
      [since.toISOString()],
    );
    return rows.map((row) => ({ code: row.code, count: Number(row.count) }));
  } catch {
    return [];
  }
}
