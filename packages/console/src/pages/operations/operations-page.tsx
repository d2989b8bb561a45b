import { NotBuiltYet } from '../../components/not-built-yet.js';

/** Stub: replace this file with the Operations page (see the console README, "Adding a page"). */
export function OperationsPage() {
  return (
    <NotBuiltYet
      title="Operations"
      description="API keys, tenants and their databases, embedding usage and backfill, observability charts."
    />
  );
}
