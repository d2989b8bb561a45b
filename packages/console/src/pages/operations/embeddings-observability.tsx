import type { OperationData } from '@memory-service/client';
import { StatGrid } from '../../components/stat-grid.js';
import { formatValue } from './charts/chart-scale.js';
import { LineChart } from './charts/line-chart.js';
import { SampledCaption } from './sampled-caption.js';
import { SampledReportPanel } from './sampled-report-panel.js';
import { HistoryCaption, historySeries } from './server-history.js';

type EmbeddingsReport = OperationData<'management.embeddings.observability'>;

const WINDOWS = [
  { value: '1', label: 'Last hour' },
  { value: '6', label: 'Last 6 hours' },
  { value: '24', label: 'Last 24 hours' },
  { value: '168', label: 'Last 7 days' },
];

function met(ok: boolean): string {
  return ok ? 'met' : 'missed';
}

/**
 * management/embeddings/observability: health, alarms and SLOs; retrieval latency and fallbacks over the window from
 * the server's stored history (the tab's own samples when a server sends none); the index queue and its lag, which
 * are states rather than events, sampled by the tab.
 */
export function EmbeddingsObservability() {
  return (
    <SampledReportPanel
      name="embeddings-observability"
      title="Embeddings and retrieval"
      subject="embeddings observability"
      windows={WINDOWS}
      initialWindowHours="24"
      load={(client, windowHours, signal) => client.management.embeddings.observability({ windowHours }, { signal })}
    >
      {(latest, samples) => {
        const series = (pick: (data: EmbeddingsReport) => number | null) =>
          samples.map((sample) => ({ at: sample.at, value: pick(sample.data) }));
        const caption = <SampledCaption samples={samples} />;
        const history = latest.history;
        const retrievalSeries = (
          pickHistory: (point: NonNullable<typeof history>['points'][number]) => number | null,
          pickSample: (data: EmbeddingsReport) => number | null,
        ) => (history === undefined ? series(pickSample) : historySeries(history, pickHistory));
        const retrievalCaption = (what: string) =>
          history === undefined ? caption : <HistoryCaption bucketMinutes={history.bucketMinutes} what={what} />;
        return (
          <>
            <div class="chart-grid">
              <LineChart
                title="Retrieval latency"
                caption={retrievalCaption('Latency percentiles of the semantic searches')}
                unit="ms"
                digits={1}
                threshold={{ value: latest.slos.maxP95LatencyMs, label: `SLO p95 ≤ ${latest.slos.maxP95LatencyMs} ms` }}
                series={[
                  {
                    name: 'p50',
                    points: retrievalSeries(
                      (point) => point.p50LatencyMs,
                      (data) => data.retrieval.p50LatencyMs,
                    ),
                  },
                  {
                    name: 'p95',
                    points: retrievalSeries(
                      (point) => point.p95LatencyMs,
                      (data) => data.retrieval.p95LatencyMs,
                    ),
                  },
                ]}
              />
              <LineChart
                title="Semantic fallbacks"
                caption={retrievalCaption('The share of semantic searches that fell back to full text')}
                unit="%"
                digits={1}
                minTop={latest.slos.maxFallbackRate * 100 * 1.25}
                threshold={{
                  value: latest.slos.maxFallbackRate * 100,
                  label: `SLO ≤ ${formatValue(latest.slos.maxFallbackRate * 100, 1)} %`,
                }}
                series={[
                  {
                    name: 'Fallback rate',
                    points: retrievalSeries(
                      (point) => (point.semanticRequests === 0 ? null : point.fallbackRate * 100),
                      (data) => data.retrieval.fallbackRate * 100,
                    ),
                  },
                ]}
              />
              <LineChart
                title="Index queue"
                caption={caption}
                unit="items"
                unitOne="item"
                integer
                series={[{ name: 'Pending embeddings', points: series((data) => data.queue.pending) }]}
              />
              <LineChart
                title="Index lag"
                caption={caption}
                unit="s"
                digits={0}
                series={[
                  {
                    name: 'Oldest pending item',
                    points: series((data) => (data.queue.pending === 0 ? 0 : data.queue.oldestPendingAgeSeconds)),
                  },
                ]}
              />
            </div>
            <h3>In the window</h3>
            <StatGrid
              label="Retrieval, worker and cost"
              stats={[
                {
                  name: 'Retrievals',
                  value: latest.retrieval.requests,
                  detail: `${latest.retrieval.semanticRequests} semantic`,
                },
                { name: 'Semantic fallbacks', value: latest.retrieval.semanticFallbacks },
                { name: 'Latency SLO', value: met(latest.slos.latencyMet) },
                { name: 'Fallback SLO', value: met(latest.slos.fallbackRateMet) },
                { name: 'Embedded', value: latest.worker.processed, detail: `${latest.worker.failed} failed` },
                {
                  name: 'Worker error rate',
                  value: `${formatValue(latest.worker.errorRate * 100, 1)} %`,
                  detail: `SLO ≤ ${formatValue(latest.slos.maxErrorRate * 100, 1)} %, ${met(latest.slos.errorRateMet)}`,
                },
                { name: 'Backfill remaining', value: latest.backfill.remaining, detail: latest.backfill.modelId },
                {
                  name: 'Tokens this month',
                  value: formatValue(latest.cost.tokenCount, 0),
                  detail: `$${formatValue(latest.cost.estimatedCostUsd, 4)} estimated`,
                },
              ]}
            />
          </>
        );
      }}
    </SampledReportPanel>
  );
}
