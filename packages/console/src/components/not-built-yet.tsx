import { EmptyState } from './empty-state.js';
import { PageHeader } from './page-header.js';

/** The body of a page that is in the nav but not written yet. */
export function NotBuiltYet({ title, description }: { title: string; description: string }) {
  return (
    <>
      <PageHeader title={title} description={description} />
      <EmptyState title="Not built yet">
        <p>This page of the console is still to come. The API already offers it: see the API reference at /docs.</p>
      </EmptyState>
    </>
  );
}
