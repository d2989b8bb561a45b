import { LIMITS } from '@memory-service/contract';
import { useState } from 'preact/hooks';
import { TextField } from '../../components/fields.js';
import { consolePath, navigate } from '../../router/router.js';

/** Opens a session by its id (from an app's log, a memory's metadata, a skill file's source). */
export function OpenSessionForm() {
  const [sessionId, setSessionId] = useState('');
  return (
    <form
      class="panel stack"
      aria-label="Open a session"
      onSubmit={(event) => {
        event.preventDefault();
        const id = sessionId.trim();
        if (id !== '') navigate(consolePath('sessions', id));
      }}
    >
      <h2>Open a session</h2>
      <TextField
        label="Session id"
        name="sessionId"
        value={sessionId}
        onValue={setSessionId}
        maxLength={LIMITS.sessionId.max}
        autocomplete="off"
        spellcheck={false}
        required
        hint="As sessions/start returned it; the session must be visible in the scope in the header."
      />
      <div class="actions">
        <button type="submit" class="button button--primary">
          Open session
        </button>
      </div>
    </form>
  );
}
