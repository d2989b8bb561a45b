import { mentionsTime } from '@memory-service/contract';
import type { RankedCandidate } from './candidate-filter.js';
import { LABEL_WEIGHT } from './label-credit.js';

/**
 * Time-mention credit: added once, for a question that asks when ("when did ...", "how long ..."), to a fused candidate
 * that says when (`mentionsTime`: a relative or written date, a duration, a weekday, a season, a clock time). A
 * question's answer is in the memory that places the event in time; of two memories about the same thing, the one
 * that says "yesterday" or "for three years" answers "when" and the other does not, in any store. Every memory also
 * has the date it was said, but only such a memory says that what it tells happened then. The weight is the label
 * credit's, the gap between ranks 1 and 15 of the lexical list: it reorders candidates near each other, so the memory
 * that says when is served above its neighbours, and never lifts one from the bottom. It is applied before the cut,
 * where `preferByTime`'s reordering of the served answer cannot reach a candidate ranked just below it.
 * Only candidates the credit can bring to the cut are read (`withTimeMentionCredit`): reading every fused candidate's
 * text for a time costs about 10 ms for 600 of them, the few near the cut a fraction of a millisecond.
 */
export const TIME_MENTION_WEIGHT = LABEL_WEIGHT;

/** The time-mention credit of a candidate: `TIME_MENTION_WEIGHT` when the query asks when and it says when, else 0. */
export function timeMentionCredit(candidate: RankedCandidate, asksWhen: boolean): number {
  return asksWhen && mentionsTime(candidate.row.content) ? TIME_MENTION_WEIGHT : 0;
}

/**
 * A fused ranking (best first) with the time-mention credit added where it can change which `served` candidates come
 * first: to every candidate whose score is within `TIME_MENTION_WEIGHT` of the `served`-th one's (the credit cannot
 * bring one further below to the cut). Returns the ranking re-sorted; unchanged when the query does not ask when.
 */
export function withTimeMentionCredit(
  ranked: readonly RankedCandidate[],
  { asksWhen, served }: { asksWhen: boolean; served: number },
): RankedCandidate[] {
  if (!asksWhen || ranked.length === 0) return [...ranked];
  const cut = ranked[Math.min(served, ranked.length) - 1]?.score ?? 0;
  return ranked
    .map((candidate) =>
      candidate.score + TIME_MENTION_WEIGHT < cut
        ? candidate
        : { ...candidate, score: candidate.score + timeMentionCredit(candidate, asksWhen) },
    )
    .sort((left, right) => right.score - left.score || left.row.seq - right.row.seq);
}
