import type { Database } from '../store/database.js';
import type { Condition } from '../store/scope-filter.js';
import { rankedMatches } from './bounded-rank.js';
import type { RankedSeq } from './ranked-rows.js';
import type { QueryTerm } from './term-expansion.js';

/**
 * The memories that mention every one of two or more common terms (an FTS5 AND, whose ranks are the BM25 the OR of
 * those terms gives them), over the whole index: a memory mentioning every term outranks one mentioning some in nearly
 * every BM25 ranking (the "coordination" Lucene once weighed explicitly and `minimum_should_match` asks for), and the
 * AND touches only the intersection: "who owns the gateway service" at 100k memories went from ~75 to ~15 ms. Where
 * more than RANKED_WINDOW memories mention every term, the newest of them are ranked. A memory that also holds a rare
 * term is ranked below its true rank here; `rareFirstSearch` has its exact one. Terms matching nothing are left out
 * (they would empty the AND and add nothing to any rank). Returns [] with fewer than two such terms.
 */
export async function allTermsFirstSearch(
  database: Database,
  terms: readonly QueryTerm[],
  where: Condition,
  limit: number,
): Promise<RankedSeq[]> {
  const matching = terms.filter((term) => term.frequency > 0);
  if (matching.length < 2) return [];
  return rankedMatches(database, matching.map((term) => term.expression).join(' AND '), where, limit, true);
}
