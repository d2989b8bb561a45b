import { COUNT, DAY_MS, isoDay, WEEKDAYS } from './calendar.js';
import { findDates } from './query-dates.js';
import { type ResolvedDate, resolveRelativeDates } from './relative-dates.js';

/** Time words beside the dates: durations, weekdays, parts of a day or season, clock times. */
const MENTION = new RegExp(
  [
    `\\b(?:${COUNT}|a\\s+few|a\\s+couple\\s+of|several|many)\\s+(?:minutes?|hours?|days?|nights?|weeks?|weekends?|months?|years?|decades?)\\b`,
    '\\b(?:ago|weekends?|the\\s+other\\s+day|recently|lately|earlier\\s+today)\\b',
    '\\b(?:this|last|next)\\s+(?:morning|afternoon|evening|weekend|summer|winter|spring|fall|autumn|season)\\b',
    `\\b(?:${WEEKDAYS.join('|')})s?\\b`,
    '\\b\\d{1,2}(?::\\d{2})?\\s*(?:am|pm)\\b',
  ].join('|'),
  'i',
);
const EPOCH = '1970-01-01T00:00:00Z';

/**
 * Whether a text says when something happened or for how long: a relative expression (`resolveRelativeDates`), a
 * written date ("May 8", "in 2022"), a duration ("for 3 years"), a weekday, a part of a day or season, a clock time.
 * English and deterministic. A question asking when is answered by a memory that says when; every memory has the
 * date it was said, but only such a one places what it tells in time.
 *
 * @example
 * mentionsTime('I went to the support group yesterday.'); // true
 * mentionsTime('The support group was great.'); // false
 */
export function mentionsTime(text: string): boolean {
  return MENTION.test(text) || resolveRelativeDates(text, EPOCH).length > 0 || findDates(text, 0).length > 0;
}

/**
 * The calendar dates a text writes out ("on May 8, 2023", "in August", "in 2022"), as days, months or years in the
 * form of `resolveRelativeDates`; a date without a year is taken in the year the text was said (`occurredAt`). A
 * memory is about the dates it names as much as about those it says relatively: "the half marathon in August" is in a
 * question's "in August" whenever it was said. English and deterministic; an unreadable `occurredAt` gives none.
 *
 * @example
 * writtenDates('I signed up for the half marathon in August.', '2026-03-02T10:00:00Z');
 * // [{ text: 'August', date: '2026-08-01', precision: 'month' }]
 */
export function writtenDates(text: string, occurredAt: string): ResolvedDate[] {
  const said = Date.parse(occurredAt);
  if (!Number.isFinite(said)) return [];
  return findDates(text, said).map((atom) => ({
    text: text.slice(atom.start, atom.end),
    date: isoDay(atom.from),
    precision: atom.to - atom.from <= DAY_MS ? 'day' : atom.to - atom.from <= 31 * DAY_MS ? 'month' : 'year',
  }));
}
