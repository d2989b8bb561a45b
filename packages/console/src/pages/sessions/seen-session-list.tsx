import { EmptyState } from '../../components/empty-state.js';
import { formatAgo, formatDateTime } from '../../components/format.js';
import { Link } from '../../router/link.js';
import { consolePath } from '../../router/router.js';
import { useSession } from '../../session/session-context.js';
import { seenSessions } from './seen-sessions.js';

/** The sessions this tab started or opened in the current scope, most recent first. */
export function SeenSessionList() {
  const { session } = useSession();
  const seen = seenSessions(session?.scope ?? {});
  return (
    <section class="stack" aria-labelledby="seen-sessions-title">
      <h2 id="seen-sessions-title">Seen in this tab</h2>
      {seen.length === 0 ? (
        <EmptyState title="No session seen in this tab yet">
          <p>Sessions you start or open here are listed until the tab closes.</p>
        </EmptyState>
      ) : (
        <ul class="session-list" aria-label="Sessions seen in this tab">
          {seen.map((entry) => (
            <li key={entry.id} class="session-list__item">
              <Link href={consolePath('sessions', entry.id)} class="session-list__link">
                {entry.title ?? 'Untitled session'}
              </Link>
              <span class="session-list__meta">
                <code>{entry.id}</code>
                {entry.status === null ? null : <span class={`status status--${entry.status}`}>{entry.status}</span>}
                <time dateTime={entry.seenAt} title={formatDateTime(entry.seenAt)}>
                  seen {formatAgo(entry.seenAt)}
                </time>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
