import type { Memory, ResolvedDate } from '@memory-service/contract';
import { formatDate, formatDateTime } from './format.js';

/** Written and happened within this of each other count as the same moment (occurredAt defaults to the write). */
const SAME_MOMENT_MS = 60_000;

/** A resolved expression's date as precise as it is: `2026-11-25`, `week of 2026-11-16`, `2026-11`, `2026`. */
export function resolvedDateText({ date, precision }: ResolvedDate): string {
  if (precision === 'week') return `week of ${date}`;
  if (precision === 'month') return date.slice(0, 7);
  if (precision === 'year') return date.slice(0, 4);
  return date;
}

/** When a memory's content happened and when it was written; `written` only when it differs from `happened`. */
export function memoryMoments(memory: Pick<Memory, 'occurredAt' | 'createdAt'>): {
  happened: string;
  written: string | null;
  /** Both fall on one day: show times, or the two would read the same. */
  sameDay: boolean;
} {
  const happened = memory.occurredAt ?? memory.createdAt;
  const apart = Math.abs(Date.parse(happened) - Date.parse(memory.createdAt));
  const written = Number.isNaN(apart) || apart < SAME_MOMENT_MS ? null : memory.createdAt;
  return { happened, written, sameDay: written !== null && formatDate(happened) === formatDate(written) };
}

/**
 * A memory's dates on one wrapping line: when what it says happened (`occurredAt`), when it was written if that
 * differs, and each relative expression of its content resolved ("yesterday → 2026-11-25").
 */
export function MemoryDates({
  memory,
  class: className = 'memory-dates',
}: {
  memory: Pick<Memory, 'occurredAt' | 'createdAt' | 'resolvedDates'>;
  class?: string;
}) {
  const { happened, written, sameDay } = memoryMoments(memory);
  const show = sameDay ? formatDateTime : formatDate;
  const resolved = memory.resolvedDates ?? [];
  return (
    <p class={className}>
      <span class="memory-dates__item">
        happened{' '}
        <time dateTime={happened} title={formatDateTime(happened)} data-testid="happened">
          {show(happened)}
        </time>
      </span>
      {written === null ? null : (
        <span class="memory-dates__item">
          written{' '}
          <time dateTime={written} title={formatDateTime(written)} data-testid="written">
            {show(written)}
          </time>
        </span>
      )}
      {resolved.map((entry, index) => (
        <span
          // The same expression may appear twice in one text.
          key={`${entry.text}|${index}`}
          class="memory-dates__resolved"
          title={`“${entry.text}” in the text, resolved against when it happened`}
          data-testid="resolved-date"
        >
          {entry.text} → <time dateTime={entry.date}>{resolvedDateText(entry)}</time>
        </span>
      ))}
    </p>
  );
}
