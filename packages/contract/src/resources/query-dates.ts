import { DAY_MS, MONTHS, mondayOf, NUMBER_WORDS, shiftMonths, shiftYears, WEEKDAYS } from './calendar.js';

/**
 * Calendar dates written out in a text ("8 May, 2023", "May 8", "March 2023", "in March", "in 2022"), the absolute
 * counterpart of `resolveRelativeDates`. Internal: `query-time.ts` and `time-mentions.ts` read them.
 */

/** A stretch of time in epoch milliseconds, `from` inclusive and `to` exclusive (infinite when open). */
export interface TimeSpan {
  from: number;
  to: number;
  /** Named without a year ("in March", "on May 8"): the same stretch in any year; from/to are in `now`'s year. */
  everyYear: boolean;
}

/** A date expression found in a text, where it is and what it names. */
export interface DateAtom extends TimeSpan {
  start: number;
  end: number;
}

const MONTH = MONTHS.join('|');
const ORDINAL = '(?:st|nd|rd|th)?';
const YEAR = '((?:19|20)\\d{2})';
const DATE = new RegExp(
  [
    `\\b(\\d{1,2})${ORDINAL}\\s+(?:of\\s+)?(${MONTH})\\b(?:(?:,\\s*|\\s+)${YEAR}\\b)?`,
    `\\b(${MONTH})\\s+(\\d{1,2})${ORDINAL}\\b(?!:)(?:(?:,\\s*|\\s+)${YEAR}\\b)?`,
    `\\b(?:(last|this|next)\\s+)?(${MONTH})\\b(?:,?\\s+${YEAR}\\b)?`,
    `\\b${YEAR}\\b`,
  ].join('|'),
  'gi',
);
/**
 * Words after which a bare month or year is a date: "may" and "march" are also verbs, "August" an adjective, and a
 * number such as 2022 may be a count; "in May" or "since 2022" are dates.
 */
const DATE_LEAD =
  /\b(in|during|since|before|after|until|till|by|from|of|early|mid|late|between|and|to|through|around|on)\s+$/i;

function monthIndex(name: string): number {
  return MONTHS.indexOf(name.toLowerCase());
}

/** A day of a month, or null when the month has no such day. */
function daySpan(year: number, month: number, day: number, everyYear: boolean): TimeSpan | null {
  const from = Date.UTC(year, month, day);
  if (day < 1 || new Date(from).getUTCMonth() !== month) return null;
  return { from, to: from + DAY_MS, everyYear };
}

function monthSpan(year: number, month: number, everyYear: boolean): TimeSpan {
  return { from: Date.UTC(year, month, 1), to: Date.UTC(year, month + 1, 1), everyYear };
}

/** "last March": the latest March before the current month; "next March": the first after it; "this March": this year's. */
function relativeMonth(direction: string, month: number, now: number): TimeSpan {
  const date = new Date(now);
  const year = date.getUTCFullYear();
  const current = date.getUTCMonth();
  const shift =
    direction === 'last' ? (month < current ? 0 : -1) : direction === 'next' ? (month > current ? 0 : 1) : 0;
  return monthSpan(year + shift, month, false);
}

function spanOf(match: RegExpMatchArray, text: string, now: number): TimeSpan | null {
  const [, day1, month1, year1, month2, day2, year2, direction, month3, year3, year4] = match;
  const nowYear = new Date(now).getUTCFullYear();
  const lead = DATE_LEAD.test(text.slice(0, match.index));
  if (month1 !== undefined || month2 !== undefined) {
    const year = year1 ?? year2;
    const month = monthIndex(month1 ?? month2 ?? '');
    return daySpan(year === undefined ? nowYear : Number(year), month, Number(day1 ?? day2), year === undefined);
  }
  if (month3 !== undefined) {
    const month = monthIndex(month3);
    if (direction !== undefined) return relativeMonth(direction.toLowerCase(), month, now);
    if (year3 !== undefined) return monthSpan(Number(year3), month, false);
    // A bare month word is a date only when a preposition leads it ("in May"): "May I ask" and "March on" are not.
    return lead ? monthSpan(nowYear, month, true) : null;
  }
  if (year4 !== undefined && lead) {
    const from = Date.UTC(Number(year4), 0, 1);
    return { from, to: shiftYears(from, 1), everyYear: false };
  }
  return null;
}

/** The calendar dates written in a text, in order, resolved against `now` where they name no year. */
export function findDates(text: string, now: number): DateAtom[] {
  const atoms: DateAtom[] = [];
  for (const match of text.matchAll(DATE)) {
    const span = spanOf(match, text, now);
    if (span !== null) atoms.push({ ...span, start: match.index, end: match.index + match[0].length });
  }
  return atoms;
}

const ORDINALS = ['first', 'second', 'third', 'fourth'];

/** The nearest `weekday` (0 Sunday .. 6 Saturday) strictly before or after a span, as a day. */
function weekdayNext(span: TimeSpan, weekday: number, relation: string): TimeSpan {
  const { everyYear } = span;
  if (relation === 'after') {
    const after = span.to + ((weekday - new Date(span.to).getUTCDay() + 7) % 7) * DAY_MS;
    return { from: after, to: after + DAY_MS, everyYear };
  }
  const last = span.from - DAY_MS;
  const before = last - ((new Date(last).getUTCDay() - weekday + 7) % 7) * DAY_MS;
  return { from: before, to: before + DAY_MS, everyYear };
}

/**
 * "the week before X", "two weeks before X", "the Sunday before X", "the day after X", "the week of X": a unit next to
 * a date, or the one holding it (a weekend is read as its week). "two weeks before X" is the week that ends 7 days
 * after X's start minus 14. Of a longer span, an ordinal picks the unit: "the second week of November" is its days
 * 8-14, "the last week of May" its final seven; without one, "the week of May" is May.
 */
export function unitAround(unit: string, relation: string, span: TimeSpan, qualifier?: string): TimeSpan {
  const singular = unit.toLowerCase().replace(/s$/, '');
  const weekday = WEEKDAYS.indexOf(singular);
  if (weekday >= 0) return relation === 'of' ? span : weekdayNext(span, weekday, relation);
  const name = singular === 'weekend' ? 'week' : singular;
  const step = (time: number, count: number) =>
    name === 'month'
      ? shiftMonths(time, count)
      : name === 'year'
        ? shiftYears(time, count)
        : time + count * (name === 'day' ? 1 : 7) * DAY_MS;
  const { everyYear } = span;
  const ordinal =
    qualifier === undefined || qualifier === 'last' || ORDINALS.includes(qualifier) ? qualifier : undefined;
  const count = ordinal === undefined && qualifier !== undefined ? (NUMBER_WORDS[qualifier] ?? Number(qualifier)) : 1;
  if (relation === 'before') return { from: step(span.from, -count), to: step(span.from, 1 - count), everyYear };
  if (relation === 'after') return { from: step(span.to, count - 1), to: step(span.to, count), everyYear };
  const length = step(span.from, 1) - span.from;
  if (span.to - span.from > length && ordinal !== undefined) {
    if (ordinal === 'last') return { from: span.to - length, to: span.to, everyYear };
    const from = span.from + ORDINALS.indexOf(ordinal) * length;
    return { from, to: Math.min(span.to, from + length), everyYear };
  }
  if (name !== 'week' || span.to - span.from > length) return span;
  const monday = mondayOf(span.from);
  return { from: monday, to: monday + 7 * DAY_MS, everyYear };
}
