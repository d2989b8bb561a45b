import { useState } from 'preact/hooks';
import { cleanScope } from '../session/console-session.js';
import { useSession } from '../session/session-context.js';
import { Dialog } from './dialog.js';
import { type ScopeDraft, ScopeFields } from './scope-fields.js';

/** The scope picker of a signed-in session: a dialog that changes the scope of every later call. */
export function ScopeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} title="Change scope" onClose={onClose}>
      <ScopeForm onDone={onClose} />
    </Dialog>
  );
}

function ScopeForm({ onDone }: { onDone: () => void }) {
  const { session, setScope } = useSession();
  const scope = session?.scope ?? {};
  const [draft, setDraft] = useState<ScopeDraft>({
    tenantId: scope.tenantId ?? '',
    userId: scope.userId ?? '',
    projectId: scope.projectId ?? '',
  });
  return (
    <form
      class="stack"
      onSubmit={(event) => {
        event.preventDefault();
        setScope(cleanScope(draft));
        onDone();
      }}
    >
      <ScopeFields draft={draft} onDraft={setDraft} />
      <div class="actions">
        <button type="submit" class="button button--primary">
          Apply scope
        </button>
        <button type="button" class="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
