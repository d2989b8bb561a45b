import type { OperationData } from '@memory-service/client';
import { StatGrid } from '../../components/stat-grid.js';
import { BarChart } from './charts/bar-chart.js';
import { LineChart } from './charts/line-chart.js';
import { SampledCaption } from './sampled-caption.js';
import { SampledReportPanel } from './sampled-report-panel.js';
import { HistoryCaption, historySeries } from './server-history.js';
import { windowLabel } from './window-label.js';

type MemoryReport = OperationData<'management.memory.observability'>;

const WINDOWS = [
  { value: '24', label: 'Last 24 hours' },
  { value: '168', label: 'Last 7 days' },
  { value: '336', label: 'Last 14 days' },
];

const shortDate = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

function percent(rate: number): string {
  return `${Math.round(rate * 1000) / 10} %`;
}

/** management/memory/observability: health, alarms, the contradictions trend, lifecycle counts sampled over time. */
export function MemoryObservability() {
  return (
    <SampledReportPanel
      name="memory-observability"
      title="Memory lifecycle"
      subject="memory observability"
      windows={WINDOWS}
      initialWindowHours="168"
      load={(client, windowHours, signal) => client.management.memory.observability({ windowHours }, { signal })}
    >
      {(latest, samples) => {
        const series = (pick: (data: MemoryReport) => number) =>
          samples.map((sample) => ({ at: sample.at, value: pick(sample.data) }));
        return (
          <>
            <div class="chart-grid">
              <BarChart
                title="Contradictions per day"
                caption={`A series from the API: memories superseded by a differing statement of the same subject, per UTC day (${latest.contradictions.windowTotal} in the window).`}
                unit="contradictions"
                unitOne="contradiction"
                integer
                bars={latest.contradictions.dailyTrend.map((day) => ({
                  label: shortDate.format(new Date(`${day.date}T00:00:00Z`)),
                  name: day.date,
                  value: day.count,
                }))}
              />
              <LineChart
                title="Memories"
                caption={<SampledCaption samples={samples} />}
                unit="memories"
                unitOne="memory"
                integer
                series={[
                  { name: 'Active', points: series((data) => data.lifecycle.active) },
                  { name: 'Total', points: series((data) => data.lifecycle.total) },
                ]}
              />
              {latest.history === undefined ? (
                <LineChart
                  title={`Changes in the last ${windowLabel(latest.windowHours)}`}
                  caption={<SampledCaption samples={samples} />}
                  unit="memories"
                  unitOne="memory"
                  integer
                  series={[
                    { name: 'Created', points: series((data) => data.lifecycle.created) },
                    { name: 'Updated', points: series((data) => data.lifecycle.updated) },
                    { name: 'Deleted', points: series((data) => data.lifecycle.deleted) },
                  ]}
                />
              ) : (
                <LineChart
                  title={`Changes over the last ${windowLabel(latest.windowHours)}`}
                  caption={
                    <HistoryCaption
                      bucketMinutes={latest.history.bucketMinutes}
                      what="Memories created, updated and deleted"
                    />
                  }
                  unit="memories"
                  unitOne="memory"
                  integer
                  series={[
                    { name: 'Created', points: historySeries(latest.history, (point) => point.created) },
                    { name: 'Updated', points: historySeries(latest.history, (point) => point.updated) },
                    { name: 'Deleted', points: historySeries(latest.history, (point) => point.deleted) },
                  ]}
                />
              )}
            </div>
            <h3>Sessions and consolidation in the window</h3>
            <StatGrid
              label="Sessions and consolidation"
              stats={[
                { name: 'Sessions started', value: latest.compaction.sessionsStarted },
                { name: 'Sessions closed', value: latest.compaction.sessionsClosed },
                { name: 'Sessions compacted', value: latest.compaction.sessionsCompacted },
                { name: 'Checkpoints', value: latest.compaction.checkpoints },
                { name: 'Checkpoint coverage', value: percent(latest.compaction.checkpointCoverage) },
                {
                  name: 'Consolidation runs',
                  value: latest.consolidation.runs,
                  detail: `${latest.consolidation.dryRuns} dry runs`,
                },
                { name: 'Merged', value: latest.consolidation.mergedCount },
                { name: 'Superseded', value: latest.consolidation.supersededCount },
                { name: 'Conflict rate', value: percent(latest.consolidation.conflictRate) },
              ]}
            />
          </>
        );
      }}
    </SampledReportPanel>
  );
}
