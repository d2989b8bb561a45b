import { useState } from 'preact/hooks';
import { createConsoleClient } from '../../api/console-client.js';
import { type ConsoleError, toConsoleError } from '../../api/console-error.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { TextField } from '../../components/fields.js';
import { type ScopeDraft, ScopeFields } from '../../components/scope-fields.js';
import { type ConsoleSession, cleanScope } from '../../session/console-session.js';
import { useSession } from '../../session/session-context.js';

/** Checks the credentials with one cheap call each, so a wrong key is refused here rather than on every page. */
async function verify(session: ConsoleSession): Promise<void> {
  const client = createConsoleClient(session);
  if (session.apiKey !== null) await client.memories.list({ limit: 1 });
  if (session.adminToken !== null) await client.management.keys.get();
}

/**
 * Sign in with an API key (the runtime pages) and/or the admin token (Operations), and pick the scope. Both are
 * kept in this tab's sessionStorage: never in the URL, never logged, gone when the tab closes or on Sign out.
 */
export function SignInPage() {
  const { signIn } = useSession();
  const [apiKey, setApiKey] = useState('');
  const [adminToken, setAdminToken] = useState('');
  const [scope, setScope] = useState<ScopeDraft>({ tenantId: '', userId: '', projectId: '' });
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ConsoleError | undefined>(undefined);

  const submit = async (event: Event) => {
    event.preventDefault();
    const session: ConsoleSession = {
      apiKey: apiKey.trim() === '' ? null : apiKey.trim(),
      adminToken: adminToken.trim() === '' ? null : adminToken.trim(),
      scope: cleanScope(scope),
    };
    if (session.apiKey === null && session.adminToken === null) {
      setError({
        code: 'CREDENTIAL_REQUIRED',
        message: 'Enter an API key, the admin token, or both.',
        status: null,
        requestId: null,
        field: null,
      });
      return;
    }
    setPending(true);
    setError(undefined);
    try {
      await verify(session);
      signIn(session);
    } catch (thrown) {
      setError(toConsoleError(thrown));
      setPending(false);
    }
  };

  return (
    <main class="sign-in" id="main">
      <form class="sign-in__card stack" method="post" onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Memory service console</h1>
        <p>
          Sign in with an API key to see and correct what the service remembers, or with the admin token for the
          Operations page.
        </p>
        <TextField
          label="API key"
          name="apiKey"
          type="password"
          value={apiKey}
          onValue={setApiKey}
          autocomplete="off"
          spellcheck={false}
          placeholder="mem_…"
          hint={
            <>
              Starts with <code>mem_</code>. <code>memory-service keys create</code> makes one.
            </>
          }
        />
        <TextField
          label="Admin token (optional)"
          name="adminToken"
          type="password"
          value={adminToken}
          onValue={setAdminToken}
          autocomplete="off"
          spellcheck={false}
          hint="MEMORY_ADMIN_TOKEN of the server; only the Operations page needs it."
        />
        <ScopeFields draft={scope} onDraft={setScope} />
        {error === undefined ? null : <ErrorPanel error={error} title="Could not sign in" />}
        <div class="actions">
          <button type="submit" class="button button--primary" disabled={pending}>
            {pending ? 'Checking…' : 'Sign in'}
          </button>
        </div>
        <p class="muted small">
          The credentials stay in this browser tab (session storage) until you sign out or close it. They are never put
          in an address or a log.
        </p>
      </form>
    </main>
  );
}
