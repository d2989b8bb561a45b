import { COUNT, WEEKDAYS } from './calendar.js';
import { findDates } from './query-dates.js';
import { resolveRelativeDates } from './relative-dates.js';

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
