import type { TenantDatabase } from '../tenancy/tenant-database.js';
import type { RankedCandidate } from './candidate-filter.js';
import { queryTerms } from './fts-query.js';
import { substringCoverage, termCoverage } from './term-coverage.js';

/**
 * The lowest score a matched memory reports: scores are served to 4 decimals, and a memory that matched is never
 * reported as 0 (0 means returned without matching: the recency fallback of `context/get`).
 */
export const MIN_MATCH_SCORE = 0.0001;

/** What the retrievers found, beside the ranking: which memories the lexical side matched, and the vector side's view. */
export interface RelevanceEvidence {
  /** The memories (by `seq`) the lexical side matched, by FTS or by its substring fallback. */
  lexicalHits: ReadonlySet<number>;
  /** The returned memories' cosine similarity to the query and the model's floor (null: no vector side). */
  semantic: { similarities: ReadonlyMap<number, number>; minSimilarity: number } | null;
}

/**
 * A cosine similarity on the 0..1 relevance scale: 0 at the model's similarity floor (where its neighbours stop being
 * related; each model declares its own, as models spread unrelated texts differently), 1 for the same meaning, linear
 * in between. The floor is the one calibration every model has, so a threshold means about the same for each.
 */
export function semanticRelevance(similarity: number, minSimilarity: number): number {
  if (minSimilarity >= 1) return similarity >= 1 ? 1 : 0;
  return Math.min(1, Math.max(0, (similarity - minSimilarity) / (1 - minSimilarity)));
}

/**
 * Replaces each ranked candidate's score (BM25 or fused reciprocal rank, whose scale depends on the corpus, the query
 * and the strategy) with its relevance, on one scale for every strategy: 0..1, higher is better, above 0 for every
 * matched memory. Lexically that is its term coverage (the IDF-weighted share of the query's terms it holds; for a
 * lexical hit the full-text check misses, as one only the substring fallback found, the share of terms it contains);
 * with a vector side, the stronger of that and its similarity on the same scale, so a memory's hybrid score is never
 * below its lexical one. Recency
 * fallback rows match nothing and score 0. The order is left as ranked: the ranking also weighs what a score does not
 * (term frequency and length, conversation windows, label and recency credits), so scores need not fall down the list.
 */
export async function withRelevance(
  tenant: TenantDatabase,
  query: string,
  candidates: readonly RankedCandidate[],
  { lexicalHits, semantic }: RelevanceEvidence,
): Promise<RankedCandidate[]> {
  const terms = queryTerms(query);
  const matched = candidates.filter((candidate) => candidate.source !== 'recency').map(({ row }) => row.seq);
  const coverage = await termCoverage(tenant, terms, matched);
  return candidates.map((candidate) => {
    if (candidate.source === 'recency') return { ...candidate, score: 0 };
    const { seq, content } = candidate.row;
    const lexical = coverage.get(seq) ?? (lexicalHits.has(seq) ? substringCoverage(content, terms) : 0);
    const similarity = semantic?.similarities.get(seq);
    const meaning = similarity === undefined ? 0 : semanticRelevance(similarity, semantic?.minSimilarity ?? 1);
    return { ...candidate, score: Math.max(MIN_MATCH_SCORE, lexical, meaning) };
  });
}
