/** Bucket lengths a report's history may use, shortest first: round clock spans a reader recognises. */
const BUCKET_MINUTES = [5, 15, 30, 60, 120, 180, 360, 720, 1440] as const;
/** The most buckets one history holds: enough for a chart's line, few enough to stay small for any window. */
export const MAX_HISTORY_BUCKETS = 48;

/** A report window cut into equal buckets; the last one ends at `until`. */
export interface HistoryBuckets {
  bucketMinutes: number;
  bucketMs: number;
  count: number;
  /** The start of the first bucket (ms since the epoch): `until - count * bucketMs`. */
  start: number;
}

/**
 * The buckets of a window of `windowHours` ending at `until`: the shortest round length that needs at most
 * `MAX_HISTORY_BUCKETS` of them (a day in 30-minute buckets, a week in 6-hour ones).
 */
export function historyBuckets(until: Date, windowHours: number): HistoryBuckets {
  const windowMinutes = Math.max(1, windowHours * 60);
  const bucketMinutes =
    BUCKET_MINUTES.find((minutes) => windowMinutes / minutes <= MAX_HISTORY_BUCKETS) ??
    Math.ceil(windowMinutes / MAX_HISTORY_BUCKETS);
  const bucketMs = bucketMinutes * 60_000;
  const count = Math.ceil(windowMinutes / bucketMinutes);
  return { bucketMinutes, bucketMs, count, start: until.getTime() - count * bucketMs };
}

/**
 * The SQL of a row's bucket index from an ISO timestamp column (0 is the first bucket); its one argument is
 * `bucketArgs(buckets)`. The offset is rounded to whole milliseconds before an integer division (julianday's
 * floating point would put an event on a bucket's first millisecond into the bucket before). Rows before the first
 * bucket get negative indexes: filter them out with `column >= ?`.
 */
export function bucketIndexSql(column: string, buckets: HistoryBuckets): string {
  // bucketMs is a whole number this module computed, never input: written into the SQL as an integer literal.
  return `(CAST(ROUND((julianday(${column}) - julianday(?)) * 86400000.0) AS INTEGER) / ${Math.trunc(buckets.bucketMs)})`;
}

/** The argument of `bucketIndexSql`: the first bucket's start. */
export function bucketArgs(buckets: HistoryBuckets): [string] {
  return [new Date(buckets.start).toISOString()];
}

/** Every bucket's start as an ISO timestamp, with `pointAt(index)`'s figures (zeros where a bucket had none). */
export function historyPoints<Point>(
  buckets: HistoryBuckets,
  pointAt: (index: number) => Point,
): Array<{ at: string } & Point> {
  return Array.from({ length: buckets.count }, (_, index) => ({
    at: new Date(buckets.start + index * buckets.bucketMs).toISOString(),
    ...pointAt(index),
  }));
}
