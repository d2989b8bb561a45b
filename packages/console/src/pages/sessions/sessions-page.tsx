import { NotBuiltYet } from '../../components/not-built-yet.js';

/** Stub: replace this file with the Sessions page (see the console README, "Adding a page"). */
export function SessionsPage() {
  return (
    <NotBuiltYet
      title="Sessions"
      description="Open sessions, their checkpoints and snapshots; promote a session to a skill file."
    />
  );
}
