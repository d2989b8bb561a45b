import type { PageCredential } from '../pages.js';
import { useSession } from '../session/session-context.js';
import { EmptyState } from './empty-state.js';
import { PageHeader } from './page-header.js';

const NAMES: Record<PageCredential, string> = { apiKey: 'an API key', adminToken: 'the admin token' };

/** Shown instead of a page whose credential the session lacks. */
export function RequiresCredential({ title, credential }: { title: string; credential: PageCredential }) {
  const { signOut } = useSession();
  return (
    <>
      <PageHeader title={title} />
      <EmptyState title={`This page needs ${NAMES[credential]}`}>
        <p>You signed in without {NAMES[credential]}. Sign out, then sign in with it to use this page.</p>
        <button type="button" class="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </EmptyState>
    </>
  );
}
