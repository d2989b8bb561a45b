import { PageHeader } from '../../components/page-header.js';
import { OpenSessionForm } from './open-session-form.js';
import { SessionList } from './session-list.js';
import { StartSessionForm } from './start-session-form.js';

/** The Sessions page without an id: the scope's sessions, and a session opened by id or started here. */
export function SessionIndex() {
  return (
    <>
      <PageHeader
        title="Sessions"
        description="Working sessions: their events, their snapshot and transcript once ended, and promotion to a skill file."
      />
      <div class="stack">
        <SessionList />
        <div class="session-index__forms">
          <StartSessionForm />
          <OpenSessionForm />
        </div>
      </div>
    </>
  );
}
