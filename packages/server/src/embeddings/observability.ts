import type { OperationData, ResolvedScope } from '@memory-service/contract';
import { pendingIndexJobs } from '../indexing/index-jobs.js';
import type { Database } from '../store/database.js';
import { backfillStatus } from './backfill.js';
import { alarmsFor, healthOf, type SloFigures, slosFor } from './embedding-slos.js';
import { workerFigures } from './jobs.js';
import { coverage } from './pending-memories.js';
import type { EmbeddingRegistry } from './registry.js';
import { retrievalFigures } from './retrieval-events.js';
import { usageReport } from './usage.js';

/** How many error codes the worker section lists. */
const TOP_ERROR_CODES = 5;

/** Graph failures in the window (recorded by the graph beside embedding jobs); none when the table is missing. */
async function graphErrorCodes(database: Database, since: Date): Promise<Array<{ code: string; count: number }>> {
  try {
    const rows = await database.all<{ code: string; count: number }>(
      'SELECT code, COUNT(*) AS count FROM graph_errors WHERE created_at >= ? GROUP BY code',
      [since.toISOString()],
    );
    return rows.map((row) => ({ code: row.code, count: Number(row.count) }));
  } catch {
    return [];
  }
}

/** The commonest codes of several lists, summed, top first (ties by code). */
function topCodes(...lists: Array<Array<{ code: string; count: number }>>): Array<{ code: string; count: number }> {
  const totals = new Map<string, number>();
  for (const { code, count } of lists.flat()) totals.set(code, (totals.get(code) ?? 0) + count);
  return [...totals.entries()]
    .map(([code, count]) => ({ code, count }))
    .sort((left, right) => right.count - left.count || left.code.localeCompare(right.code))
    .slice(0, TOP_ERROR_CODES);
}

/** What the observability report covers. */
export interface ObservabilityRequest {
  scope: ResolvedScope;
  /** The model the queue and backfill are measured for. */
  modelId: string;
  /** Narrows worker, retrieval and cost figures to one model (when the caller named it). */
  modelFilter?: string;
  usageMonth: string;
  windowHours: number;
  now: Date;
}

/**
 * `GET /management/embeddings/observability`: the queue (memories still without a vector; `indexPending`, an
 * additive field, counts those whose index job has not run yet, vector or graph edges), the worker (embedding
 * jobs of the window and their top error codes, graph failures included), backfill, retrieval (semantic use,
 * fallbacks, latency percentiles), the month's cost, SLOs with their thresholds, alarms and an overall health.
 */
export async function embeddingsObservability(
  database: Database,
  registry: EmbeddingRegistry,
  request: ObservabilityRequest,
): Promise<OperationData<'management.embeddings.observability'>> {
  const since = new Date(request.now.getTime() - request.windowHours * 3_600_000);
  const coverageFigures = await coverage(database, request.scope, request.modelId);
  const backfill = await backfillStatus(database, request.scope, request.modelId, coverageFigures);
  const worker = await workerFigures(database, request.scope, since, request.modelFilter);
  const retrieval = await retrievalFigures(database, request.scope, since, request.modelFilter);
  const usage = await usageReport(database, {
    usageMonth: request.usageMonth,
    projectId: request.scope.projectId,
    ...(request.modelFilter === undefined ? {} : { modelId: request.modelFilter }),
    limit: 0,
  });
  const attempts = worker.processed + worker.failed;
  const figures: SloFigures = {
    pending: coverageFigures.pending,
    oldestPendingAgeSeconds:
      coverageFigures.oldestPendingAt === null
        ? null
        : Math.max(0, Math.round((request.now.getTime() - Date.parse(coverageFigures.oldestPendingAt)) / 1000)),
    jobs: attempts,
    errorRate: attempts === 0 ? 0 : Math.round((worker.failed / attempts) * 10_000) / 10_000,
    semanticRequests: retrieval.semanticRequests,
    fallbackRate: retrieval.fallbackRate,
    p95LatencyMs: retrieval.p95LatencyMs,
    modelAvailable: registry.describe(request.modelId)?.available ?? false,
  };
  const alarms = alarmsFor(figures, request.modelId);
  const queue = {
    pending: figures.pending,
    oldestPendingAgeSeconds: figures.oldestPendingAgeSeconds,
    indexPending: await pendingIndexJobs(database, request.scope),
  };
  return {
    scope: request.scope,
    windowHours: request.windowHours,
    queue,
    worker: {
      processed: worker.processed,
      failed: worker.failed,
      errorRate: figures.errorRate,
      topErrorCodes: topCodes(worker.errorCodes, await graphErrorCodes(database, since)),
    },
    backfill,
    retrieval,
    cost: {
      usageMonth: request.usageMonth,
      tokenCount: usage.summary.tokenCount,
      estimatedCostUsd: usage.summary.estimatedCostUsd,
    },
    slos: slosFor(figures),
    alarms,
    health: healthOf(alarms),
  };
}
