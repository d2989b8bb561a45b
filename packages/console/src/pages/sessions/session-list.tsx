import type { OperationData, SessionStatus } from '@memory-service/client';
import { LIMITS } from '@memory-service/contract';
import { useState } from 'preact/hooks';
import { useRequest } from '../../api/use-request.js';
import { type DataColumn, DataTable } from '../../components/data-table.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { SelectField } from '../../components/fields.js';
import { formatAgo, formatDateTime } from '../../components/format.js';
import { Loading } from '../../components/loading.js';
import { Link } from '../../router/link.js';
import { consolePath } from '../../router/router.js';

type ListedSession = OperationData<'sessions.list'>['sessions'][number];
type StatusFilter = SessionStatus | 'all';

const STATUS_OPTIONS: { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'closed', label: 'Closed' },
  { value: 'compacted', label: 'Compacted' },
];

const COLUMNS: DataColumn<ListedSession>[] = [
  {
    header: 'Session',
    cell: (session) => (
      <span class="session-list__cell">
        <Link href={consolePath('sessions', session.id)} class="session-list__link">
          {session.title ?? 'Untitled session'}
        </Link>
        <code class="session-list__id">{session.id}</code>
      </span>
    ),
  },
  { header: 'Status', cell: (session) => <span class={`status status--${session.status}`}>{session.status}</span> },
  {
    header: 'Last activity',
    cell: (session) => (
      <time dateTime={session.lastActivityAt} title={formatDateTime(session.lastActivityAt)}>
        {formatAgo(session.lastActivityAt)}
      </time>
    ),
  },
  { header: 'Turns', numeric: true, cell: (session) => session.totals.turnCount },
  { header: 'Tokens', numeric: true, cell: (session) => session.totals.tokenCount },
  { header: 'Events', numeric: true, cell: (session) => session.totals.eventCount },
];

/** The scope's sessions (sessions/list), newest activity first, by status, with their totals. */
export function SessionList() {
  const [status, setStatus] = useState<StatusFilter>('all');
  const limit = LIMITS.sessionListLimit.max;
  const sessions = useRequest(
    (client, signal) => client.sessions.list(status === 'all' ? { limit } : { status, limit }, { signal }),
    [status],
  );
  return (
    <section class="stack" aria-labelledby="session-list-title" aria-busy={sessions.loading}>
      <div class="session-list__header">
        <h2 id="session-list-title">Sessions in this scope</h2>
        <SelectField
          label="Status"
          name="status"
          value={status}
          onValue={(value) => setStatus(value as StatusFilter)}
          options={STATUS_OPTIONS}
        />
      </div>
      {sessions.error === undefined ? null : (
        <ErrorPanel error={sessions.error} title="Could not list sessions" onRetry={sessions.reload} />
      )}
      {sessions.data === undefined ? (
        sessions.loading ? (
          <Loading label="Loading sessions" />
        ) : null
      ) : sessions.data.sessions.length === 0 ? (
        <EmptyState title={status === 'all' ? 'No session in this scope' : `No ${status} session in this scope`}>
          <p>Sessions appear here once an app starts one (sessions/start), or start one above.</p>
        </EmptyState>
      ) : (
        <DataTable
          caption={`${sessions.data.count} ${sessions.data.count === 1 ? 'session' : 'sessions'}, newest activity first${
            sessions.data.count === limit ? ` (the ${limit} newest)` : ''
          }`}
          columns={COLUMNS}
          rows={sessions.data.sessions}
          rowKey={(session) => session.id}
        />
      )}
    </section>
  );
}
