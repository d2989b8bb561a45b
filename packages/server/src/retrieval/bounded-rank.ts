import type { Database } from '../store/database.js';
import type { Condition } from '../store/scope-filter.js';
import type { RankedSeq } from './ranked-rows.js';

/**
 * On a large index, a broad FTS5 expression ranks at most this many of its matches, the newest: FTS5 scores every
 * match before it sorts (~2 us each here), so the 30,000 matches of two mid-frequency terms at 100k memories cost
 * ~60 ms, 2,000 of them ~5 ms.
 */
export const RANKED_WINDOW = 2_000;

/** The lowest rowid among the expression's newest RANKED_WINDOW matches, or null when it has no more than that. */
async function windowStart(database: Database, expression: string): Promise<number | null> {
  const row = await database.get<{ rowid: number }>(
    'SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?',
    [expression, RANKED_WINDOW - 1],
  );
  return row === undefined ? null : Number(row.rowid);
}

/**
 * The best `limit` matches of an FTS5 expression by BM25 (the table's rank: negative, lower is better) that meet
 * `where`, as `seq` and rank: the filter reads the candidate index, not the rows (`rankedRows` reads the few kept).
 * With `bounded`, only the expression's newest RANKED_WINDOW matches are ranked (all when there are no more); when
 * fewer than `limit` of those meet `where` (a scope holding few of the tenant's matches), all of the scope's matches
 * are ranked instead, so a scope never loses its older matches to other scopes' newer ones; unless `wholeScope` is
 * false (a caller that only fills the tail of a list it already has), as that reads every match.
 */
export async function rankedMatches(
  database: Database,
  expression: string,
  where: Condition,
  limit: number,
  bounded: boolean,
  { wholeScope = true }: { wholeScope?: boolean } = {},
): Promise<RankedSeq[]> {
  const from = bounded ? await windowStart(database, expression) : null;
  if (from === null) {
    // FTS5 consumes `ORDER BY rank`: it ranks every match, keeping a top-n heap while the join filters each.
    return database.all<RankedSeq>(
      `SELECT m.seq AS seq, memories_fts.rank AS rank
         FROM memories_fts JOIN memories m INDEXED BY memories_candidate ON m.seq = memories_fts.rowid
        WHERE memories_fts MATCH ? AND ${where.sql}
        ORDER BY rank LIMIT ?`,
      [expression, ...where.args, limit],
    );
  }
  const rows = await sortedMatches(database, expression, where, limit, from);
  return rows.length < limit && wholeScope ? sortedMatches(database, expression, where, limit, 0) : rows;
}

/**
 * `ORDER BY rank + 0` keeps the ordering from FTS5, whose own rank sort ignores rowid bounds and ranks every match:
 * here FTS5 scans from rowid `from` on, SQLite filters each match by `where` and ranks only those that pass.
 */
function sortedMatches(
  database: Database,
  expression: string,
  where: Condition,
  limit: number,
  from: number,
): Promise<RankedSeq[]> {
  return database.all<RankedSeq>(
    `SELECT m.seq AS seq, memories_fts.rank AS rank
       FROM memories_fts JOIN memories m INDEXED BY memories_candidate ON m.seq = memories_fts.rowid
      WHERE memories_fts MATCH ? AND memories_fts.rowid >= ? AND ${where.sql}
      ORDER BY memories_fts.rank + 0 LIMIT ?`,
    [expression, from, ...where.args, limit],
  );
}
