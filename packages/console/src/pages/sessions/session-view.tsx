import { useRequest } from '../../api/use-request.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { Loading } from '../../components/loading.js';
import { PageHeader } from '../../components/page-header.js';
import { Link } from '../../router/link.js';
import { consolePath } from '../../router/router.js';
import { ActiveSession } from './active-session.js';
import { EndedSession } from './ended-session.js';
import { loadSessionState, transcriptTitle } from './session-state.js';

/** One session: its events; active (add checkpoints, end it) or ended (snapshot, transcript, promote to a skill file). */
export function SessionView({ sessionId }: { sessionId: string }) {
  const state = useRequest((client, signal) => loadSessionState(client, sessionId, signal), [sessionId]);
  const data = state.data;
  const title = data?.session?.title ?? (data?.snapshot ? transcriptTitle(data.snapshot) : null);

  return (
    <>
      <PageHeader
        title={title === null ? 'Session' : `Session: ${title}`}
        description={
          <>
            Session <code>{sessionId}</code> in the scope in the header.
          </>
        }
        actions={
          <Link href={consolePath('sessions')} class="button">
            All sessions
          </Link>
        }
      />
      <section aria-label="Session" aria-busy={state.loading}>
        {state.error === undefined ? null : (
          <ErrorPanel
            error={state.error}
            title={
              state.error.code === 'SESSION_NOT_FOUND' ? 'No such session in this scope' : 'Could not read the session'
            }
            onRetry={state.reload}
          />
        )}
        {data === undefined ? (
          state.loading ? (
            <Loading label="Reading the session" />
          ) : null
        ) : data.kind === 'active' || data.snapshot === null ? (
          <ActiveSession sessionId={sessionId} state={data} onChanged={state.reload} />
        ) : (
          <EndedSession sessionId={sessionId} snapshot={data.snapshot} events={data.events} />
        )}
      </section>
    </>
  );
}
