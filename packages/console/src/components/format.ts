const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** An ISO timestamp in the reader's locale and time zone (`21 Nov 2026, 14:05`). */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

/** How long ago an ISO timestamp was (`3 hours ago`, `just now`). */
export function formatAgo(iso: string, now: number = Date.now()): string {
  const seconds = (new Date(iso).getTime() - now) / 1000;
  if (Number.isNaN(seconds)) return iso;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return 'just now';
}

/** Splits "a, b ,c" into ['a', 'b', 'c'] (empty items dropped, duplicates kept once). */
export function parseList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== ''),
    ),
  ];
}

const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** An ISO timestamp's date in the reader's locale (`21 Nov 2026`), for tables; the time goes in a tooltip. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateOnly.format(date);
}

/**
 * A count with its noun in the right number, in the reader's locale: `1 memory`, `3 memories`, `1,204 edges`.
 * `plural` defaults to the noun with an `s`.
 */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString()} ${count === 1 ? singular : plural}`;
}
