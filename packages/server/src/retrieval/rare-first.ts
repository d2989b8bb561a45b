import type { Database } from '../store/database.js';
import type { MemoryRow } from '../store/memory-rows.js';
import type { Condition } from '../store/scope-filter.js';
import { rankedMatches } from './bounded-rank.js';
import { mentionsTerm, termExpression, wordsOf } from './fts-query.js';
import { inverseDocumentFrequency, type TermStatistics } from './term-frequency.js';

/** A term in at most this share of documents is "rare": matching only rare terms touches few rows. */
const RARE_SHARE = 0.01;
/** Rare-term candidates fetched per requested result before the common terms re-rank them. */
const CANDIDATE_FACTOR = 3;

/**
 * On a large index, a query mixing rare and common terms is answered from the rare terms alone: FTS5 scores
 * every match of every OR-ed term, so common terms cost most of the time while their IDF is small. The rare-term
 * candidates are then re-ranked by adding each common term's IDF when the memory mentions it (BM25 with a term
 * frequency of one and an average length). Returns null when this shortcut does not apply; otherwise the rare-term
 * memories found (at most `limit`, possibly fewer) and the common terms, which the caller uses to fill the rest.
 */
export async function rareFirstSearch(
  database: Database,
  statistics: TermStatistics,
  where: Condition,
  limit: number,
): Promise<{ rows: Array<MemoryRow & { rank: number }>; common: string[] } | null> {
  const { documents, terms, frequencies } = statistics;
  if (documents === 0) return null;
  const rare = terms.filter((term) => (frequencies.get(term) ?? 0) <= documents * RARE_SHARE);
  const common = terms.filter((term) => !rare.includes(term));
  if (rare.length === 0 || common.length === 0) return null;
  // Rare terms match few memories (at most 1% each): every match is ranked.
  const expression = rare.map(termExpression).join(' OR ');
  const rows = await rankedMatches(database, expression, where, limit * CANDIDATE_FACTOR, false);
  const weights = common.map((term) => ({
    term,
    idf: inverseDocumentFrequency(documents, frequencies.get(term) ?? 0),
  }));
  const rescored = rows.map((row) => {
    const words = wordsOf(`${row.content} ${row.tags} ${row.category ?? ''} ${row.paths}`);
    const bonus = weights.reduce((sum, weight) => sum + (mentionsTerm(words, weight.term) ? weight.idf : 0), 0);
    // FTS5 ranks are negative BM25 scores: lower is better.
    return { ...row, rank: Number(row.rank) - bonus };
  });
  return { rows: rescored.sort((a, b) => a.rank - b.rank).slice(0, limit), common };
}
