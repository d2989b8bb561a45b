import { NotBuiltYet } from '../../components/not-built-yet.js';

/** Stub: replace this file with the Context preview page (see the console README, "Adding a page"). */
export function ContextPreviewPage() {
  return (
    <NotBuiltYet
      title="Context preview"
      description="Type a query and see the context bundle exactly as the AI SDK middleware would inject it, with the retrieval trace."
    />
  );
}
