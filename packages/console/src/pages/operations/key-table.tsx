import type { OperationData } from '@memory-service/client';
import { type DataColumn, DataTable } from '../../components/data-table.js';
import { formatAgo, formatDate, formatDateTime } from '../../components/format.js';

type KeyEntry = OperationData<'management.keys.get'>['keys'][number];

/** Whether an inventory entry is this key: the preview keeps the key's first 12 and last 4 characters. */
export function isKeyOf(entry: KeyEntry, apiKey: string): boolean {
  return entry.preview.startsWith(apiKey.slice(0, 12)) && entry.preview.endsWith(apiKey.slice(-4));
}

function when(iso: string | null, never: string) {
  if (iso === null) return <span class="muted">{never}</span>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatDate(iso)}
    </time>
  );
}

/** The key inventory as a table (previews only: the API never returns a key again); Revoke on active keys. */
export function KeyTable({
  keys,
  primaryPreview,
  signedInKey,
  onRevoke,
}: {
  keys: readonly KeyEntry[];
  /** The inventory's primary key, marked in the table. */
  primaryPreview: string | null;
  signedInKey: string | null;
  onRevoke: (entry: KeyEntry) => void;
}) {
  const columns: DataColumn<KeyEntry>[] = [
    {
      header: 'Key',
      cell: (entry) => (
        <>
          <code>{entry.preview}</code>
          {entry.preview === primaryPreview ? <span class="tag">primary</span> : null}
          {signedInKey !== null && isKeyOf(entry, signedInKey) ? <span class="tag">this console</span> : null}
        </>
      ),
    },
    { header: 'Status', cell: (entry) => <span class={`status status--${entry.status}`}>{entry.status}</span> },
    { header: 'Created', cell: (entry) => when(entry.createdAt, '') },
    { header: 'Expires', cell: (entry) => when(entry.expiresAt, 'never') },
    {
      header: 'Last used',
      cell: (entry) =>
        entry.lastUsedAt === null ? (
          <span class="muted">never</span>
        ) : (
          <time dateTime={entry.lastUsedAt} title={formatDateTime(entry.lastUsedAt)}>
            {formatAgo(entry.lastUsedAt)}
          </time>
        ),
    },
    {
      header: 'Actions',
      cell: (entry) =>
        entry.status === 'active' ? (
          <button
            type="button"
            class="button button--small"
            onClick={() => onRevoke(entry)}
            aria-label={`Revoke ${entry.preview}`}
          >
            Revoke…
          </button>
        ) : entry.revokedAt === null ? null : (
          <span class="muted small">revoked {formatAgo(entry.revokedAt)}</span>
        ),
    },
  ];
  return <DataTable caption="API keys" columns={columns} rows={keys} rowKey={(entry) => entry.id} />;
}
