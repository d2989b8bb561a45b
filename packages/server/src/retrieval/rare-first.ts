import type { Database } from '../store/database.js';
import type { Condition } from '../store/scope-filter.js';
import { rankedMatches } from './bounded-rank.js';
import { bestRanks, type RankedSeq } from './ranked-rows.js';
import type { QueryTerm } from './term-expansion.js';

/**
 * The exact BM25 top `limit`, by the whole query, of the memories that mention at least one of the `rare` terms,
 * without scoring the matches of the `common` terms elsewhere: on a large index the common terms' matches are most of
 * a query's cost, while the rare terms' are few (the caller keeps their total within a budget).
 *
 * Two FTS5 queries, each ranked by FTS5's own BM25 over every match, which split the rare terms' memories in two:
 * - `(rare) AND (common)`: those holding a common term too;
 * - `(rare) NOT (common)`: those holding none.
 * Each term is one phrase of either expression, so each rank is the one the OR of every term gives the memory (BM25
 * sums one part per phrase, and a phrase the memory does not hold adds nothing); FTS5 walks the rare terms' matches
 * and seeks in the common terms' lists. The best `limit` of the two together are the exact top `limit` of the memories
 * holding a rare term, each memory scored once.
 */
export async function rareFirstSearch(
  database: Database,
  rare: readonly QueryTerm[],
  common: readonly QueryTerm[],
  where: Condition,
  limit: number,
): Promise<RankedSeq[]> {
  const rareExpression = rare.map((term) => term.expression).join(' OR ');
  const commonExpression = common.map((term) => term.expression).join(' OR ');
  if (common.length === 0) return rankedMatches(database, rareExpression, where, limit, false);
  const [both, rareOnly] = await Promise.all([
    rankedMatches(database, `(${rareExpression}) AND (${commonExpression})`, where, limit, false),
    rankedMatches(database, `(${rareExpression}) NOT (${commonExpression})`, where, limit, false),
  ]);
  return bestRanks([...both, ...rareOnly]).slice(0, limit);
}
