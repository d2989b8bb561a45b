import type { Database } from '../store/database.js';
import type { MemoryRow } from '../store/memory-rows.js';
import type { Condition } from '../store/scope-filter.js';
import { RANKED_WINDOW, rankedMatches } from './bounded-rank.js';
import { termExpression } from './fts-query.js';
import type { TermStatistics } from './term-frequency.js';

/**
 * On a large index, a broad query of two or more terms (their matches add up to more than RANKED_WINDOW, what one
 * bounded ranking costs) is first answered from the memories that mention every term (an FTS5 AND, whose ranks are the
 * same BM25 the OR query gives those memories), over the whole index. A memory mentioning every query term outranks one
 * mentioning some in nearly every BM25 ranking (the "coordination" Lucene once weighed explicitly and
 * `minimum_should_match` asks for), and the AND touches only the intersection: "who owns the gateway service" at 100k
 * memories went from ~75 to ~15 ms. Where more than RANKED_WINDOW memories mention every term, the newest of them are
 * ranked. Returns null when the shortcut does not apply, else the best `limit` such memories (possibly fewer: the
 * caller fills the rest from the OR query). Terms matching nothing are left out of the AND (they would empty it and add
 * nothing to any rank).
 */
export async function allTermsFirstSearch(
  database: Database,
  statistics: TermStatistics,
  where: Condition,
  limit: number,
): Promise<Array<MemoryRow & { rank: number }> | null> {
  const { documents, terms, frequencies } = statistics;
  if (documents === 0) return null;
  const matching = terms.filter((term) => (frequencies.get(term) ?? 0) > 0);
  const matches = matching.reduce((sum, term) => sum + (frequencies.get(term) ?? 0), 0);
  if (matching.length < 2 || matches <= RANKED_WINDOW) return null;
  return rankedMatches(database, matching.map(termExpression).join(' AND '), where, limit, true);
}
