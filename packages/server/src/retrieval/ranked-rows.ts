import type { Database } from '../store/database.js';
import { type MemoryRow, memoriesBySeq, prefixed } from '../store/memory-rows.js';

/** A memory ranked by full-text search, before its row is read: `seq` and FTS5 rank (negative BM25, lower first). */
export interface RankedSeq {
  seq: number;
  rank: number;
}

/** A memory row with its FTS5 rank. */
export type RankedRow = MemoryRow & { rank: number };

/**
 * Memories found by several queries, each once with its best (lowest) rank, best first; ties by the older `seq`. A
 * query that leaves some of the terms out can only underestimate a memory's score, so the best rank is the closest to
 * the whole query's.
 */
export function bestRanks(found: readonly RankedSeq[]): RankedSeq[] {
  const best = new Map<number, RankedSeq>();
  for (const { seq, rank } of found) {
    const known = best.get(Number(seq));
    if (known === undefined || Number(rank) < known.rank)
      best.set(Number(seq), { seq: Number(seq), rank: Number(rank) });
  }
  return [...best.values()].sort((left, right) => left.rank - right.rank || left.seq - right.seq);
}

/**
 * The rows of ranked memories, read by key in one statement, in the ranking's order. The rankings read only `seq` and
 * rank (their filter through the candidate index); a memory forgotten or superseded since it was ranked is left out.
 */
export async function rankedRows(database: Database, ranked: readonly RankedSeq[]): Promise<RankedRow[]> {
  if (ranked.length === 0) return [];
  const rows = await database.all<MemoryRow>(
    `SELECT ${prefixed('m')} FROM ${memoriesBySeq('m')} WHERE m.deleted_at IS NULL AND m.superseded_by IS NULL`,
    [JSON.stringify(ranked.map(({ seq }) => seq))],
  );
  const rowOf = new Map(rows.map((row) => [Number(row.seq), row]));
  return ranked.flatMap(({ seq, rank }) => {
    const row = rowOf.get(Number(seq));
    return row === undefined ? [] : [{ ...row, rank: Number(rank) }];
  });
}
