import type { MonthName, ProbeRow, TimelineRow, TimeWindow, Weekday, When } from './corpus/timeline-types.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MONTHS: readonly MonthName[] = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS: readonly Weekday[] = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

function startOfUtcDay(time: number): number {
  const date = new Date(time);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

/** Midnight UTC of the Monday that starts the week of `time`. */
function startOfUtcWeek(time: number): number {
  const day = startOfUtcDay(time);
  return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY;
}

/** Noon UTC of a calendar date (month may run out of 0..11: Date.UTC carries it into the year). */
function noon(year: number, month: number, day: number): number {
  return Date.UTC(year, month, day, 12);
}

/** The moment a `When` names, for a bench started at `now`. Never later than `now`. */
export function resolveWhen(when: When, now: Date): Date {
  const time = now.getTime();
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  if (when === 'today') return new Date(time - Math.min(HOUR, (time - startOfUtcDay(time)) / 2));
  if ('daysAgo' in when) return new Date(time - when.daysAgo * DAY);
  if ('weeksAgo' in when) return new Date(time - when.weeksAgo * 7 * DAY);
  if ('monthsAgo' in when) return new Date(noon(year, month - when.monthsAgo, Math.min(when.day, 28)));
  if ('lastWeek' in when)
    return new Date(startOfUtcWeek(time) - 7 * DAY + WEEKDAYS.indexOf(when.lastWeek) * DAY + 12 * HOUR);
  const index = MONTHS.indexOf(when.month);
  if ('yearsAgo' in when) return new Date(noon(year - when.yearsAgo, index, when.day));
  return new Date(noon(index < month ? year : year - 1, index, when.day));
}

/** Whether `date` falls in a calendar or day-range window as seen at `now` (`first`/`latest` are not windows). */
export function inWindow(window: TimeWindow, date: Date, now: Date): boolean {
  const time = date.getTime();
  const today = startOfUtcDay(now.getTime());
  const week = startOfUtcWeek(now.getTime());
  const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  switch (window) {
    case 'today':
      return time >= today && time < today + DAY;
    case 'yesterday':
      return time >= today - DAY && time < today;
    case 'last-week':
      return time >= week - 7 * DAY && time < week;
    case 'last-weekend':
      return time >= week - 2 * DAY && time < week;
    case 'last-month':
      return date.getUTCFullYear() === lastMonth.getUTCFullYear() && date.getUTCMonth() === lastMonth.getUTCMonth();
    case 'last-year':
      return date.getUTCFullYear() === now.getUTCFullYear() - 1;
    case 'first':
    case 'latest':
      return false;
  }
  if ('month' in window) return date.getUTCMonth() === MONTHS.indexOf(window.month);
  const days = (now.getTime() - time) / DAY;
  return days >= window.daysAgo[0] && days <= window.daysAgo[1];
}

/**
 * Why a probe cannot be scored on this run date (its target is not alone in its window, or not in it at all), or
 * null when it can. Calendar windows move with the date the bench runs; the rare dates that blur them skip the probe.
 */
export function probeProblem(probe: ProbeRow, memories: readonly TimelineRow[], now: Date): string | null {
  const [, target, window] = probe;
  const dates = new Map(memories.map(([key, when]) => [key, resolveWhen(when, now).getTime()]));
  const targetTime = dates.get(target);
  if (targetTime === undefined) return `unknown target ${target}`;
  const others = [...dates].filter(([key]) => key !== target).map(([, time]) => time);
  if (window === 'first') return others.every((time) => time > targetTime) ? null : 'target is not the earliest';
  if (window === 'latest') return others.every((time) => time < targetTime) ? null : 'target is not the newest';
  if (!inWindow(window, new Date(targetTime), now)) return 'target outside its window';
  return others.some((time) => inWindow(window, new Date(time), now)) ? 'another memory in the window' : null;
}
