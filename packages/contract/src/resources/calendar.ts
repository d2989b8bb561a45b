/**
 * Calendar arithmetic in UTC shared by the time expressions of content (`relative-dates.ts`) and of queries
 * (`query-time.ts`), so both read "last week" or "3 days ago" alike. Internal: not exported by the package.
 */

export const DAY_MS = 86_400_000;
export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
export const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
export const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};
/** A count as content writes it: digits or a number word ("3", "three", "a"). */
export const COUNT = `\\d{1,3}|${Object.keys(NUMBER_WORDS).join('|')}`;

/** The calendar unit a resolved expression names. */
export type DatePrecision = 'day' | 'week' | 'month' | 'year';

export function isoDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** Midnight UTC of the day of `time`. */
export function dayStart(time: number): number {
  return Math.floor(time / DAY_MS) * DAY_MS;
}

/** Monday of the ISO week holding `day` (midnight UTC). */
export function mondayOf(day: number): number {
  return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;
}

/** The first day of the month `months` after the month of `day`. */
export function shiftMonths(day: number, months: number): number {
  const date = new Date(day);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1);
}

/** The first day of the year `years` after the year of `day`. */
export function shiftYears(day: number, years: number): number {
  return Date.UTC(new Date(day).getUTCFullYear() + years, 0, 1);
}

/** The end (exclusive) of the day, week, month or year that starts at `start`. */
export function spanEnd(start: number, precision: DatePrecision): number {
  if (precision === 'day') return start + DAY_MS;
  if (precision === 'week') return start + 7 * DAY_MS;
  if (precision === 'month') return shiftMonths(start, 1);
  return shiftYears(start, 1);
}
