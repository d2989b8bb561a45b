import type { OperationData, SessionEndStatus } from '@memory-service/client';
import { useState } from 'preact/hooks';
import { useAction } from '../../api/use-action.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { StatGrid } from '../../components/stat-grid.js';
import { CheckpointForm } from './checkpoint-form.js';
import { CheckpointList } from './checkpoint-list.js';

type Checkpoint = OperationData<'sessions.checkpoint'>;

const END_LABELS: Record<SessionEndStatus, string> = { closed: 'End session', compacted: 'Compact session' };

/**
 * An active session: add checkpoints, see the ones added here with the session's totals, and end it (closed or
 * compacted), which writes its snapshot.
 */
export function ActiveSession({ sessionId, onEnded }: { sessionId: string; onEnded: () => void }) {
  const [added, setAdded] = useState<Checkpoint[]>([]);
  const [ending, setEnding] = useState<SessionEndStatus | null>(null);
  const end = useAction((client, status: SessionEndStatus) => client.sessions.end({ sessionId, status }));
  const totals = added.at(-1)?.totals;
  const close = () => {
    setEnding(null);
    end.reset();
  };
  return (
    <div class="stack">
      <div class="panel stack">
        <p>
          <span class="status status--active">active</span> Its snapshot and transcript are written when it ends. The
          API returns no checkpoint of an active session, so only those added on this page are listed here.
        </p>
        {totals === undefined ? null : (
          <StatGrid
            label="Session totals"
            stats={[
              { name: 'Events', value: totals.eventCount },
              { name: 'User turns', value: totals.turnCount },
              { name: 'Tokens', value: totals.tokenCount, detail: 'estimated' },
            ]}
          />
        )}
        <div class="actions">
          <button type="button" class="button button--danger" onClick={() => setEnding('closed')}>
            End session…
          </button>
          <button type="button" class="button" onClick={() => setEnding('compacted')}>
            Compact session…
          </button>
        </div>
      </div>
      <CheckpointForm sessionId={sessionId} onAdded={(checkpoint) => setAdded((list) => [...list, checkpoint])} />
      <CheckpointList checkpoints={added.map((checkpoint) => checkpoint.event)} />
      <ConfirmDialog
        open={ending !== null}
        title={ending === null ? '' : `${END_LABELS[ending]}?`}
        confirmLabel={ending === null ? '' : END_LABELS[ending]}
        pending={end.pending}
        error={end.error}
        onClose={close}
        onConfirm={async () => {
          if (ending === null) return;
          if ((await end.run(ending)) === undefined) return;
          setEnding(null);
          onEnded();
        }}
      >
        <p>
          {ending === 'compacted'
            ? 'Compacting ends the session as compacted and writes its snapshot; an app then carries on in a new session with the summary.'
            : 'Ending closes the session and writes its snapshot with the transcript.'}{' '}
          No checkpoint can be added afterwards.
        </p>
      </ConfirmDialog>
    </div>
  );
}
