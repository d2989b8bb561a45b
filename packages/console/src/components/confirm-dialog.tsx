import type { ComponentChildren } from 'preact';
import type { ConsoleError } from '../api/console-error.js';
import { Dialog } from './dialog.js';
import { ErrorPanel } from './error-panel.js';

/**
 * Asks before an action that cannot be undone (revoke a key, delete a skill file): what happens, a danger button
 * that says what it does, Cancel, and the error in the contract's words when the action failed.
 */
export function ConfirmDialog({
  open,
  title,
  confirmLabel,
  pending,
  error,
  onConfirm,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  /** What the danger button does: "Revoke key", "Delete skill file". */
  confirmLabel: string;
  pending: boolean;
  error: ConsoleError | undefined;
  onConfirm: () => void;
  onClose: () => void;
  children: ComponentChildren;
}) {
  return (
    <Dialog open={open} title={title} onClose={onClose}>
      <div class="stack">
        <div class="confirm-dialog__body">{children}</div>
        {error === undefined ? null : <ErrorPanel error={error} title={`Could not ${confirmLabel.toLowerCase()}`} />}
        <div class="actions">
          <button type="button" class="button button--danger" disabled={pending} onClick={onConfirm}>
            {pending ? 'Working…' : confirmLabel}
          </button>
          <button type="button" class="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </div>
    </Dialog>
  );
}
