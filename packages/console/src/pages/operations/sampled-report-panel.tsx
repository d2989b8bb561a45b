import type { Health, MemoryClient, OperationData } from '@memory-service/client';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ErrorPanel } from '../../components/error-panel.js';
import { SelectField } from '../../components/fields.js';
import { Loading } from '../../components/loading.js';
import { HealthSummary } from './health-summary.js';
import { type Sample, useSampledReport } from './use-sampled-report.js';

/** What every observability report has: its health and alarms over a window. */
interface ObservabilityReport {
  health: Health;
  alarms: OperationData<'management.memory.observability'>['alarms'];
  windowHours: number;
}

/**
 * An observability report's panel: its title with a window picker and Sample now, the error or loading state, then
 * the latest report's health and alarms followed by what `children` draws from the samples.
 */
export function SampledReportPanel<Report extends ObservabilityReport>({
  name,
  title,
  subject,
  windows,
  initialWindowHours,
  load,
  children,
}: {
  /** The report's id: the series' name (per window) and the heading's id. */
  name: string;
  title: string;
  /** What is read, in the error and loading messages: "memory observability". */
  subject: string;
  windows: readonly { value: string; label: string }[];
  initialWindowHours: string;
  load: (client: MemoryClient, windowHours: number, signal: AbortSignal) => Promise<Report>;
  children: (latest: Report, samples: readonly Sample<Report>[]) => ComponentChildren;
}) {
  const [windowHours, setWindowHours] = useState(initialWindowHours);
  const report = useSampledReport(`${name}-${windowHours}`, (client, signal) =>
    load(client, Number(windowHours), signal),
  );
  const latest = report.samples.at(-1)?.data;
  return (
    <section class="panel stack" aria-labelledby={`${name}-title`} aria-busy={report.loading}>
      <div class="panel__head">
        <h2 id={`${name}-title`}>{title}</h2>
        <div class="panel__tools">
          <SelectField
            label="Window"
            name={`${name}-window`}
            value={windowHours}
            onValue={setWindowHours}
            options={windows}
          />
          <button type="button" class="button button--small" onClick={report.sampleNow}>
            Sample now
          </button>
        </div>
      </div>
      {report.error === undefined ? null : (
        <ErrorPanel error={report.error} title={`Could not read ${subject}`} onRetry={report.sampleNow} />
      )}
      {latest === undefined ? (
        report.loading ? (
          <Loading label={`Reading ${subject}`} />
        ) : null
      ) : (
        <>
          <HealthSummary health={latest.health} alarms={latest.alarms} windowHours={latest.windowHours} />
          {children(latest, report.samples)}
        </>
      )}
    </section>
  );
}
