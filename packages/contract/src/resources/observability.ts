import * as z from 'zod';
import { HealthSchema } from '../enums.js';
import { DEFAULTS, LIMITS } from '../limits.js';
import { ResolvedScopeSchema, scopeQueryShape } from '../scope.js';
import { EmbeddingModelIdSchema, IndexPendingSchema, queryInt } from './common.js';
import { BackfillStatusSchema } from './embeddings.js';

/** An alarm raised by an observability report. */
export const AlarmSchema = z.object({
  code: z.string(),
  severity: z.enum(['warning', 'critical']),
  message: z.string(),
  value: z.number(),
  threshold: z.number(),
});

/**
 * An additive field of both observability reports: the window cut into equal buckets (oldest first; the last one
 * ends at the time of the answer), each with its figures, computed from what the server stored, so a chart has a
 * history the moment it opens. Optional in the type (another implementation may not send it); this server always
 * does.
 */
function historyOf<Point extends z.ZodRawShape>(point: Point) {
  return z
    .object({
      bucketMinutes: z.number().int().positive(),
      points: z.array(z.object({ at: z.iso.datetime(), ...point })),
    })
    .optional()
    .describe(
      'The window in equal buckets, oldest first, each starting at `at` and lasting bucketMinutes (the last one ends at the time of the answer), from what the server stored. An additive field.',
    );
}

/** One bucket of retrieval figures: as `retrieval`, over the bucket's requests. */
export const RetrievalHistorySchema = historyOf({
  requests: z.number().int(),
  semanticRequests: z.number().int(),
  fallbackRate: z.number(),
  p50LatencyMs: z.number().nullable(),
  p95LatencyMs: z.number().nullable(),
});

/** One bucket of lifecycle events: memories created, updated and deleted (forgotten, expired or merged). */
export const LifecycleHistorySchema = historyOf({
  created: z.number().int(),
  updated: z.number().int(),
  deleted: z.number().int(),
});

// management/embeddings/observability
export const EmbeddingsObservabilityInputSchema = z.strictObject({
  ...scopeQueryShape,
  modelId: EmbeddingModelIdSchema.optional(),
  usageMonth: z.iso.date().optional(),
  windowHours: queryInt(LIMITS.embeddingsWindowHours).default(DEFAULTS.embeddingsWindowHours),
});
export const EmbeddingsObservabilityDataSchema = z.object({
  scope: ResolvedScopeSchema,
  windowHours: z.number().int(),
  queue: z.object({
    pending: z.number().int(),
    oldestPendingAgeSeconds: z.number().nullable(),
    indexPending: IndexPendingSchema,
  }),
  worker: z.object({
    processed: z.number().int(),
    failed: z.number().int(),
    errorRate: z.number(),
    topErrorCodes: z.array(z.object({ code: z.string(), count: z.number().int() })),
  }),
  backfill: BackfillStatusSchema,
  retrieval: z.object({
    requests: z.number().int(),
    semanticRequests: z.number().int(),
    semanticFallbacks: z.number().int(),
    fallbackRate: z.number(),
    p50LatencyMs: z.number().nullable(),
    p95LatencyMs: z.number().nullable(),
  }),
  history: RetrievalHistorySchema,
  cost: z.object({ usageMonth: z.string(), tokenCount: z.number().int(), estimatedCostUsd: z.number() }),
  slos: z.object({
    maxFallbackRate: z.number(),
    maxErrorRate: z.number(),
    maxP95LatencyMs: z.number(),
    fallbackRateMet: z.boolean(),
    errorRateMet: z.boolean(),
    latencyMet: z.boolean(),
  }),
  alarms: z.array(AlarmSchema),
  health: HealthSchema,
});

// management/memory/observability
export const MemoryObservabilityInputSchema = z.strictObject({
  ...scopeQueryShape,
  windowHours: queryInt(LIMITS.memoryWindowHours).default(DEFAULTS.memoryWindowHours),
});
export const MemoryObservabilityDataSchema = z.object({
  scope: ResolvedScopeSchema,
  windowHours: z.number().int(),
  lifecycle: z.object({
    created: z.number().int(),
    updated: z.number().int(),
    deleted: z.number().int(),
    active: z.number().int(),
    total: z.number().int(),
  }),
  history: LifecycleHistorySchema,
  compaction: z.object({
    sessionsStarted: z.number().int(),
    sessionsClosed: z.number().int(),
    sessionsCompacted: z.number().int(),
    triggerMix: z.record(z.string(), z.number().int()),
    checkpoints: z.number().int(),
    checkpointCoverage: z.number(),
  }),
  consolidation: z.object({
    runs: z.number().int(),
    dryRuns: z.number().int(),
    inputCount: z.number().int(),
    mergedCount: z.number().int(),
    supersededCount: z.number().int(),
    conflictedCount: z.number().int(),
    conflictRate: z.number(),
  }),
  contradictions: z.object({
    windowTotal: z.number().int(),
    dailyTrend: z.array(z.object({ date: z.string(), count: z.number().int() })),
  }),
  alarms: z.array(AlarmSchema),
  health: HealthSchema,
});
