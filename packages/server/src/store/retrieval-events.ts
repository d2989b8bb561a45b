import type { InValue } from '@libsql/client';
import type { ResolvedScope } from '@memory-service/contract';
import { bucketArgs, bucketIndexSql, type HistoryBuckets, historyPoints } from '../observability/history-buckets.js';
import { withoutModelLoad } from '../observability/request-observation.js';
import type { Database } from './database.js';
import { allOf, type Condition, visibleTo } from './scope-filter.js';

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

/** The semantic searches of one bucket: how many, how many fell back, and their nearest-rank p50 and p95. */
interface SemanticBucket {
  bucket: number;
  n: number;
  fallbacks: number | null;
  p50: number | null;
  p95: number | null;
}

/**
 * The semantic searches matching `where`, grouped by `bucketSql` (its arguments first): the database ranks each
 * bucket's latencies with window functions and answers one row per bucket, however many searches it holds.
 */
function semanticByBucket(
  database: Database,
  bucketSql: string,
  bucketArgs: readonly InValue[],
  where: Condition,
): Promise<SemanticBucket[]> {
  return database.all<SemanticBucket>(
    `WITH events AS (
       SELECT ${bucketSql} AS bucket, latency_ms, semantic_applied FROM embedding_retrieval_events WHERE ${where.sql}
     ), ranked AS (
       SELECT bucket, latency_ms, semantic_applied,
         ROW_NUMBER() OVER (PARTITION BY bucket ORDER BY latency_ms) AS rank,
         COUNT(*) OVER (PARTITION BY bucket) AS n
       FROM events
     )
     SELECT bucket, MAX(n) AS n, SUM(CASE WHEN semantic_applied = 0 THEN 1 ELSE 0 END) AS fallbacks,
       MAX(CASE WHEN rank = (n * 50 + 99) / 100 THEN latency_ms END) AS p50,
       MAX(CASE WHEN rank = (n * 95 + 99) / 100 THEN latency_ms END) AS p95
     FROM ranked GROUP BY bucket`,
    [...bucketArgs, ...where.args],
  );
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
  // The database ranks the latencies and answers one row: reading every latency of a busy week into the process
  // would grow with the traffic.
  const [row] = await semanticByBucket(database, '0', [], semantic);
  const semanticRequests = Number(row?.n ?? 0);
  const fallbacks = Number(row?.fallbacks ?? 0);
  return {
    requests: Number(totals?.requests ?? 0),
    semanticRequests,
    semanticFallbacks: fallbacks,
    fallbackRate: semanticRequests === 0 ? 0 : Math.round((fallbacks / semanticRequests) * 10_000) / 10_000,
    p50LatencyMs: round(row?.p50),
    p95LatencyMs: round(row?.p95),
  };
}

/** A latency in ms to two decimals, or null. */
function round(value: number | null | undefined): number | null {
  return value === null || value === undefined ? null : Math.round(Number(value) * 100) / 100;
}

/** One history bucket of retrieval figures (as `RetrievalFigures`, over the bucket's requests). */
export interface RetrievalHistoryPoint {
  at: string;
  requests: number;
  semanticRequests: number;
  fallbackRate: number;
  p50LatencyMs: number | null;
  p95LatencyMs: number | null;
}

/**
 * Retrieval figures per history bucket for requests visible to a scope (semantic ones of one model, when given).
 * The database computes each bucket's nearest-rank percentiles with window functions and answers two numbers per
 * bucket, so the history costs the same few rows however many requests the window holds.
 */
export async function retrievalHistory(
  database: Database,
  scope: ResolvedScope,
  buckets: HistoryBuckets,
  modelId?: string,
): Promise<RetrievalHistoryPoint[]> {
  await database.logs.flush();
  const where = allOf({ sql: 'created_at >= ?', args: [new Date(buckets.start).toISOString()] }, visibleTo(scope));
  const bucket = bucketIndexSql('created_at', buckets);
  const requestRows = await database.all<{ bucket: number; requests: number }>(
    `SELECT ${bucket} AS bucket, COUNT(*) AS requests FROM embedding_retrieval_events WHERE ${where.sql} GROUP BY 1`,
    [...bucketArgs(buckets), ...where.args],
  );
  const semantic = allOf(
    where,
    { sql: 'semantic_requested = 1', args: [] },
    ...(modelId === undefined ? [] : [{ sql: '(model_id = ? OR model_id IS NULL)', args: [modelId] }]),
  );
  const semanticRows = await semanticByBucket(database, bucket, bucketArgs(buckets), semantic);
  // An event at the very end of the window belongs to the last bucket.
  const last = buckets.count - 1;
  const requests = new Map<number, number>();
  for (const row of requestRows) {
    const index = Math.min(Number(row.bucket), last);
    requests.set(index, (requests.get(index) ?? 0) + Number(row.requests));
  }
  const semanticOf = new Map(semanticRows.map((row) => [Math.min(Number(row.bucket), last), row]));
  return historyPoints(buckets, (index) => {
    const row = semanticOf.get(index);
    const n = Number(row?.n ?? 0);
    return {
      requests: requests.get(index) ?? 0,
      semanticRequests: n,
      fallbackRate: n === 0 ? 0 : Math.round((Number(row?.fallbacks ?? 0) / n) * 10_000) / 10_000,
      p50LatencyMs: round(row?.p50),
      p95LatencyMs: round(row?.p95),
    };
  });
}
