import type { RankedCandidate } from './candidate-filter.js';

/** Reciprocal-rank fusion constant (Cormack et al. 2009): large enough that rank 1 vs 2 is not a cliff. */
export const RRF_K = 60;
/**
 * List weights. Lexical (BM25 with conversation context) leads: exact words and names are the strongest evidence in
 * memories. The vector list adds paraphrase matches at 0.3: on the development conversations with the offline
 * sentence encoder, 0.3 gained most (0.1 and 0.2 less; 0.5 and 1.0 displaced more lexical hits than they added).
 */
export const LEXICAL_WEIGHT = 1;
/** The vector list's weight (see `LEXICAL_WEIGHT`). */
export const SEMANTIC_WEIGHT = 0.3;
/**
 * Recency prior: up to 0.002 for a memory written now, halving every 30 days. One rank step near the top of a list
 * is worth about 0.0003, so the prior reorders close calls and never lifts a memory neither list found.
 */
export const RECENCY_WEIGHT = 0.002;
/** Days after which the recency prior is half its maximum. */
export const RECENCY_HALF_LIFE_DAYS = 30;

const DAY_MS = 86_400_000;

/** The recency prior of a memory at a time (0..RECENCY_WEIGHT). */
export function recencyPrior(updatedAt: string, now: Date): number {
  const ageDays = Math.max(0, (now.getTime() - Date.parse(updatedAt)) / DAY_MS);
  return Number.isFinite(ageDays) ? RECENCY_WEIGHT * 0.5 ** (ageDays / RECENCY_HALF_LIFE_DAYS) : 0;
}

/**
 * Fuses a lexical and a semantic ranking by weighted reciprocal rank plus the recency prior. A memory found by both
 * is marked `hybrid`; the score is the fused score. Ties break by the older `seq`, so the order is deterministic.
 */
export function fuseRankings(
  lexical: readonly RankedCandidate[],
  semantic: readonly RankedCandidate[],
  now: Date,
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
          : { row: existing.row, score: existing.score + contribution, source: 'hybrid' },
      );
    });
  };
  add(lexical, LEXICAL_WEIGHT);
  add(semantic, SEMANTIC_WEIGHT);
  return [...fused.values()]
    .map((candidate) => ({ ...candidate, score: candidate.score + recencyPrior(candidate.row.updated_at, now) }))
    .sort((left, right) => right.score - left.score || left.row.seq - right.row.seq);
}
