import { DAY_MS, type DatePrecision, spanEnd } from './calendar.js';
import { joinBetween, withLead } from './query-bounds.js';
import { findDates, type TimeSpan } from './query-dates.js';
import { claimed, type Found } from './query-spans.js';
import { ASKS_WHEN, claimAll, NEWEST, OLDEST, PRESENT, RECENT, RECENT_DAYS } from './query-words.js';
import { resolveRelativeDates } from './relative-dates.js';
import type { TimeOrder, TimeWindow } from './time-window.js';

/** What the time expressions of a query ask for, resolved against when it was asked. */
export interface QueryTime {
  /** The time expressions found, as written, in order. */
  expressions: string[];
  /** The stretches of time the query names: a memory in any of them is in the query's time. */
  windows: TimeWindow[];
  /** The end of the timeline the query asks for, or null (none, or both named). */
  order: TimeOrder | null;
  /** The query asks when something happened ("when did ...", "how long ago ..."): its answer is a time. */
  asksWhen: boolean;
  /**
   * What the query is about: the query without its relative time expressions, ordering and present-tense words, and
   * without the words around its dates; the dates it writes out stay (the query itself when it has no time words).
   */
  topic: string;
}

/** The relative expressions ("last week", "3 days ago") where the query writes them, as spans. */
function relativeSpans(query: string, now: number): Found[] {
  const found: Found[] = [];
  let cursor = 0;
  for (const resolved of resolveRelativeDates(query, new Date(now).toISOString())) {
    const start = query.indexOf(resolved.text, cursor);
    if (start < 0) continue;
    cursor = start + resolved.text.length;
    const from = Date.parse(`${resolved.date}T00:00:00Z`);
    const to = spanEnd(from, resolved.precision as DatePrecision);
    found.push({ start, end: cursor, span: { from, to, everyYear: false } });
  }
  return found;
}

function iso(time: number): string | null {
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

/**
 * The time expressions of a query, resolved against when it is asked (`now`): the stretches of time it names, the
 * end of the timeline it asks for, whether it asks when, and what is left when they are taken out (its topic, so
 * "last" and "week" never search as words; a date written out stays in it, as a word a memory of that time writes). English and deterministic. Relative expressions read as in content
 * (`resolveRelativeDates`: "yesterday", "last week", "3 days ago", "last Friday", "last year"); dates as written
 * ("on May 8", "in March 2023", "in 2022"; a month or day without a year means that stretch of any year); "before /
 * after / since / until <date>" open a stretch, "the week before <date>" and "between <date> and <date>" bound one;
 * "recently" is the last 30 days. Ordering words: "first", "earliest", "originally" ask for the oldest; "latest",
 * "most recent", "last time" the newest. Words of the present tense ("now", "currently", "these days") are taken out
 * of the topic and ask for no order.
 *
 * @example
 * resolveQueryTime('what did we decide last week about deploys?', '2026-11-26T12:00:00Z');
 * // { expressions: ['last week'], windows: [{ text: 'last week', from: '2026-11-16T00:00:00.000Z',
 * //   to: '2026-11-23T00:00:00.000Z', everyYear: false }], order: null, asksWhen: false,
 * //   topic: 'what did we decide about deploys?' }
 */
export function resolveQueryTime(query: string, now: Date | string): QueryTime {
  const time = typeof now === 'string' ? Date.parse(now) : now.getTime();
  const empty: QueryTime = { expressions: [], windows: [], order: null, asksWhen: ASKS_WHEN.test(query), topic: query };
  if (!Number.isFinite(time)) return empty;
  const found: Found[] = relativeSpans(query, time);
  // The dates written out ("August", "May 8, 2023"): they stay in the topic (below).
  const written: Found[] = [];
  for (const atom of findDates(query, time))
    if (!claimed(found, atom.start, atom.end)) {
      found.push({ start: atom.start, end: atom.end, span: atom });
      written.push({ start: atom.start, end: atom.end });
    }
  const recent = { from: time - RECENT_DAYS * DAY_MS, to: Number.POSITIVE_INFINITY, everyYear: false };
  for (const match of query.matchAll(RECENT)) {
    const end = match.index + match[0].length;
    if (!claimed(found, match.index, end)) found.push({ start: match.index, end, span: recent });
  }
  const dated = joinBetween(
    query,
    found.sort((left, right) => left.start - right.start),
  ).map((entry) => (entry.span === undefined ? entry : withLead(query, entry as Found & { span: TimeSpan })));
  claimAll(query, OLDEST, 'oldest', dated);
  claimAll(query, NEWEST, 'newest', dated);
  claimAll(query, PRESENT, null, dated);
  if (dated.length === 0) return empty;
  dated.sort((left, right) => left.start - right.start);
  const orders = new Set(dated.flatMap((entry) => (entry.order === undefined ? [] : [entry.order])));
  let topic = '';
  let cursor = 0;
  for (const entry of dated) {
    // A date written out is also a word of what the question is about: a memory of the race "in August" writes
    // "August" too. Relative expressions ("last week") and the words around a date ("the week before") are not: a
    // memory that says "last week" means another week than the question, so they would match the wrong memories.
    const dates = written.filter((date) => date.start >= entry.start && date.end <= entry.end);
    topic += `${query.slice(cursor, entry.start)} ${dates.map((date) => query.slice(date.start, date.end)).join(' ')} `;
    cursor = entry.end;
  }
  topic = `${topic}${query.slice(cursor)}`
    .replace(/\s+/g, ' ')
    .replace(/\s+([?.!,;:])/g, '$1')
    .trim();
  return {
    expressions: dated.map((entry) => query.slice(entry.start, entry.end)),
    windows: dated.flatMap((entry) =>
      entry.span === undefined
        ? []
        : [
            {
              text: query.slice(entry.start, entry.end),
              from: iso(entry.span.from),
              to: iso(entry.span.to),
              everyYear: entry.span.everyYear,
            },
          ],
    ),
    order: orders.size === 1 ? ([...orders][0] ?? null) : null,
    asksWhen: empty.asksWhen,
    topic,
  };
}
