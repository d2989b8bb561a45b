import type { InValue } from '@libsql/client';
import type { Database } from '../store/database.js';
import { escapeLike } from '../store/memories.js';
import { type MemoryRow, prefixed } from '../store/memory-rows.js';
import type { Condition } from '../store/scope-filter.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import { allTermsFirstSearch } from './all-terms-first.js';
import { rankedMatches } from './bounded-rank.js';
import { type CandidateScope, candidateFilter } from './candidate-filter.js';
import { matchExpression, queryTerms } from './fts-query.js';
import { rareFirstSearch } from './rare-first.js';
import { type TermStatistics, termStatistics } from './term-frequency.js';

// BM25 column weights (content 1.0, tags 1.5, category 1.2, paths 0.75) are the FTS table's rank function, set in
// tenant migration 3 (and kept by 4): curated labels say more than free text. Since migration 4 the index stems
// English words (Porter over unicode61), so "painted" finds "painting".

/** A candidate with its score (higher is better) and how it was found. */
export interface ScoredRow {
  row: MemoryRow;
  score: number;
  source: 'lexical' | 'recency';
}

/** What a lexical search is narrowed to. */
export interface LexicalOptions extends CandidateScope {
  query: string;
  limit: number;
  /** When FTS and LIKE find nothing, return the newest memories (by `occurred_at`) instead (context/get does). */
  recencyFallback: boolean;
}

/** The outcome, with the trace facts. */
export interface LexicalResult {
  candidates: ScoredRow[];
  fallbackTriggered: boolean;
  fallbackReason: string | null;
}

/** FTS5 BM25 over content, tags, category and paths, with a LIKE and then a recency fallback. */
export async function lexicalSearch(tenant: TenantDatabase, options: LexicalOptions): Promise<LexicalResult> {
  const { database } = tenant;
  const where = candidateFilter(options);
  const statistics = await termStatistics(tenant.termCounts, queryTerms(options.query));
  const match = matchExpression(statistics.terms);
  if (match !== null) {
    const rows = await ftsMatches(database, statistics, match, where, options.limit);
    if (rows.length > 0) {
      return {
        candidates: rows.map((row) => ({ row, score: -Number(row.rank), source: 'lexical' })),
        fallbackTriggered: false,
        fallbackReason: null,
      };
    }
    const liked = await likeSearch(database, options.query, where, options.limit);
    if (liked.length > 0)
      return { candidates: liked, fallbackTriggered: true, fallbackReason: 'fts_no_match_like_fallback' };
  }
  if (!options.recencyFallback) {
    return {
      candidates: [],
      fallbackTriggered: match !== null,
      fallbackReason: match === null ? 'query_has_no_terms' : 'no_match',
    };
  }
  // Newest by when it happened or was said (`occurred_at`), not by when it was written: an import is not news.
  const recent = await database.all<MemoryRow>(
    `SELECT ${prefixed('m')} FROM memories m WHERE ${where.sql} ORDER BY m.occurred_at DESC, m.seq DESC LIMIT ?`,
    [...where.args, options.limit],
  );
  return {
    candidates: recent.map((row, index) => ({ row, score: 1 / (index + 1), source: 'recency' })),
    fallbackTriggered: true,
    fallbackReason: match === null ? 'empty_query_recency' : 'no_match_recency_fallback',
  };
}

/**
 * The BM25-ranked matches of the query's terms. On a small index: the OR query, every match ranked. On a large one,
 * strong matches first: the rare terms' memories re-ranked with the common terms, then the memories mentioning every
 * remaining term; when they are fewer than `limit`, the OR query fills the rest. Each broad stage ranks its newest
 * RANKED_WINDOW matches only (where that many memories match, age is the better tie-breaker). Merged by BM25 rank.
 */
async function ftsMatches(
  database: Database,
  statistics: TermStatistics,
  match: string,
  where: Condition,
  limit: number,
): Promise<Array<MemoryRow & { rank: number }>> {
  if (statistics.documents === 0) return rankedMatches(database, match, where, limit, false);
  const rare = await rareFirstSearch(database, statistics, where, limit);
  if (rare !== null && rare.rows.length >= limit) return rare.rows;
  const rest = rare === null ? statistics : { ...statistics, terms: rare.common };
  const strong = [...(rare?.rows ?? []), ...((await allTermsFirstSearch(database, rest, where, limit)) ?? [])];
  const fill = strong.length >= limit ? [] : await rankedMatches(database, match, where, limit, true);
  const merged = new Map<number, MemoryRow & { rank: number }>();
  for (const row of [...strong, ...fill]) if (!merged.has(row.seq)) merged.set(row.seq, row);
  return [...merged.values()].sort((a, b) => a.rank - b.rank).slice(0, limit);
}

/** How many of the scope's newest memories the LIKE fallback reads (bounds its cost on a large tenant). */
const LIKE_WINDOW = 1_000;

/** Substring matches of the query's terms (catches text FTS tokenises differently), most terms first. */
async function likeSearch(database: Database, query: string, where: Condition, limit: number): Promise<ScoredRow[]> {
  const terms = queryTerms(query).slice(0, 8);
  if (terms.length === 0) return [];
  const hits = terms.map(() => "(m.content LIKE ? ESCAPE '\\')").join(' + ');
  const args: InValue[] = terms.map((term) => `%${escapeLike(term)}%`);
  // Substring matching reads every row it looks at: it looks at the newest LIKE_WINDOW memories of the scope only
  // (newest written, a cost bound the write-order index serves); equal matches rank by when they happened.
  const rows = await database.all<MemoryRow & { hits: number }>(
    `SELECT ${prefixed('m')}, (${hits}) AS hits
       FROM (SELECT * FROM memories m WHERE ${where.sql} ORDER BY m.created_at DESC, m.seq DESC LIMIT ?) AS m
      WHERE (${hits}) > 0
      ORDER BY hits DESC, m.occurred_at DESC LIMIT ?`,
    [...args, ...where.args, LIKE_WINDOW, ...args, limit],
  );
  return rows.map((row) => ({ row, score: Number(row.hits) / terms.length, source: 'lexical' }));
}
