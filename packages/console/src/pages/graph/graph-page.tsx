import { NotBuiltYet } from '../../components/not-built-yet.js';

/** Stub: replace this file with the Graph page (see the console README, "Adding a page"). */
export function GraphPage() {
  return (
    <NotBuiltYet
      title="Graph"
      description="The neighbourhood of a memory or an entity as a picture, with the rollout mode and the quality gate."
    />
  );
}
