import type { Database } from '../store/database.js';
import { termExpression } from './fts-query.js';

const TTL_MS = 60_000;
const MAX_TERMS = 5_000;
/**
 * A term in more than this share of documents has a BM25 IDF at or below zero, which FTS5 clamps to ~0: it adds
 * nothing to a document's rank, yet scoring its matches is most of a query's cost on a large index.
 */
const MAX_DOCUMENT_SHARE = 0.5;
/** Below this many documents every query is cheap: no statistics are gathered. */
const SMALL_INDEX = 1_000;

interface TermCache {
  documents: number;
  documentsAt: number;
  terms: Map<string, { frequency: number; at: number }>;
}

const caches = new WeakMap<Database, TermCache>();

function cacheOf(database: Database): TermCache {
  let cache = caches.get(database);
  if (cache === undefined) {
    cache = { documents: 0, documentsAt: Number.NEGATIVE_INFINITY, terms: new Map() };
    caches.set(database, cache);
  }
  return cache;
}

/** How many live rows the index holds, roughly (the highest rowid; deleted rows count too), cached a minute. */
async function documentCount(database: Database, cache: TermCache, nowMs: number): Promise<number> {
  if (nowMs - cache.documentsAt < TTL_MS) return cache.documents;
  const row = await database.get<{ documents: number | null }>('SELECT max(seq) AS documents FROM memories');
  cache.documents = Number(row?.documents ?? 0);
  cache.documentsAt = nowMs;
  return cache.documents;
}

/** Documents matching one term (as the search matches it), cached a minute per database. */
async function termFrequency(
  database: Database,
  cache: TermCache,
  term: string,
  nowMs: number,
  fresh = false,
): Promise<number> {
  const cached = cache.terms.get(term);
  if (!fresh && cached !== undefined && nowMs - cached.at < TTL_MS) return cached.frequency;
  const row = await database.get<{ frequency: number }>(
    'SELECT count(*) AS frequency FROM memories_fts WHERE memories_fts MATCH ?',
    [termExpression(term)],
  );
  const frequency = Number(row?.frequency ?? 0);
  if (cache.terms.size >= MAX_TERMS) cache.terms.delete(cache.terms.keys().next().value as string);
  cache.terms.set(term, { frequency, at: nowMs });
  return frequency;
}

/** Document frequencies of a query's terms on one index. */
export interface TermStatistics {
  /** Approximate number of documents (0 on small indexes, where statistics are not worth their queries). */
  documents: number;
  /** Terms worth matching: those in at most half the documents (at least the rarest one). */
  terms: string[];
  frequencies: Map<string, number>;
}

/**
 * Drops terms that match most of the index (they cannot change the ranking, only its cost), keeping at least
 * the rarest term. Small indexes are left alone: there the cost is negligible.
 */
export async function termStatistics(
  database: Database,
  terms: readonly string[],
  nowMs = Date.now(),
): Promise<TermStatistics> {
  const frequencies = new Map<string, number>();
  if (terms.length === 0) return { documents: 0, terms: [], frequencies };
  const cache = cacheOf(database);
  const documents = await documentCount(database, cache, nowMs);
  if (documents < SMALL_INDEX) return { documents: 0, terms: [...terms], frequencies };
  // A single term has nothing to drop; its count is not needed.
  if (terms.length === 1) return { documents, terms: [...terms], frequencies };
  const counts = await Promise.all(terms.map((term) => termFrequency(database, cache, term, nowMs)));
  for (const [index, term] of terms.entries()) frequencies.set(term, counts[index] ?? 0);
  const kept = terms.filter((term) => (frequencies.get(term) ?? 0) <= documents * MAX_DOCUMENT_SHARE);
  if (kept.length > 0) return { documents, terms: kept, frequencies };
  const rarest = counts.indexOf(Math.min(...counts));
  return { documents, terms: [terms[rarest] ?? terms[0]!], frequencies };
}

/** BM25's inverse document frequency as FTS5 computes it (clamped just above zero). */
export function inverseDocumentFrequency(documents: number, frequency: number): number {
  return Math.max(1e-6, Math.log((documents - frequency + 0.5) / (frequency + 0.5)));
}

/**
 * Lucene's BM25 inverse document frequency, log(1 + (N - n + 0.5) / (n + 0.5)): always positive, where FTS5's
 * (above) is clamped to ~0 for a term in more than half the documents.
 */
export function smoothedInverseDocumentFrequency(documents: number, frequency: number): number {
  return Math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5));
}

/** A query term in more than half the documents and its smoothed IDF. */
export interface CommonTerm {
  term: string;
  idf: number;
}

/**
 * The query's terms that match more than half the documents, each with its smoothed IDF: the terms BM25 as FTS5
 * computes it gives no weight (and that `termStatistics` drops from the match on large indexes), which still tell
 * two otherwise equal memories apart (a name most memories mention). Counts are the cached ones `termStatistics`
 * uses; on small indexes, where counting is cheap, they are always fresh.
 */
export async function commonTerms(
  database: Database,
  terms: readonly string[],
  nowMs = Date.now(),
): Promise<CommonTerm[]> {
  if (terms.length === 0) return [];
  const cache = cacheOf(database);
  let documents = await documentCount(database, cache, nowMs);
  const fresh = documents < SMALL_INDEX;
  if (fresh) {
    cache.documentsAt = Number.NEGATIVE_INFINITY;
    documents = await documentCount(database, cache, nowMs);
  }
  if (documents === 0) return [];
  const counts = await Promise.all(terms.map((term) => termFrequency(database, cache, term, nowMs, fresh)));
  return terms.flatMap((term, index) => {
    const frequency = counts[index] ?? 0;
    return frequency > documents * MAX_DOCUMENT_SHARE
      ? [{ term, idf: smoothedInverseDocumentFrequency(documents, frequency) }]
      : [];
  });
}
