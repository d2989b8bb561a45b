import type { RankedCandidate } from './candidate-filter.js';
import { mentionsTerm, wordsOf } from './fts-query.js';
import { labelCredit } from './label-credit.js';
import type { CommonTerm } from './term-frequency.js';

/** Reciprocal-rank fusion constant (Cormack et al. 2009): large enough that rank 1 vs 2 is not a cliff. */
export const RRF_K = 60;
/**
 * List weights. Lexical (BM25 over conversation windows) leads: exact words and names are the strongest evidence in
 * memories. The vector list adds paraphrase matches at 0.3: on the development conversations with the offline
 * sentence encoder, 0.3 gained most (0.1 and 0.2 less; 0.5 and 1.0 displaced more lexical hits than they added).
 */
export const LEXICAL_WEIGHT = 1;
/**
 * The vector side's weight (see `LEXICAL_WEIGHT`), split evenly between its lists when the query has two vectors
 * (`CONTENT_WORDS_VECTOR`): 0.15 each. On the development conversations the even split of the same 0.3 beat 0.2 + 0.2
 * and 0.3 + 0.1 to 0.3 + 0.3 (recall@10 0.745 vs 0.745 and 0.727 - 0.738; recall@5 0.645 vs 0.614 - 0.629).
 */
export const SEMANTIC_WEIGHT = 0.3;
/**
 * Recency prior: up to 0.002 for a memory that happened or was said now (its `occurredAt`, the write time unless the
 * write named one: a memory imported from a 2023 conversation is three years old), halving every 30 days. One rank
 * step near the top of a list is worth about 0.0003, so the prior reorders close calls and never lifts a memory
 * neither list found.
 */
export const RECENCY_WEIGHT = 0.002;
/**
 * Common-term credit: per unit of smoothed IDF (Lucene's, see `commonTerms`) of each query term that is in more than
 * half the memories and that a fused candidate mentions. BM25 as FTS5 computes it gives such a term no weight, yet
 * it still separates otherwise equal candidates: a question about Dana, in memories most of which mention her, is
 * better answered by one of those. Such a term's IDF is at most log 2 (about 0.7), so the credit is at most about
 * 0.003 per term: the gap between ranks 1 and 15 of the lexical list, enough to reorder candidates near each other,
 * not to lift one from the bottom. On the development conversations 0.004 gained most (0.002 and 0.003 less; 0.006,
 * 0.008 and 0.016 displaced more than they added), and crediting only terms above half the documents beat crediting
 * those above a fifth or a third.
 */
export const COMMON_TERM_WEIGHT = 0.004;
/** Days after which the recency prior is half its maximum. */
export const RECENCY_HALF_LIFE_DAYS = 30;

const DAY_MS = 86_400_000;

/** The recency prior of a memory that happened or was said at `occurredAt`, seen at `now` (0..RECENCY_WEIGHT). */
export function recencyPrior(occurredAt: string, now: Date): number {
  const ageDays = Math.max(0, (now.getTime() - Date.parse(occurredAt)) / DAY_MS);
  return Number.isFinite(ageDays) ? RECENCY_WEIGHT * 0.5 ** (ageDays / RECENCY_HALF_LIFE_DAYS) : 0;
}

/** The common-term credit of a memory (0 when the query has no common terms). */
export function commonTermCredit(candidate: RankedCandidate, terms: readonly CommonTerm[]): number {
  if (terms.length === 0) return 0;
  const { row } = candidate;
  const words = wordsOf(`${row.content} ${row.tags} ${row.category ?? ''} ${row.paths}`);
  return terms.reduce((sum, { term, idf }) => sum + (mentionsTerm(words, term) ? COMMON_TERM_WEIGHT * idf : 0), 0);
}

/** What the query adds to the fused score: its common terms (common-term credit) and its terms (label credit). */
export interface QueryCredits {
  common?: readonly CommonTerm[];
  terms?: readonly string[];
}

/**
 * Fuses a lexical ranking and the semantic rankings (one per query vector, sharing `SEMANTIC_WEIGHT` evenly) by
 * weighted reciprocal rank, plus the common-term and label credits and the recency prior. A memory found by both
 * sides is marked `hybrid`; the score is the fused score. Ties break by the older `seq`, so the order is deterministic.
 */
export function fuseRankings(
  lexical: readonly RankedCandidate[],
  semantic: readonly (readonly RankedCandidate[])[],
  now: Date,
  { common = [], terms = [] }: QueryCredits = {},
): RankedCandidate[] {
  const fused = new Map<number, RankedCandidate>();
  const add = (list: readonly RankedCandidate[], weight: number) => {
    list.forEach((candidate, index) => {
      const contribution = weight / (RRF_K + index + 1);
      const existing = fused.get(candidate.row.seq);
      fused.set(
        candidate.row.seq,
        existing === undefined
          ? { row: candidate.row, score: contribution, source: candidate.source }
          : {
              row: existing.row,
              score: existing.score + contribution,
              source: existing.source === candidate.source ? existing.source : 'hybrid',
            },
      );
    });
  };
  add(lexical, LEXICAL_WEIGHT);
  for (const list of semantic) add(list, SEMANTIC_WEIGHT / semantic.length);
  return [...fused.values()]
    .map((candidate) => ({
      ...candidate,
      score:
        candidate.score +
        commonTermCredit(candidate, common) +
        labelCredit(candidate, terms) +
        recencyPrior(candidate.row.occurred_at, now),
    }))
    .sort((left, right) => right.score - left.score || left.row.seq - right.row.seq);
}
