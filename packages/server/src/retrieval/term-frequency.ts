import type { TermCounts } from '../store/term-counts.js';
import { termExpression } from './fts-query.js';

/**
 * A term in more than this share of documents has a BM25 IDF at or below zero, which FTS5 clamps to ~0: it adds
 * nothing to a document's rank, yet scoring its matches is most of a query's cost on a large index.
 */
export const MAX_DOCUMENT_SHARE = 0.5;
/**
 * Below this many documents every query is cheap: lexical search ranks every match, and counts are read fresh (each
 * write moves them noticeably there).
 */
export const SMALL_INDEX = 1_000;

/** Documents matching one term (as the search matches it), from the database's cached counts. */
function termFrequency(counts: TermCounts, term: string, fresh = false): Promise<number> {
  return counts.matchCount(termExpression(term), fresh);
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
export async function termStatistics(counts: TermCounts, terms: readonly string[]): Promise<TermStatistics> {
  const frequencies = new Map<string, number>();
  if (terms.length === 0) return { documents: 0, terms: [], frequencies };
  const documents = await counts.documentCount();
  if (documents < SMALL_INDEX) return { documents: 0, terms: [...terms], frequencies };
  // A single term has nothing to drop; its count is not needed.
  if (terms.length === 1) return { documents, terms: [...terms], frequencies };
  const found = await Promise.all(terms.map((term) => termFrequency(counts, term)));
  for (const [index, term] of terms.entries()) frequencies.set(term, found[index] ?? 0);
  const kept = terms.filter((term) => (frequencies.get(term) ?? 0) <= documents * MAX_DOCUMENT_SHARE);
  if (kept.length > 0) return { documents, terms: kept, frequencies };
  const rarest = found.indexOf(Math.min(...found));
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
export async function commonTerms(counts: TermCounts, terms: readonly string[]): Promise<CommonTerm[]> {
  if (terms.length === 0) return [];
  let documents = await counts.documentCount();
  const fresh = documents < SMALL_INDEX;
  if (fresh) documents = await counts.documentCount(true);
  if (documents === 0) return [];
  const found = await Promise.all(terms.map((term) => termFrequency(counts, term, fresh)));
  return terms.flatMap((term, index) => {
    const frequency = found[index] ?? 0;
    return frequency > documents * MAX_DOCUMENT_SHARE
      ? [{ term, idf: smoothedInverseDocumentFrequency(documents, frequency) }]
      : [];
  });
}
