import {
  inTimeWindow,
  mentionsTime,
  type QueryTime,
  type QueryTimeTrace,
  resolveRelativeDates,
  writtenDates,
} from '@memory-service/contract';
import type { RankedCandidate } from './candidate-filter.js';

/**
 * A candidate is on the query's topic when its relevance (0..1, `withRelevance`: the share of the question's words it
 * holds, or its similarity) is at least half the best candidate's: it covers at least half as much of what is asked
 * as the best match does. Time moves on-topic memories only, so a memory of the right week that shares one common word
 * with the question never pushes the answer out. For a window, a candidate the ranking would serve anyway (within the
 * first `limit`) counts too: the ranking weighs what relevance does not, such as the conversation a reply belongs to.
 */
export const ON_TOPIC_SHARE = 0.5;
/**
 * For an ordering question ("what did I say first about X", "my latest X"), candidates about as relevant as the best
 * (at least 0.8 of its relevance: missing at most one word of several) are equally good answers that differ by when
 * they were said, so they are ordered by `occurredAt`. A looser bar would put a barely related old memory first.
 */
export const SAME_TOPIC_SHARE = 0.8;

/** Whether a query's time expressions change its ranking: it names a time, an order, or asks when. */
export function appliesTime(time: QueryTime): boolean {
  return time.windows.length > 0 || time.order !== null || time.asksWhen;
}

interface Marked {
  candidate: RankedCandidate;
  /** On topic (`ON_TOPIC_SHARE`), or served anyway: may be lifted by a window. */
  eligible: boolean;
  /** On topic by relevance: may be lifted by saying when. */
  relevant: boolean;
  /** 0: eligible and inside a window of the query (or the query names none); 1: otherwise. */
  window: number;
  /** 0: one of the equally good answers of an ordering question; 1: otherwise. */
  same: number;
  /** The sort key of `same` candidates: `occurredAt`, negated for newest first. */
  said: number;
}

const byWindowThenOrder = (left: Marked, right: Marked) =>
  left.window - right.window || left.same - right.same || left.said - right.said;

/**
 * Applies the query's time to candidates scored with their relevance, in rank order, and keeps `limit`:
 * - Window ("last week", "in March"): on-topic memories in it (`ON_TOPIC_SHARE`, or served anyway) rank above all
 *   others, in their order. When at least `limit` of them exist the answer is all in the window (narrowed); when
 *   fewer, the best memories of other times follow, so a time never empties an answer that has on-topic memories;
 *   when none, the ranking stands.
 * - Order ("first", "latest"): the equally good answers (`SAME_TOPIC_SHARE`) come oldest or newest first.
 * - Asks when ("when did ..."): among the memories served, on-topic ones that say when (`mentionsTime`) come first. It
 *   only reorders the answer, never brings in a memory from below the cut: that a memory names a time says nothing of
 *   its subject.
 * `topicless`: the query is a time alone ("yesterday?", "last week"), so every candidate is on its topic (context/get's
 * recency fallback then lists the window's memories first).
 */
export function preferByTime(
  candidates: readonly RankedCandidate[],
  time: QueryTime,
  { limit, topicless }: { limit: number; topicless: boolean },
): { candidates: RankedCandidate[]; trace: QueryTimeTrace } {
  const best = Math.max(0, ...candidates.map((candidate) => (candidate.source === 'recency' ? 0 : candidate.score)));
  const direction = time.order === 'newest' ? -1 : 1;
  const marked = candidates.map((candidate, rank): Marked => {
    const { row } = candidate;
    const matched = candidate.source !== 'recency' && candidate.score > 0;
    const relevant = topicless || (matched && candidate.score >= ON_TOPIC_SHARE * best);
    const eligible = relevant || (matched && rank < limit);
    // A memory is in a window when it was said in it, or names a time in it, relatively ("last week") or as a date
    // ("the race in August"): the date a memory writes is as much what it is about as the one it says relatively.
    // Read only for a candidate a window may lift (eligible): the rest stay where they are either way.
    const dates =
      time.windows.length === 0 || !eligible
        ? []
        : [...resolveRelativeDates(row.content, row.occurred_at), ...writtenDates(row.content, row.occurred_at)];
    const inside = time.windows.some((window) => inTimeWindow(window, row.occurred_at, dates));
    const same = time.order !== null && relevant && candidate.score >= SAME_TOPIC_SHARE * best;
    return {
      candidate,
      eligible,
      relevant,
      window: time.windows.length === 0 || (eligible && inside) ? 0 : 1,
      same: same ? 0 : 1,
      said: same ? direction * Date.parse(row.occurred_at) : 0,
    };
  });
  const ranked = [...marked].sort(byWindowThenOrder);
  const served = ranked.slice(0, limit);
  if (time.asksWhen) {
    // Sorting is stable: within each group the ranking's order holds.
    const dated = new Map(served.map((entry) => [entry, entry.relevant && mentionsTime(entry.candidate.row.content)]));
    served.sort(
      (left, right) =>
        byWindowThenOrder(left, right) ||
        (left.same === 0 ? 0 : Number(dated.get(right) ?? false) - Number(dated.get(left) ?? false)),
    );
  }
  const inWindow = time.windows.length === 0 ? 0 : marked.filter((entry) => entry.window === 0).length;
  const leftOut = ranked.slice(limit).some((entry) => entry.eligible && entry.window === 1);
  return {
    candidates: served.map((entry) => entry.candidate),
    trace: {
      expressions: time.expressions,
      windows: time.windows,
      order: time.order,
      asksWhen: time.asksWhen,
      inWindow,
      narrowed: time.windows.length > 0 && served.every((entry) => entry.window === 0) && leftOut,
    },
  };
}
