import type { Database } from './database.js';

/** The most queued jobs one measurement counts in a database: past it the figure says "at least this many". */
export const BACKLOG_COUNT_CAP = 10_000;

/** A database's index queue at a moment: how many jobs wait (up to the cap) and when the oldest was queued. */
export interface IndexBacklog {
  pending: number;
  /** Epoch milliseconds the oldest waiting job was queued; null when none waits. */
  oldestQueuedAt: number | null;
}

/**
 * Measures a database's index queue with one bounded statement: the count stops at `BACKLOG_COUNT_CAP` rows and the
 * oldest job is the first by primary key, so it costs the same on a queue of ten jobs or a million.
 */
export async function indexBacklog(database: Database): Promise<IndexBacklog> {
  const row = await database.get<{ pending: number; oldest: string | null }>(
    `SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM index_jobs LIMIT ?)) AS pending,
            (SELECT created_at FROM index_jobs ORDER BY id LIMIT 1) AS oldest`,
    [BACKLOG_COUNT_CAP],
  );
  const oldest = row?.oldest ?? null;
  return { pending: Number(row?.pending ?? 0), oldestQueuedAt: oldest === null ? null : Date.parse(oldest) };
}
