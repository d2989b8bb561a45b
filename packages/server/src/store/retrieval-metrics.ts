import type { RolloutMode, Strategy } from '@memory-service/contract';
import { withoutModelLoad } from '../observability/request-observation.js';
import type { Database } from './database.js';

/** What one context call did, as the quality gate counts it. */
export interface RetrievalMetricsRow {
  projectId: string | null;
  userId: string | null;
  rolloutMode: RolloutMode;
  strategySelected: Strategy;
  strategyApplied: Strategy;
  /** Hybrid retrieval ran (served, or beside a lexical answer in shadow). */
  hybridExecuted: boolean;
  /** That hybrid run fell back to lexical. */
  semanticFallback: boolean;
  /** Graph expansion ran (in shadow or applied). */
  graphExecuted: boolean;
  graphApplied: boolean;
  graphCandidates: number;
  graphExpanded: number;
  /** The graph failed and the call was answered without it. */
  graphError: boolean;
  /** Measured up to the call: the time the request waited for a model to load within it is taken out here. */
  latencyMs: number;
}

/** Sums of one window's metrics rows. */
export interface WindowAggregate {
  totalRequests: number;
  hybridSamples: number;
  semanticFallbacks: number;
  graphExecutions: number;
  executionsWithCandidates: number;
  graphCandidates: number;
  graphErrors: number;
  canaryRequests: number;
  latencyMs: number;
}

/** An empty window. */
export const EMPTY_WINDOW: WindowAggregate = {
  totalRequests: 0,
  hybridSamples: 0,
  semanticFallbacks: 0,
  graphExecutions: 0,
  executionsWithCandidates: 0,
  graphCandidates: 0,
  graphErrors: 0,
  canaryRequests: 0,
  latencyMs: 0,
};

/** Metrics rows older than this are pruned when the rollout is evaluated (the gate reads at most 3 windows). */
export const METRICS_RETENTION_DAYS = 7;

const flag = (value: boolean) => (value ? 1 : 0);

/**
 * Records one context call's metrics in the database's log buffer (written in batches; readers flush first), its
 * latency without the time the request waited for a local model to load (as `recordRetrievalEvent`).
 */
export function recordRetrievalMetrics(database: Database, row: RetrievalMetricsRow, now: Date): void {
  database.logs.append({
    sql: `INSERT INTO retrieval_metrics (created_at, project_id, user_id, rollout_mode, strategy_selected, strategy_applied,
       hybrid_executed, semantic_fallback, graph_executed, graph_applied, graph_candidates, graph_expanded, graph_error, latency_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    args: [
      now.toISOString(),
      row.projectId,
      row.userId,
      row.rolloutMode,
      row.strategySelected,
      row.strategyApplied,
      flag(row.hybridExecuted),
      flag(row.semanticFallback),
      flag(row.graphExecuted),
      flag(row.graphApplied),
      row.graphCandidates,
      row.graphExpanded,
      flag(row.graphError),
      withoutModelLoad(row.latencyMs),
    ],
  });
}

/**
 * Aggregates `count` consecutive windows of `windowHours` ending at `now` in one query: index 0 is the current
 * window (now - windowHours, now], 1 the one before, and so on. A projectId narrows to that project's calls.
 */
export async function aggregateWindows(
  database: Database,
  options: { now: Date; windowHours: number; count: number; projectId: string | null },
): Promise<WindowAggregate[]> {
  await database.logs.flush();
  const windowMs = options.windowHours * 3_600_000;
  const end = options.now.getTime();
  const start = new Date(end - windowMs * options.count).toISOString();
  const project = options.projectId === null ? '' : 'AND project_id = ?';
  const rows = await database.all<Record<string, number>>(
    `SELECT window_index, COUNT(*) AS total, SUM(hybrid_executed) AS hybrid, SUM(semantic_fallback) AS fallbacks,
            SUM(graph_executed) AS executions, SUM(graph_executed AND graph_candidates > 0) AS covered,
            SUM(graph_candidates) AS candidates, SUM(graph_error) AS errors,
            SUM(rollout_mode = 'canary') AS canary, SUM(latency_ms) AS latency
       FROM (SELECT *, CAST((? - unixepoch(created_at, 'subsec') * 1000) / ? AS INTEGER) AS window_index
               FROM retrieval_metrics WHERE created_at > ? AND created_at <= ? ${project})
      GROUP BY window_index`,
    [end, windowMs, start, options.now.toISOString(), ...(options.projectId === null ? [] : [options.projectId])],
  );
  const windows = Array.from({ length: options.count }, () => ({ ...EMPTY_WINDOW }));
  for (const row of rows) {
    const index = Number(row.window_index);
    const target = windows[Math.min(Math.max(index, 0), options.count - 1)];
    if (target === undefined) continue;
    target.totalRequests += Number(row.total ?? 0);
    target.hybridSamples += Number(row.hybrid ?? 0);
    target.semanticFallbacks += Number(row.fallbacks ?? 0);
    target.graphExecutions += Number(row.executions ?? 0);
    target.executionsWithCandidates += Number(row.covered ?? 0);
    target.graphCandidates += Number(row.candidates ?? 0);
    target.graphErrors += Number(row.errors ?? 0);
    target.canaryRequests += Number(row.canary ?? 0);
    target.latencyMs += Number(row.latency ?? 0);
  }
  return windows;
}

/** Deletes metrics rows past the retention. */
export async function pruneRetrievalMetrics(database: Database, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - METRICS_RETENTION_DAYS * 86_400_000).toISOString();
  await database.run('DELETE FROM retrieval_metrics WHERE created_at < ?', [cutoff]);
}
