import { useState } from 'preact/hooks';
import { Dialog } from '../../components/dialog.js';
import { UNDO_WINDOW_MS } from '../../undo/undo-queue.js';
import { MemoryEditForm } from './memory-edit-form.js';
import { MemoryFields } from './memory-fields.js';
import type { ListedMemory } from './memory-query.js';

/** One memory: all its fields, then Edit (in place) or Forget (with an undo window). */
export function MemoryDialog({
  memory,
  onClose,
  onSaved,
  onForget,
}: {
  memory: ListedMemory | null;
  onClose: () => void;
  onSaved: () => void;
  onForget: (memory: ListedMemory) => void;
}) {
  const [editing, setEditing] = useState(false);
  const close = () => {
    setEditing(false);
    onClose();
  };
  return (
    <Dialog open={memory !== null} title={editing ? 'Edit memory' : 'Memory'} onClose={close} wide>
      {memory === null ? null : editing ? (
        <MemoryEditForm
          memory={memory}
          onCancel={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            onSaved();
          }}
        />
      ) : (
        <div class="stack">
          <MemoryFields memory={memory} />
          <div class="actions">
            <button type="button" class="button button--primary" onClick={() => setEditing(true)}>
              Edit
            </button>
            <button type="button" class="button button--danger" onClick={() => onForget(memory)}>
              Forget
            </button>
          </div>
          <p class="muted small">
            Forget is sent {UNDO_WINDOW_MS / 1000} seconds after you press it, so you can undo it until then: the API
            soft-deletes but has no restore.
          </p>
        </div>
      )}
    </Dialog>
  );
}
