import { PageHeader } from '../../components/page-header.js';
import { OpenSessionForm } from './open-session-form.js';
import { SeenSessionList } from './seen-session-list.js';
import { SessionsNamed } from './sessions-named.js';
import { StartSessionForm } from './start-session-form.js';

/** The Sessions page without an id: ways to reach a session, since the API cannot list them. */
export function SessionIndex() {
  return (
    <>
      <PageHeader
        title="Sessions"
        description="Working sessions: their checkpoints while active, their snapshot and transcript once ended, and promotion to a skill file."
      />
      <div class="stack">
        <p class="notice">
          The API has no route that lists sessions (only start, checkpoint, end and snapshot by id). Open one by its id,
          start one here, or pick one that this tab has seen or that memories and skill files in this scope name.
        </p>
        <div class="session-index__forms">
          <OpenSessionForm />
          <StartSessionForm />
        </div>
        <SeenSessionList />
        <SessionsNamed />
      </div>
    </>
  );
}
