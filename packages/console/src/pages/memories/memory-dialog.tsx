import { useState } from 'preact/hooks';
import type { ConsoleError } from '../../api/console-error.js';
import { Dialog } from '../../components/dialog.js';
import { ErrorPanel } from '../../components/error-panel.js';
import type { RelatedMemories } from './memory-conflicts.js';
import { MemoryEditForm } from './memory-edit-form.js';
import { MemoryFields } from './memory-fields.js';
import { MemoryHistory } from './memory-history.js';
import type { ListedMemory } from './memory-query.js';

/** One memory: all its fields, then Edit (in place) or Forget (at once, with Undo in a toast), then its history. */
export function MemoryDialog({
  memory,
  related,
  onClose,
  onSaved,
  onForget,
  forgetting,
  forgetError,
}: {
  memory: ListedMemory | null;
  /** The conflicts among the listed memories and their text, to show what this one conflicts with. */
  related?: RelatedMemories;
  onClose: () => void;
  onSaved: () => void;
  onForget: (memory: ListedMemory) => void;
  forgetting: boolean;
  forgetError: ConsoleError | undefined;
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
          <MemoryFields memory={memory} related={related} />
          <div class="actions">
            <button type="button" class="button button--primary" onClick={() => setEditing(true)}>
              Edit
            </button>
            <button type="button" class="button button--danger" disabled={forgetting} onClick={() => onForget(memory)}>
              {forgetting ? 'Forgetting…' : 'Forget'}
            </button>
          </div>
          {forgetError === undefined ? null : <ErrorPanel error={forgetError} title="Could not forget the memory" />}
          <p class="muted small">
            Forget soft-deletes the memory at once (it leaves lists and searches) with its earlier versions; Undo in the
            toast restores it (memories/restore) until memories/vacuum purges it.
          </p>
          <MemoryHistory key={`${memory.id}|${memory.updatedAt}`} memoryId={memory.id} />
        </div>
      )}
    </Dialog>
  );
}
