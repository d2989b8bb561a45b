import * as z from 'zod';
import { GraphHealthSchema } from '../enums.js';
import { DEFAULTS, LIMITS } from '../limits.js';
import { ResolvedScopeSchema, scopeQueryShape } from '../scope.js';
import { boundedInt, queryInt, scopeField, TimestampSchema } from './common.js';
import { AlarmSchema } from './observability.js';
import { QualityGateSchema, RolloutSchema, ShadowMetricsSchema } from './rollout.js';

export const GraphStatusGetInputSchema = z.strictObject({
  topNodesLimit: queryInt(LIMITS.topNodesLimit).default(DEFAULTS.topNodesLimit),
  ...scopeQueryShape,
});
export const GraphStatusPostInputSchema = z.strictObject({
  topNodesLimit: boundedInt(LIMITS.topNodesLimit).default(DEFAULTS.topNodesLimit),
  ...scopeField,
});
export const GraphStatusDataSchema = z.object({
  enabled: z.boolean(),
  flags: z.record(z.string(), z.boolean()),
  health: GraphHealthSchema,
  tables: z.record(z.string(), z.boolean()),
  counts: z.object({
    memories: z.number().int(),
    nodes: z.number().int(),
    edges: z.number().int(),
    memoryLinks: z.number().int(),
    nodesByType: z.record(z.string(), z.number().int()),
    edgesByType: z.record(z.string(), z.number().int()),
  }),
  rollout: RolloutSchema,
  shadowMetrics: ShadowMetricsSchema,
  qualityGate: QualityGateSchema,
  alarms: z.array(AlarmSchema),
  topConnectedNodes: z.array(
    z.object({ id: z.string(), type: z.string(), label: z.string(), degree: z.number().int() }),
  ),
  recentErrors: z.array(z.object({ code: z.string(), message: z.string(), createdAt: TimestampSchema })),
  sampledAt: TimestampSchema,
  scope: ResolvedScopeSchema,
});
