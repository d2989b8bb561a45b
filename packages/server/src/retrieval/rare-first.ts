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
 * Two FTS5 queries over the rare terms' memories, each ranked by FTS5's own BM25 over every match:
 * - `(rare) AND (common)`: those holding a common term too, each ranked as the OR of every term ranks it (BM25 sums one
 *   part per phrase, and a phrase the memory does not hold adds nothing);
 * - `(rare)`: all of them, ranked by the rare terms alone, which is the OR's rank for a memory holding no common term
 *   and below it (BM25's parts are never negative) for one that holds some.
 * The best rank of each memory over both lists is then exact for every memory of the top `limit`: one holding a common
 * term is in the first list's top `limit` when it belongs in the whole top `limit`, and one that is not is outranked
 * there by `limit` memories whose ranks are exact, so its rank from the second list (lower still) cannot displace
 * them. The second query used to be `(rare) NOT (common)`, with the same ranks; but FTS5's BM25 counts the memories
 * holding each phrase of the expression before it scores any, every match of each common term: at 1M memories
 * `("handle" OR "nutriwyn") NOT ("audit" OR "reporting" OR "logs")` took 16 ms for 106 matches, `("handle" OR
 * "nutriwyn")` 0.5 ms for 141.
 */
export async function rareFirstSearch(
  database: Database,
  rare: readonly QueryTerm[],
  common: readonly QueryTerm[],
  where: Condition,
  limit: number,
): Promise<RankedSeq[]> {
  const rareExpression = rare.map((term) => term.expression).join(' OR ');
  const rareAlone = rankedMatches(database, rareExpression, where, limit, false);
  if (common.length === 0) return rareAlone;
  const commonExpression = common.map((term) => term.expression).join(' OR ');
  const [both, alone] = await Promise.all([
    rankedMatches(database, `(${rareExpression}) AND (${commonExpression})`, where, limit, false),
    rareAlone,
  ]);
  return bestRanks([...both, ...alone]).slice(0, limit);
}
