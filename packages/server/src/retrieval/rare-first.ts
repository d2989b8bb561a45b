import type { Database } from '../store/database.js';
import type { MemoryRow } from '../store/memory-rows.js';
import type { Condition } from '../store/scope-filter.js';
import { rankedMatches } from './bounded-rank.js';
import { bestRanks, type RankedRow } from './ranked-rows.js';
import type { QueryTerm } from './term-expansion.js';

/**
 * The exact BM25 top `limit`, by the whole query, of the memories that mention at least one of the `rare` terms,
 * without scoring the matches of the `common` terms elsewhere: on a large index the common terms' matches are most of
 * a query's cost, while the rare terms' are few (the caller keeps their total within a budget).
 *
 * Two FTS5 queries, each ranked by FTS5's own BM25 over every match:
 * - `(rare) AND (common)`: the memories holding a rare and a common term. Each term is one phrase of the expression,
 *   so the rank is the one the OR of every term gives them (BM25 sums one part per phrase: a phrase the memory does
 *   not hold adds nothing). FTS5 walks the rare terms' matches and seeks into the common terms' lists.
 * - `rare`: every memory holding a rare term, ranked by the rare terms alone: exact for those without a common term,
 *   below the truth for the others (the first query has their exact rank).
 * Merged by each memory's best rank this is exact: a memory of the true top `limit` holding a common term is in the
 * first query's top `limit`; one holding none is in the second's, as every memory ranked above it there ranks above it
 * by the whole query too; and an underestimated rank never lifts a memory over one it does not beat by the whole query.
 */
export async function rareFirstSearch(
  database: Database,
  rare: readonly QueryTerm[],
  common: readonly QueryTerm[],
  where: Condition,
  limit: number,
): Promise<RankedRow[]> {
  const rareExpression = rare.map((term) => term.expression).join(' OR ');
  const commonExpression = common.map((term) => term.expression).join(' OR ');
  const [both, rareOnly] = await Promise.all([
    common.length === 0
      ? Promise.resolve<Array<MemoryRow & { rank: number }>>([])
      : rankedMatches(database, `(${rareExpression}) AND (${commonExpression})`, where, limit, false),
    rankedMatches(database, rareExpression, where, limit, false),
  ]);
  return bestRanks([...both, ...rareOnly]).slice(0, limit);
}
