import type { OperationData } from '@memory-service/client';
import { useState } from 'preact/hooks';
import { useAction } from '../../api/use-action.js';
import { useRequest } from '../../api/use-request.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { type DataColumn, DataTable } from '../../components/data-table.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { formatDate, formatDateTime } from '../../components/format.js';
import { Loading } from '../../components/loading.js';
import { redactUrl } from './redact-url.js';
import { TenantForm } from './tenant-form.js';

type Tenant = OperationData<'management.tenants.get'>['tenants'][number];

/** Tenants and their databases (management/tenant-overrides): the mappings, add or update one, disable one. */
export function TenantsSection() {
  const tenants = useRequest((client, signal) => client.management.tenants.list({}, { signal }), []);
  const [disabling, setDisabling] = useState<Tenant | null>(null);
  const disable = useAction((client, tenantId: string) => client.management.tenants.disable(tenantId));
  const [message, setMessage] = useState<string | null>(null);
  const columns: DataColumn<Tenant>[] = [
    { header: 'Tenant', cell: (tenant) => <code>{tenant.tenantId}</code> },
    {
      header: 'Status',
      cell: (tenant) => (
        <>
          <span class={`status status--${tenant.status}`}>{tenant.status}</span>
          {tenant.lastError === null ? null : <p class="tenant-error">{tenant.lastError}</p>}
        </>
      ),
    },
    { header: 'Mode', cell: (tenant) => `${tenant.mode} (${tenant.source})` },
    {
      header: 'Database',
      cell: (tenant) => (
        <>
          {tenant.dbName === null ? null : <span class="tenant-db__name">{tenant.dbName}</span>}
          {tenant.dbUrl === null ? (
            <span class="muted">no URL</span>
          ) : (
            <code class="tenant-db__url">{redactUrl(tenant.dbUrl)}</code>
          )}
        </>
      ),
    },
    { header: 'Token', cell: (tenant) => (tenant.hasToken ? 'stored (never shown)' : <span class="muted">none</span>) },
    {
      header: 'Updated',
      cell: (tenant) => (
        <time dateTime={tenant.updatedAt} title={formatDateTime(tenant.updatedAt)}>
          {formatDate(tenant.updatedAt)}
        </time>
      ),
    },
    {
      header: 'Actions',
      cell: (tenant) =>
        tenant.status === 'disabled' ? null : (
          <button
            type="button"
            class="button button--small"
            onClick={() => setDisabling(tenant)}
            aria-label={`Disable ${tenant.tenantId}`}
          >
            Disable…
          </button>
        ),
    },
  ];
  return (
    <div class="stack">
      <section class="stack" aria-labelledby="tenants-title" aria-busy={tenants.loading}>
        <h2 id="tenants-title">Tenant databases</h2>
        <p class="muted">
          Each tenant has its own database: provisioned by the server on its first call (source auto) or mapped here
          (override). Tokens are never returned.
        </p>
        {message === null ? null : (
          <p class="success-note" role="status">
            {message}
          </p>
        )}
        {tenants.error === undefined ? null : (
          <ErrorPanel error={tenants.error} title="Could not list tenants" onRetry={tenants.reload} />
        )}
        {tenants.data === undefined ? (
          tenants.loading ? (
            <Loading label="Loading tenants" />
          ) : null
        ) : tenants.data.tenants.length === 0 ? (
          <EmptyState title="No tenant database yet">
            <p>
              Calls without a tenant use the key owner's own database. A tenant appears here on its first call with a
              tenantId, or when you map one below.
            </p>
          </EmptyState>
        ) : (
          <DataTable
            caption={`${tenants.data.count} ${tenants.data.count === 1 ? 'tenant' : 'tenants'}`}
            columns={columns}
            rows={tenants.data.tenants}
            rowKey={(tenant) => tenant.tenantId}
          />
        )}
      </section>
      <TenantForm
        onSaved={(text) => {
          setMessage(text);
          tenants.reload();
        }}
      />
      <ConfirmDialog
        open={disabling !== null}
        title="Disable this tenant?"
        confirmLabel="Disable tenant"
        pending={disable.pending}
        error={disable.error}
        onClose={() => {
          setDisabling(null);
          disable.reset();
        }}
        onConfirm={async () => {
          if (disabling === null) return;
          const result = await disable.run(disabling.tenantId);
          if (result === undefined) return;
          setDisabling(null);
          setMessage(`${result.message}: ${result.tenant.tenantId}`);
          tenants.reload();
        }}
      >
        <p>
          Calls with tenant <code>{disabling?.tenantId}</code> are refused (<code>TENANT_DATABASE_NOT_CONFIGURED</code>)
          while its mapping is disabled. Its database is kept: saving the tenant's mapping again below enables it.
        </p>
      </ConfirmDialog>
    </div>
  );
}
