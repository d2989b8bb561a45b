import { NotBuiltYet } from '../../components/not-built-yet.js';

/** Stub: replace this file with the Skill files page (see the console README, "Adding a page"). */
export function SkillFilesPage() {
  return <NotBuiltYet title="Skill files" description="View and edit skill files." />;
}
