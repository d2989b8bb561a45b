import * as z from 'zod';
import { spanEnd } from './calendar.js';
import type { ResolvedDate } from './relative-dates.js';

/** Which end of the timeline a query asks for: its first mention (`oldest`) or the current state (`newest`). */
export const TimeOrderSchema = z.enum(['oldest', 'newest']);
export type TimeOrder = z.infer<typeof TimeOrderSchema>;

/** A stretch of time a query names ("last week", "in March 2023", "before May 8"). */
export const TimeWindowSchema = z.object({
  /** The expression as the query writes it. */
  text: z.string(),
  /** Its start (ISO 8601, UTC, inclusive); null when open ("before May 8"). */
  from: z.string().nullable(),
  /** Its end (exclusive); null when open ("after May 8"). */
  to: z.string().nullable(),
  /** Named without a year ("in March", "on May 8"): the same stretch in any year; from/to give the request's year. */
  everyYear: z.boolean(),
});
export type TimeWindow = z.infer<typeof TimeWindowSchema>;

/** A window's bounds in epoch milliseconds (infinite when open). */
function bounds(window: TimeWindow): [number, number] {
  return [
    window.from === null ? Number.NEGATIVE_INFINITY : Date.parse(window.from),
    window.to === null ? Number.POSITIVE_INFINITY : Date.parse(window.to),
  ];
}

/** Whether [from, to) overlaps the window; a window of every year is tried in each year the stretch touches. */
function overlaps(window: TimeWindow, from: number, to: number): boolean {
  const [start, end] = bounds(window);
  if (!window.everyYear) return from < end && start < to;
  const first = new Date(start);
  const years = new Set([new Date(from).getUTCFullYear() - 1, new Date(from).getUTCFullYear()]);
  if (Number.isFinite(to)) years.add(new Date(to - 1).getUTCFullYear());
  return [...years].some((year) => {
    const shifted = Date.UTC(year, first.getUTCMonth(), first.getUTCDate());
    return from < shifted + (end - start) && shifted < to;
  });
}

/**
 * Whether a memory falls in a window a query names: it was said (or happened: `occurredAt`) in it, or its content
 * names a day, week, month or year that overlaps it (`resolvedDates`: "yesterday" said the morning after, "last
 * week" said on Monday). A memory is about the time it was said, and about the times it names.
 */
export function inTimeWindow(
  window: TimeWindow,
  occurredAt: string,
  resolvedDates: readonly ResolvedDate[] = [],
): boolean {
  const said = Date.parse(occurredAt);
  if (Number.isFinite(said) && overlaps(window, said, said + 1)) return true;
  return resolvedDates.some((resolved) => {
    const from = Date.parse(`${resolved.date}T00:00:00Z`);
    return Number.isFinite(from) && overlaps(window, from, spanEnd(from, resolved.precision));
  });
}

/** What the query's time expressions did to a retrieval, in its trace (an additive field). */
export const QueryTimeTraceSchema = z.object({
  /** The time expressions found, as written; they were left out of the words searched. */
  expressions: z.array(z.string()),
  windows: z.array(TimeWindowSchema),
  order: TimeOrderSchema.nullable(),
  asksWhen: z.boolean(),
  /** On-topic candidates inside the windows, ranked above the on-topic ones outside. */
  inWindow: z.number().int(),
  /** Every memory returned is inside the windows, and on-topic candidates outside them were left out. */
  narrowed: z.boolean(),
});
export type QueryTimeTrace = z.infer<typeof QueryTimeTraceSchema>;
