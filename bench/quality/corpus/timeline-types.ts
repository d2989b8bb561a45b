import type { Domain } from './types.js';

export type Weekday = 'Monday' | 'Tuesday' | 'Wednesday' | 'Thursday' | 'Friday' | 'Saturday' | 'Sunday';
export type MonthName =
  | 'January'
  | 'February'
  | 'March'
  | 'April'
  | 'May'
  | 'June'
  | 'July'
  | 'August'
  | 'September'
  | 'October'
  | 'November'
  | 'December';

/**
 * When a memory happened, relative to the moment the bench runs (`../clock.ts` resolves it):
 * - `'today'`: earlier today (UTC);
 * - `daysAgo` / `weeksAgo`: that long before now;
 * - `monthsAgo` + `day`: that day of the calendar month `monthsAgo` months back;
 * - `month` + `day`: that date in the latest such month before the current one ("in March");
 * - `yearsAgo` + `month` + `day`: that date in the calendar year `yearsAgo` back;
 * - `lastWeek`: that weekday of the previous Monday-to-Sunday week.
 */
export type When =
  | 'today'
  | { daysAgo: number }
  | { weeksAgo: number }
  | { monthsAgo: number; day: number }
  | { month: MonthName; day: number }
  | { yearsAgo: number; month: MonthName; day: number }
  | { lastWeek: Weekday };

/**
 * The time a probe's query names, which only its target may fall in: a calendar window (UTC days; weeks run Monday
 * to Sunday), a range of days before now, or `first` / `latest` (the target is the earliest / the newest memory of
 * the timeline).
 */
export type TimeWindow =
  | 'today'
  | 'yesterday'
  | 'last-week'
  | 'last-weekend'
  | 'last-month'
  | 'last-year'
  | 'first'
  | 'latest'
  | { month: MonthName }
  | { daysAgo: readonly [number, number] };

/** One memory of a timeline: a key probes name it by, when it happened, what was said. */
export type TimelineRow = readonly [key: string, at: When, content: string];
/** One scored question: the query, the key of the memory it asks for, the time window that singles it out. */
export type ProbeRow = readonly [query: string, target: string, window: TimeWindow];

/** Memories on one topic at different times, and questions that name a time. */
export interface Timeline {
  id: string;
  domain: Domain;
  memories: readonly TimelineRow[];
  probes: readonly ProbeRow[];
}
