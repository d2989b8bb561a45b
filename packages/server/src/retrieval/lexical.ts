import type { InValue } from '@libsql/client';
import type { Database } from '../store/database.js';
import { escapeLike } from '../store/memories.js';
import { type MemoryRow, prefixed } from '../store/memory-rows.js';
import { allOf, type Condition, visibleLiveIn } from '../store/scope-filter.js';
import type { ScopeRanking } from '../store/scope-ranking.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import { allTermsFirstSearch } from './all-terms-first.js';
import { RANKED_WINDOW, rankedMatches } from './bounded-rank.js';
import { type CandidateScope, candidateFilter } from './candidate-filter.js';
import { queryTerms } from './fts-query.js';
import { bestRanks, type RankedSeq, rankedRows } from './ranked-rows.js';
import { rareFirstSearch } from './rare-first.js';
import { type ExpandedQuery, expandQuery, type QueryTerm } from './term-expansion.js';
import { MAX_DOCUMENT_SHARE, SMALL_INDEX } from './term-frequency.js';

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
  /** `scopeRanking`'s answer, when the caller counted the scope: a narrow scope is matched by its own memories. */
  ranking?: Promise<ScopeRanking>;
}

/** The outcome, with the trace facts. */
export interface LexicalResult {
  candidates: ScoredRow[];
  /** The query's terms as searched (with their expressions and match counts), and the index size they were counted on. */
  query: ExpandedQuery;
  fallbackTriggered: boolean;
  fallbackReason: string | null;
}

/** FTS5 BM25 over content, tags, category and paths, with a LIKE and then a recency fallback. */
export async function lexicalSearch(tenant: TenantDatabase, options: LexicalOptions): Promise<LexicalResult> {
  const { database } = tenant;
  const where = candidateFilter(options);
  const [query, ranking] = await Promise.all([expandQuery(tenant, queryTerms(options.query)), options.ranking]);
  const hasTerms = query.terms.length > 0;
  if (hasTerms) {
    const rows = await rankedRows(
      database,
      await ftsMatches(database, query, matchFilter(options, where, ranking), options.limit),
    );
    if (rows.length > 0) {
      return {
        candidates: rows.map((row) => ({ row, score: -Number(row.rank), source: 'lexical' })),
        query,
        fallbackTriggered: false,
        fallbackReason: null,
      };
    }
    const liked = await likeSearch(database, options.query, where, options.limit);
    if (liked.length > 0)
      return { candidates: liked, query, fallbackTriggered: true, fallbackReason: 'fts_no_match_like_fallback' };
  }
  if (!options.recencyFallback) {
    return {
      candidates: [],
      query,
      fallbackTriggered: hasTerms,
      fallbackReason: hasTerms ? 'no_match' : 'query_has_no_terms',
    };
  }
  // Newest by when it happened or was said (`occurred_at`), not by when it was written: an import is not news.
  const recent = await database.all<MemoryRow>(
    `SELECT ${prefixed('m')} FROM memories m WHERE ${where.sql} ORDER BY m.occurred_at DESC, m.seq DESC LIMIT ?`,
    [...where.args, options.limit],
  );
  return {
    candidates: recent.map((row, index) => ({ row, score: 1 / (index + 1), source: 'recency' })),
    query,
    fallbackTriggered: true,
    fallbackReason: hasTerms ? 'no_match_recency_fallback' : 'empty_query_recency',
  };
}

/**
 * The filter of the full-text statements. In a narrow scope of a larger tenant (`scopeRanking`: at most
 * `EXACT_SEARCH_MAX` memories, one user among many) a common term's matches are mostly other users': each was joined
 * to its memory's row only for the scope filter to drop it. There the scope's live memories are listed first (through
 * the scope index, once per statement) and a match outside them is dropped before its row is read: a term of more
 * than 2,000 matches ranked over a scope of 1% of 100k took p50 23.6 -> 3.1 ms, the same rows. Any other scope is a
 * large share of its tenant's matches, and listing it would cost more than it saves.
 */
function matchFilter(options: CandidateScope, where: Condition, ranking: ScopeRanking | undefined): Condition {
  if (ranking !== 'exact') return where;
  return allOf(visibleLiveIn(options.scope, '+memories_fts.rowid'), where);
}

/**
 * A query whose terms have at most this many matches in all is ranked exactly, every match scored (FTS5 scores each
 * match before it sorts, ~2 us each here): what one bounded ranking costs (RANKED_WINDOW), a few milliseconds. Past it
 * the rare terms' memories are still ranked exactly, and only the common terms' are bounded (`ftsMatches`).
 */
export const EXACT_MATCHES = RANKED_WINDOW;

/**
 * The query terms worth matching on a large index: those in at most half the documents (BM25 as FTS5 computes it gives
 * a term in more no weight, yet scoring its matches is most of a query's cost), at least the rarest one.
 */
function informative({ documents, terms }: ExpandedQuery): QueryTerm[] {
  const kept = terms.filter((term) => term.frequency <= documents * MAX_DOCUMENT_SHARE);
  if (kept.length > 0 || terms.length === 0) return kept;
  return [terms.reduce((rarest, term) => (term.frequency < rarest.frequency ? term : rarest))];
}

/**
 * The BM25-ranked matches of the query's terms (the OR of every term, as plain FTS5 ranks it). Exact whenever the
 * terms' matches number at most EXACT_MATCHES in all (every query on a small index, most on a large one). Past that,
 * the terms are split by frequency: the rarest ones whose matches fit the budget are `rare`, the rest `common`; the
 * memories mentioning a rare term are ranked exactly by the whole query (`rareFirstSearch`), and the memories
 * mentioning only common terms come from bounded rankings (of RANKED_WINDOW newest matches at most): those mentioning
 * every common term (`allTermsFirstSearch`), then, when these two give fewer than `limit`, the tenant's newest matches
 * of the whole query (all of the scope's matches when the first two found nothing). Every rank is the whole query's
 * BM25 (or below it, where a better one is also found); the one shortcut is which memories mentioning only some of the
 * common terms get ranked at all: the newest only, as they lack every rare term, the query's strongest evidence, and
 * some common one. On the generated long conversations (20 users of 1,000 messages in one tenant) this ranked as well
 * as plain BM25 (recall@10 0.787 vs 0.784) at half the p95 of reading every match of the scope. Merged by rank, as
 * `seq` and rank: the caller reads the rows of those it keeps (`rankedRows`).
 */
async function ftsMatches(
  database: Database,
  query: ExpandedQuery,
  where: Condition,
  limit: number,
): Promise<RankedSeq[]> {
  const small = query.documents < SMALL_INDEX;
  const terms = small ? query.terms : informative(query);
  const match = terms.map((term) => term.expression).join(' OR ');
  const total = terms.reduce((sum, term) => sum + term.frequency, 0);
  if (small || total <= EXACT_MATCHES) return rankedMatches(database, match, where, limit, false);
  const byFrequency = [...terms].sort((left, right) => left.frequency - right.frequency);
  const rare: QueryTerm[] = [];
  let budget = EXACT_MATCHES;
  for (const term of byFrequency) {
    if (term.frequency > budget) break;
    rare.push(term);
    budget -= term.frequency;
  }
  const common = byFrequency.slice(rare.length);
  const [rareRows, allCommon] = await Promise.all([
    rare.length === 0 ? Promise.resolve([]) : rareFirstSearch(database, rare, common, where, limit),
    allTermsFirstSearch(database, common, where, limit),
  ]);
  const found = bestRanks([...rareRows, ...allCommon]);
  if (found.length >= limit) return found.slice(0, limit);
  // The newest matches fill the tail; a scope's older ones are read only when nothing else was found.
  const newest = await rankedMatches(database, match, where, limit, true, { wholeScope: found.length === 0 });
  return bestRanks([...found, ...newest]).slice(0, limit);
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
