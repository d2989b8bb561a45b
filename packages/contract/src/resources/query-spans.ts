import type { TimeSpan } from './query-dates.js';
import type { TimeOrder } from './time-window.js';

/** A claimed stretch of the query text. */
export interface Found {
  start: number;
  end: number;
  span?: TimeSpan;
  order?: TimeOrder;
}

/** Whether [start, end) overlaps a stretch already found. */
export function claimed(found: readonly Found[], start: number, end: number): boolean {
  return found.some((other) => start < other.end && other.start < end);
}
