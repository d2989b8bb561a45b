import type { ResolvedScope } from '@memory-service/contract';
import { withoutModelLoad } from '../observability/request-observation.js';
import type { Database } from './database.js';
import { allOf, visibleTo } from './scope-filter.js';

/** One retrieve() call as observability sees it. */
export interface RetrievalEvent {
  userId: string | null;
  projectId: string | null;
  modelId: string | null;
  semanticRequested: boolean;
  semanticApplied: boolean;
  fallbackReason: string | null;
  /** Measured up to the call: the time the request waited for a model to load within it is taken out here. */
  latencyMs: number;
}

/** Event rows older than this are pruned: the longest observability window is 168 h (7 days). */
const RETENTION_MS = 8 * 24 * 3_600_000;

/**
 * Records a retrieval in the database's log buffer (rows past retention are pruned when the buffer is written). Its
 * latency leaves out the time the request waited for a local model to load: a fresh server's first hybrid query loads
 * the model (seconds), and counting that as retrieval made observability report a critical p95 on a fresh install.
 * The load is measured on its own (`memory_model_load_seconds_total`, `/metrics`).
 */
export function recordRetrievalEvent(database: Database, event: RetrievalEvent, now: Date): void {
  database.logs.append(
    {
      sql: `INSERT INTO embedding_retrieval_events (created_at, user_id, project_id, model_id, semantic_requested,
              semantic_applied, fallback_reason, latency_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      args: [
        now.toISOString(),
        event.userId,
        event.projectId,
        event.modelId,
        event.semanticRequested ? 1 : 0,
        event.semanticApplied ? 1 : 0,
        event.fallbackReason,
        withoutModelLoad(event.latencyMs),
      ],
    },
    {
      key: 'embedding_retrieval_events',
      statement: {
        sql: 'DELETE FROM embedding_retrieval_events WHERE created_at < ?',
        args: [new Date(now.getTime() - RETENTION_MS).toISOString()],
      },
    },
  );
}

/** Retrieval figures of a window (latency percentiles over semantic requests, nearest-rank; null without any). */
export interface RetrievalFigures {
  requests: number;
  semanticRequests: number;
  semanticFallbacks: number;
  fallbackRate: number;
  p50LatencyMs: number | null;
  p95LatencyMs: number | null;
}

/** The nearest-rank percentile of ascending values. */
export function percentile(sorted: readonly number[], fraction: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(fraction * sorted.length));
  return sorted[rank - 1] ?? null;
}

/** Retrieval figures since a time for requests visible to a scope (and one model, when given). */
export async function retrievalFigures(
  database: Database,
  scope: ResolvedScope,
  since: Date,
  modelId?: string,
): Promise<RetrievalFigures> {
  await database.logs.flush();
  const where = allOf({ sql: 'created_at >= ?', args: [since.toISOString()] }, visibleTo(scope));
  const totals = await database.get<{ requests: number }>(
    `SELECT COUNT(*) AS requests FROM embedding_retrieval_events WHERE ${where.sql}`,
    where.args,
  );
  const semantic = allOf(
    where,
    { sql: 'semantic_requested = 1', args: [] },
    ...(modelId === undefined ? [] : [{ sql: '(model_id = ? OR model_id IS NULL)', args: [modelId] }]),
  );
  const rows = await database.all<{ latency_ms: number; semantic_applied: number }>(
    `SELECT latency_ms, semantic_applied FROM embedding_retrieval_events WHERE ${semantic.sql} ORDER BY latency_ms`,
    semantic.args,
  );
  const latencies = rows.map((row) => Number(row.latency_ms));
  const fallbacks = rows.filter((row) => Number(row.semantic_applied) === 0).length;
  const round = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100);
  return {
    requests: Number(totals?.requests ?? 0),
    semanticRequests: rows.length,
    semanticFallbacks: fallbacks,
    fallbackRate: rows.length === 0 ? 0 : Math.round((fallbacks / rows.length) * 10_000) / 10_000,
    p50LatencyMs: round(percentile(latencies, 0.5)),
    p95LatencyMs: round(percentile(latencies, 0.95)),
  };
}
