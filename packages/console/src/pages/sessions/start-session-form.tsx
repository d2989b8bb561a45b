import { LIMITS } from '@memory-service/contract';
import { useState } from 'preact/hooks';
import { useAction } from '../../api/use-action.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { TextField } from '../../components/fields.js';
import { consolePath, navigate } from '../../router/router.js';

/** Starts a session in the current scope (sessions/start), and opens it. */
export function StartSessionForm() {
  const [title, setTitle] = useState('');
  const start = useAction((client, input: { title?: string }) =>
    client.sessions.start({ ...input, client: 'console' }),
  );
  return (
    <form
      class="panel stack"
      aria-label="Start a session"
      onSubmit={async (event) => {
        event.preventDefault();
        const trimmed = title.trim();
        const result = await start.run(trimmed === '' ? {} : { title: trimmed });
        if (result === undefined) return;
        navigate(consolePath('sessions', result.sessionId));
      }}
    >
      <h2>Start a session</h2>
      <TextField
        label="Title (optional)"
        name="title"
        value={title}
        onValue={(value) => {
          setTitle(value);
          start.reset();
        }}
        maxLength={LIMITS.sessionTitle.max}
        hint="Names the snapshot and a skill file promoted from it. The client is recorded as “console”."
      />
      {start.error === undefined ? null : <ErrorPanel error={start.error} title="Could not start a session" />}
      <div class="actions">
        <button type="submit" class="button" disabled={start.pending}>
          {start.pending ? 'Starting…' : 'Start session'}
        </button>
      </div>
    </form>
  );
}
