import type { InValue } from '@libsql/client';
import type { ResolvedScope } from '@memory-service/contract';
import type { Database } from '../store/database.js';
import { type MemoryRow, prefixed } from '../store/memories.js';
import { allOf, type Condition, visibleTo } from '../store/scope-filter.js';
import { buildFtsQuery, escapeLike, queryTerms } from './fts-query.js';

/** BM25 column weights: content, tags, category, paths. Tags and category are curated labels, so a hit there says more. */
const BM25_WEIGHTS = '1.0, 1.5, 1.2, 0.75';

/** A candidate with its score (higher is better) and how it was found. */
export interface ScoredRow {
  row: MemoryRow;
  score: number;
  source: 'lexical' | 'recency';
}

/** What a lexical search is narrowed to. */
export interface LexicalOptions {
  query: string;
  scope: ResolvedScope;
  limit: number;
  type?: string;
  layer?: string;
  excludeLayer?: string;
  /** When FTS and LIKE find nothing, return the newest memories instead (context/get does; search does not). */
  recencyFallback: boolean;
}

/** The outcome, with the trace facts. */
export interface LexicalResult {
  candidates: ScoredRow[];
  fallbackTriggered: boolean;
  fallbackReason: string | null;
}

function filters(options: LexicalOptions): Condition {
  // Superseded memories are history, never current truth (DESIGN 5): they are not candidates at all.
  const conditions: Condition[] = [
    { sql: 'm.deleted_at IS NULL AND m.superseded_by IS NULL', args: [] },
    visibleTo(options.scope, 'm'),
  ];
  if (options.type !== undefined) conditions.push({ sql: 'm.type = ?', args: [options.type] });
  if (options.layer !== undefined) conditions.push({ sql: 'm.layer = ?', args: [options.layer] });
  if (options.excludeLayer !== undefined) conditions.push({ sql: 'm.layer <> ?', args: [options.excludeLayer] });
  return allOf(...conditions);
}

/** FTS5 BM25 over content, tags, category and paths, with a LIKE and then a recency fallback. */
export async function lexicalSearch(database: Database, options: LexicalOptions): Promise<LexicalResult> {
  const where = filters(options);
  const match = buildFtsQuery(options.query);
  if (match !== null) {
    const rows = await database.all<MemoryRow & { rank: number }>(
      `SELECT ${prefixed('m')}, bm25(memories_fts, ${BM25_WEIGHTS}) AS rank
         FROM memories_fts JOIN memories m ON m.seq = memories_fts.rowid
        WHERE memories_fts MATCH ? AND ${where.sql}
        ORDER BY rank LIMIT ?`,
      [match, ...where.args, options.limit],
    );
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
  const recent = await database.all<MemoryRow>(
    `SELECT ${prefixed('m')} FROM memories m WHERE ${where.sql} ORDER BY m.created_at DESC, m.seq DESC LIMIT ?`,
    [...where.args, options.limit],
  );
  return {
    candidates: recent.map((row, index) => ({ row, score: 1 / (index + 1), source: 'recency' })),
    fallbackTriggered: true,
    fallbackReason: match === null ? 'empty_query_recency' : 'no_match_recency_fallback',
  };
}

/** Substring matches of the query's terms (catches text FTS tokenises differently), most terms first. */
async function likeSearch(database: Database, query: string, where: Condition, limit: number): Promise<ScoredRow[]> {
  const terms = queryTerms(query).slice(0, 8);
  if (terms.length === 0) return [];
  const hits = terms.map(() => "(m.content LIKE ? ESCAPE '\\')").join(' + ');
  const args: InValue[] = terms.map((term) => `%${escapeLike(term)}%`);
  const rows = await database.all<MemoryRow & { hits: number }>(
    `SELECT ${prefixed('m')}, (${hits}) AS hits FROM memories m
      WHERE ${where.sql} AND (${hits}) > 0
      ORDER BY hits DESC, m.created_at DESC LIMIT ?`,
    [...args, ...where.args, ...args, limit],
  );
  return rows.map((row) => ({ row, score: Number(row.hits) / terms.length, source: 'lexical' }));
}
