import * as z from 'zod';
import { QualityStatusSchema, RolloutModeSchema } from '../enums.js';
import { ProjectIdSchema, ResolvedScopeSchema, scopeQueryShape, TenantIdSchema } from '../scope.js';
import { StrategySchema } from '../strategy.js';
import { TimestampSchema } from './common.js';

/** The rollout mode of a scope. */
export const RolloutSchema = z.object({
  mode: RolloutModeSchema,
  updatedAt: TimestampSchema.nullable(),
  updatedBy: z.string().nullable(),
});

/** Metrics recorded on every context call over the gate's window. */
export const ShadowMetricsSchema = z.object({
  windowHours: z.number(),
  totalRequests: z.number().int(),
  shadowExecutions: z.number().int(),
  hybridSamples: z.number().int(),
  averageGraphCandidates: z.number(),
  expansionCoverage: z.number(),
  fallbackRate: z.number(),
  graphErrorFallbackRate: z.number(),
  averageLatencyMs: z.number(),
  previousWindow: z.object({ fallbackRate: z.number(), graphErrorFallbackRate: z.number(), samples: z.number().int() }),
});
export type ShadowMetrics = z.infer<typeof ShadowMetricsSchema>;

/** Thresholds of the quality gate (docs/architecture.md#retrieval). */
export const QualityThresholdsSchema = z.object({
  minHybridSamples: z.number().int(),
  maxFallbackRate: z.number(),
  maxGraphErrorFallbackRate: z.number(),
  maxFallbackRegression: z.number(),
  maxGraphErrorRegression: z.number(),
  minExpansionCoverage: z.number(),
  minShadowExecutionsForCanary: z.number().int(),
  minAverageGraphCandidatesForCanary: z.number(),
});

/** The quality gate's verdict. */
export const QualityGateSchema = z.object({
  status: QualityStatusSchema,
  passed: z.boolean(),
  reasonCodes: z.array(z.string()),
  windowHours: z.number(),
  thresholds: QualityThresholdsSchema,
  evaluatedAt: TimestampSchema,
});
export type QualityGate = z.infer<typeof QualityGateSchema>;

/** The plan towards making hybrid the default. */
export const RolloutPlanSchema = z.object({
  recommendedMode: RolloutModeSchema,
  defaultBehaviorDecision: z.enum(['keep_lexical', 'promote_hybrid', 'hybrid_default']),
  readyForDefaultOn: z.boolean(),
  blockerCodes: z.array(z.string()),
  baseline: z.object({
    fallbackRateGap: z.number(),
    expansionCoverageGap: z.number(),
    hybridSamplesGap: z.number().int(),
    shadowExecutionsGap: z.number().int(),
  }),
  slo: z.object({
    maxFallbackRate: z.number(),
    maxGraphErrorFallbackRate: z.number(),
    minExpansionCoverage: z.number(),
    minHybridSamples: z.number().int(),
    minShadowExecutions: z.number().int(),
    requiredReadyWindows: z.number().int(),
  }),
  autopilot: z.object({ enabled: z.boolean(), applied: z.boolean(), reason: z.string().nullable() }),
});

/** The tenant's retrieval policy: which strategy a call gets when it names none. */
export const RetrievalPolicySchema = z.object({
  defaultStrategy: StrategySchema,
  readyWindowStreak: z.number().int(),
  lastDecision: z.string().nullable(),
  lastEvaluatedAt: TimestampSchema.nullable(),
  updatedAt: TimestampSchema.nullable(),
  updatedBy: z.string().nullable(),
});
export type RetrievalPolicy = z.infer<typeof RetrievalPolicySchema>;

export const RolloutGetInputSchema = z.strictObject({ ...scopeQueryShape });
export const RolloutSetInputSchema = z.strictObject({
  mode: RolloutModeSchema,
  scope: z.strictObject({ tenantId: TenantIdSchema.optional(), projectId: ProjectIdSchema.optional() }).optional(),
});
export const RolloutDataSchema = z.object({
  rollout: RolloutSchema,
  shadowMetrics: ShadowMetricsSchema,
  qualityGate: QualityGateSchema,
  rolloutPlan: RolloutPlanSchema,
  retrievalPolicy: RetrievalPolicySchema,
  scope: ResolvedScopeSchema,
});
