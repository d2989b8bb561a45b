import * as z from 'zod';
import {
  COUNT,
  DAY_MS,
  dayStart,
  isoDay,
  mondayOf,
  NUMBER_WORDS,
  shiftMonths,
  shiftYears,
  WEEKDAYS,
} from './calendar.js';

/** How much of the calendar a resolved expression names: `date` is the first day of it. */
export const DatePrecisionSchema = z.enum(['day', 'week', 'month', 'year']);

/** A relative time expression of a memory's content, resolved against the memory's `occurredAt`. */
export const ResolvedDateSchema = z.object({
  /** The expression as the content writes it (`yesterday`, `next Friday`, `3 days ago`). */
  text: z.string(),
  /** The day it names (YYYY-MM-DD, UTC), or the first day of the week (Monday), month or year it names. */
  date: z.string(),
  precision: DatePrecisionSchema,
});
export type ResolvedDate = z.infer<typeof ResolvedDateSchema>;

const EXPRESSION = new RegExp(
  [
    // "last night" is yesterday evening: the day before the day it was said.
    '\\b(today|tonight|yesterday|tomorrow|last\\s+night)\\b',
    `\\b(${COUNT})\\s+(days?|weeks?|months?|years?)\\s+ago\\b`,
    `\\b(last|next|this)\\s+(week|month|year|${WEEKDAYS.join('|')})\\b`,
  ].join('|'),
  'gi',
);

function ago(day: number, count: number, unit: string): Omit<ResolvedDate, 'text'> {
  if (unit.startsWith('day')) return { date: isoDay(day - count * DAY_MS), precision: 'day' };
  if (unit.startsWith('week')) return { date: isoDay(mondayOf(day - count * 7 * DAY_MS)), precision: 'week' };
  if (unit.startsWith('month')) return { date: isoDay(shiftMonths(day, -count)), precision: 'month' };
  return { date: isoDay(shiftYears(day, -count)), precision: 'year' };
}

function relative(day: number, direction: string, unit: string): Omit<ResolvedDate, 'text'> {
  const step = direction === 'last' ? -1 : direction === 'next' ? 1 : 0;
  if (unit === 'week') return { date: isoDay(mondayOf(day) + step * 7 * DAY_MS), precision: 'week' };
  if (unit === 'month') return { date: isoDay(shiftMonths(day, step)), precision: 'month' };
  if (unit === 'year') return { date: isoDay(shiftYears(day, step)), precision: 'year' };
  const target = WEEKDAYS.indexOf(unit);
  const today = new Date(day).getUTCDay();
  // last: the nearest such day before; next: the nearest after; this: the one in the same Monday-first week.
  const offset =
    step < 0
      ? -(((today - target + 6) % 7) + 1)
      : step > 0
        ? ((target - today + 6) % 7) + 1
        : ((target + 6) % 7) - ((today + 6) % 7);
  return { date: isoDay(day + offset * DAY_MS), precision: 'day' };
}

/**
 * The relative time expressions of a text ("yesterday", "last night", "3 days ago", "last week", "next Friday", "this month"),
 * resolved against when the text was said (`occurredAt`, its UTC day), in the order they appear. English only and
 * deterministic: the same text and time always give the same dates. `last <weekday>` is the nearest such day before,
 * `next <weekday>` the nearest after, `this <weekday>` the one in the same Monday-first week; a week resolves to its
 * Monday, a month or year to its first day. An unparseable `occurredAt` resolves nothing.
 *
 * @example
 * resolveRelativeDates('Caroline went to a support group yesterday.', '2023-05-08T13:56:00Z');
 * // [{ text: 'yesterday', date: '2023-05-07', precision: 'day' }]
 */
export function resolveRelativeDates(text: string, occurredAt: string): ResolvedDate[] {
  const time = Date.parse(occurredAt);
  if (!Number.isFinite(time)) return [];
  const day = dayStart(time);
  const resolved: ResolvedDate[] = [];
  for (const match of text.matchAll(EXPRESSION)) {
    const [whole, single, count, unit, direction, relativeUnit] = match;
    if (single !== undefined) {
      const word = single.toLowerCase();
      const shift = word === 'yesterday' || word.startsWith('last') ? -1 : word === 'tomorrow' ? 1 : 0;
      resolved.push({ text: whole, date: isoDay(day + shift * DAY_MS), precision: 'day' });
    } else if (count !== undefined && unit !== undefined) {
      const amount = NUMBER_WORDS[count.toLowerCase()] ?? Number(count);
      resolved.push({ text: whole, ...ago(day, amount, unit.toLowerCase()) });
    } else if (direction !== undefined && relativeUnit !== undefined) {
      resolved.push({ text: whole, ...relative(day, direction.toLowerCase(), relativeUnit.toLowerCase()) });
    }
  }
  return resolved;
}
