import type { OperationData, ResolvedScope } from '@memory-service/contract';
import { historyBuckets } from '../observability/history-buckets.js';
import { coverage } from '../store/embedding-coverage.js';
import { workerFigures } from '../store/embedding-jobs.js';
import { usageReport } from '../store/embedding-usage.js';
import { graphErrorCodesSince } from '../store/graph-errors.js';
import { pendingIndexJobs } from '../store/index-jobs.js';
import { retrievalFigures, retrievalHistory } from '../store/retrieval-events.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import { backfillStatus } from './backfill.js';
import { alarmsFor, healthOf, type SloFigures, slosFor } from './embedding-slos.js';
import type { EmbeddingRegistry } from './registry.js';

/** How many error codes the worker section lists. */
const TOP_ERROR_CODES = 5;

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
  tenant: TenantDatabase,
  registry: EmbeddingRegistry,
  request: ObservabilityRequest,
): Promise<OperationData<'management.embeddings.observability'>> {
  const { database } = tenant;
  const since = new Date(request.now.getTime() - request.windowHours * 3_600_000);
  const coverageFigures = await coverage(tenant, request.scope, request.modelId);
  const backfill = await backfillStatus(tenant, request.scope, request.modelId, coverageFigures);
  const worker = await workerFigures(database, request.scope, since, request.modelFilter);
  const retrieval = await retrievalFigures(database, request.scope, since, request.modelFilter);
  const buckets = historyBuckets(request.now, request.windowHours);
  const history = await retrievalHistory(database, request.scope, buckets, request.modelFilter);
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
      topErrorCodes: topCodes(worker.errorCodes, await graphErrorCodesSince(database, since)),
    },
    backfill,
    retrieval,
    history: { bucketMinutes: buckets.bucketMinutes, points: history },
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
