import { dismissUndo, type UndoableEntry, undoAction, useUndoList } from '../undo/undo-list.js';

function Toast({ entry }: { entry: UndoableEntry }) {
  return (
    <li class={`toast toast--${entry.status}`}>
      <p class="toast__text">
        <span class="toast__label">{entry.label}</span>
        {entry.status === 'undoing' ? ' · undoing…' : null}
        {entry.status === 'undone' ? ' · undone' : null}
        {entry.status === 'failed' && entry.error !== undefined ? (
          <>
            {' · undo failed: '}
            <code>{entry.error.code}</code> {entry.error.message}
          </>
        ) : null}
      </p>
      {entry.status === 'done' ? (
        <button type="button" class="button button--small" onClick={() => void undoAction(entry.key)}>
          Undo
        </button>
      ) : null}
      {entry.status === 'undoing' ? null : (
        <button type="button" class="button button--small button--quiet" onClick={() => dismissUndo(entry.key)}>
          Dismiss
        </button>
      )}
    </li>
  );
}

/** Done actions as toasts at the bottom of the screen: Undo for `UNDO_OFFER_MS`, then the outcome of the undo. */
export function UndoToasts() {
  const entries = useUndoList();
  return (
    <section class="toasts" aria-label="Recent changes" aria-live="polite">
      {entries.length === 0 ? null : (
        <ul class="toasts__list">
          {entries.map((entry) => (
            <Toast key={entry.key} entry={entry} />
          ))}
        </ul>
      )}
    </section>
  );
}
