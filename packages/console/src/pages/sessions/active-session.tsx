import type { SessionEndStatus, SessionEvent } from '@memory-service/client';
import { useState } from 'preact/hooks';
import { useAction } from '../../api/use-action.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { StatGrid } from '../../components/stat-grid.js';
import { CheckpointForm } from './checkpoint-form.js';
import { CheckpointList } from './checkpoint-list.js';
import type { SessionState } from './session-state.js';

const END_LABELS: Record<SessionEndStatus, string> = { closed: 'End session', compacted: 'Compact session' };

function totalsOf(session: SessionState['session'], events: readonly SessionEvent[]) {
  if (session !== null) return session.totals;
  return {
    eventCount: events.length,
    turnCount: events.filter((event) => event.role === 'user').length,
    tokenCount: events.reduce((sum, event) => sum + event.tokenCount, 0),
  };
}

/**
 * An active session: its events so far (sessions/events) with its totals, add checkpoints, and end it (closed or
 * compacted), which writes its snapshot.
 */
export function ActiveSession({
  sessionId,
  state,
  onChanged,
}: {
  sessionId: string;
  state: SessionState;
  /** After a checkpoint or the end: the page reads the session again. */
  onChanged: () => void;
}) {
  const [ending, setEnding] = useState<SessionEndStatus | null>(null);
  const end = useAction((client, status: SessionEndStatus) => client.sessions.end({ sessionId, status }));
  const totals = totalsOf(state.session, state.events);
  const close = () => {
    setEnding(null);
    end.reset();
  };
  return (
    <div class="stack">
      <div class="panel stack">
        <p>
          <span class="status status--active">active</span> Its events are listed below as they come; its snapshot and
          transcript are written when it ends.
        </p>
        <StatGrid
          label="Session totals"
          stats={[
            { name: 'Events', value: totals.eventCount },
            { name: 'User turns', value: totals.turnCount },
            { name: 'Tokens', value: totals.tokenCount, detail: 'estimated' },
          ]}
        />
        <div class="actions">
          <button type="button" class="button button--danger" onClick={() => setEnding('closed')}>
            End session…
          </button>
          <button type="button" class="button" onClick={() => setEnding('compacted')}>
            Compact session…
          </button>
        </div>
      </div>
      <CheckpointList checkpoints={state.events} />
      <CheckpointForm sessionId={sessionId} onAdded={onChanged} />
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
          onChanged();
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
