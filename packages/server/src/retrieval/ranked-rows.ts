import type { MemoryRow } from '../store/memory-rows.js';

/** A memory row with its FTS5 rank: a negative BM25 score, lower is better. */
export type RankedRow = MemoryRow & { rank: number };

/**
 * Rows found by several queries, each once with its best (lowest) rank, best first; ties by the older `seq`. A query
 * that leaves some of the terms out can only underestimate a memory's score, so the best rank is the closest to the
 * whole query's.
 */
export function bestRanks(rows: readonly RankedRow[]): RankedRow[] {
  const best = new Map<number, RankedRow>();
  for (const row of rows) {
    const rank = Number(row.rank);
    const known = best.get(row.seq);
    if (known === undefined || rank < known.rank) best.set(row.seq, { ...row, rank });
  }
  return [...best.values()].sort((left, right) => left.rank - right.rank || left.seq - right.seq);
}
