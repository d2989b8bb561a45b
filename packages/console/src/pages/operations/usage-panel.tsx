import type { OperationData } from '@memory-service/client';
import { useState } from 'preact/hooks';
import { useRequest } from '../../api/use-request.js';
import { type DataColumn, DataTable } from '../../components/data-table.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { SelectField } from '../../components/fields.js';
import { Loading } from '../../components/loading.js';
import { StatGrid } from '../../components/stat-grid.js';
import { formatValue } from './charts/chart-scale.js';

type UsageRow = OperationData<'management.embeddings.usage'>['breakdown'][number];

const monthName = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** The current month and the eleven before it, as the route's `usageMonth` (the first day, UTC). */
function recentMonths(now: Date = new Date()): { value: string; label: string }[] {
  return Array.from({ length: 12 }, (_, index) => {
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - index, 1));
    return { value: first.toISOString().slice(0, 10), label: monthName.format(first) };
  });
}

function usd(value: number): string {
  return `$${formatValue(value, 4)}`;
}

const COLUMNS: DataColumn<UsageRow>[] = [
  { header: 'Tenant', cell: (row) => row.tenantId ?? <span class="muted">own</span> },
  { header: 'Project', cell: (row) => row.projectId ?? <span class="muted">none</span> },
  { header: 'Model', cell: (row) => <code>{row.modelId}</code> },
  { header: 'Provider', cell: (row) => row.provider },
  { header: 'Requests', numeric: true, cell: (row) => formatValue(row.requestCount, 0) },
  { header: 'Items', numeric: true, cell: (row) => formatValue(row.itemCount, 0) },
  { header: 'Tokens', numeric: true, cell: (row) => formatValue(row.tokenCount, 0) },
  { header: 'Cost', numeric: true, cell: (row) => usd(row.estimatedCostUsd) },
];

/** Embedding usage for a month (management/embeddings/usage): the totals and the breakdown. */
export function UsagePanel() {
  const months = recentMonths();
  const [month, setMonth] = useState(months[0]!.value);
  const usage = useRequest(
    (client, signal) => client.management.embeddings.usage({ usageMonth: month }, { signal }),
    [month],
  );
  const data = usage.data;
  return (
    <section class="panel stack" aria-labelledby="usage-title" aria-busy={usage.loading}>
      <div class="panel__head">
        <h2 id="usage-title">Embedding usage</h2>
        <div class="panel__tools">
          <SelectField label="Month" name="usageMonth" value={month} onValue={setMonth} options={months} />
        </div>
      </div>
      {usage.error === undefined ? null : (
        <ErrorPanel error={usage.error} title="Could not read the usage" onRetry={usage.reload} />
      )}
      {data === undefined ? (
        usage.loading ? (
          <Loading label="Loading the usage" />
        ) : null
      ) : (
        <>
          <StatGrid
            label="Usage totals"
            stats={[
              { name: 'Requests', value: formatValue(data.summary.requestCount, 0) },
              { name: 'Items embedded', value: formatValue(data.summary.itemCount, 0) },
              { name: 'Tokens', value: formatValue(data.summary.tokenCount, 0) },
              { name: 'Estimated cost', value: usd(data.summary.estimatedCostUsd) },
            ]}
          />
          {data.breakdown.length === 0 ? (
            <EmptyState title="No embedding usage this month" />
          ) : (
            <DataTable
              caption="By tenant, project, model and provider"
              columns={COLUMNS}
              rows={data.breakdown}
              rowKey={(row) => [row.tenantId, row.projectId, row.modelId, row.provider].join('\u0000')}
            />
          )}
        </>
      )}
    </section>
  );
}
