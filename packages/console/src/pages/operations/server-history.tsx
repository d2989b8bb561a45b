import type { TimePoint } from './charts/line-chart.js';

/** A report's `history` (an additive field): equal buckets over the window, each with its figures. */
export interface ReportHistory<Point> {
  bucketMinutes: number;
  points: ReadonlyArray<{ at: string } & Point>;
}

/** One line of a history chart: each bucket's figure, drawn at the bucket's middle. */
export function historySeries<Point>(
  history: ReportHistory<Point>,
  pick: (point: Point) => number | null,
): TimePoint[] {
  const half = (history.bucketMinutes * 60_000) / 2;
  return history.points.map((point) => ({ at: Date.parse(point.at) + half, value: pick(point) }));
}

/** "5 minutes", "6 hours", "day": how long one bucket of a history lasts, in words. */
export function bucketWords(bucketMinutes: number): string {
  if (bucketMinutes % 1440 === 0) return bucketMinutes === 1440 ? 'day' : `${bucketMinutes / 1440} days`;
  if (bucketMinutes % 60 === 0) return bucketMinutes === 60 ? 'hour' : `${bucketMinutes / 60} hours`;
  return `${bucketMinutes} minutes`;
}

/** The caption of a chart drawn from the server's history: what each point is, and that it was stored. */
export function HistoryCaption({ bucketMinutes, what }: { bucketMinutes: number; what: string }) {
  return (
    <>
      {what} per {bucketWords(bucketMinutes)}, from what the server stored over the window: the chart is whole the
      moment it opens.
    </>
  );
}
