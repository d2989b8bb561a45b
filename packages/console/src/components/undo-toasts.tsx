import { useEffect, useState } from 'preact/hooks';
import { dismissUndoable, type UndoableEntry, undoUndoable, useUndoQueue } from '../undo/undo-queue.js';

const DONE_VISIBLE_MS = 6_000;

function secondsLeft(entry: UndoableEntry, now: number): number {
  return Math.max(0, Math.ceil((entry.dueAt - now) / 1000));
}

function Toast({ entry, now }: { entry: UndoableEntry; now: number }) {
  useEffect(() => {
    if (entry.status !== 'done') return;
    const timer = setTimeout(() => dismissUndoable(entry.key), DONE_VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [entry.status, entry.key]);
  return (
    <li class={`toast toast--${entry.status}`}>
      <p class="toast__text">
        <span class="toast__label">{entry.label}</span>
        {entry.status === 'waiting' ? ` · sent in ${secondsLeft(entry, now)} s` : null}
        {entry.status === 'sending' ? ' · sending…' : null}
        {entry.status === 'done' ? ' · done' : null}
        {entry.status === 'failed' && entry.error !== undefined ? (
          <>
            {' · failed: '}
            <code>{entry.error.code}</code> {entry.error.message}
          </>
        ) : null}
      </p>
      {entry.status === 'waiting' ? (
        <button type="button" class="button button--small" onClick={() => undoUndoable(entry.key)}>
          Undo
        </button>
      ) : null}
      {entry.status === 'done' || entry.status === 'failed' ? (
        <button type="button" class="button button--small button--quiet" onClick={() => dismissUndoable(entry.key)}>
          Dismiss
        </button>
      ) : null}
    </li>
  );
}

/** The undo queue as toasts at the bottom of the screen: a countdown and Undo while waiting, then the outcome. */
export function UndoToasts() {
  const entries = useUndoQueue();
  // Re-render a few times a second while a countdown runs; the time itself is read at render.
  const [, setTick] = useState(0);
  const waiting = entries.some((entry) => entry.status === 'waiting');
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => setTick((tick) => tick + 1), 250);
    return () => clearInterval(timer);
  }, [waiting]);
  const now = Date.now();
  return (
    <section class="toasts" aria-label="Pending changes" aria-live="polite">
      {entries.length === 0 ? null : (
        <ul class="toasts__list">
          {entries.map((entry) => (
            <Toast key={entry.key} entry={entry} now={now} />
          ))}
        </ul>
      )}
    </section>
  );
}
