import * as z from 'zod';
import { ContextModeSchema, RolloutModeSchema } from '../enums.js';
import { DEFAULTS, LIMITS } from '../limits.js';
import { LegacyStrategySchema, StrategyInputSchema, StrategySchema } from '../strategy.js';
import { boundedInt, IndexPendingSchema, QuerySchema, scopeField } from './common.js';
import { ConflictPairSchema, RetrievedMemorySchema } from './memory.js';
import { SkillFileSchema } from './skill-file.js';
import { QueryTimeTraceSchema } from './time-window.js';

/** How the strategy of a call was chosen. */
export const PolicySelectionSchema = z.enum(['request', 'policy_default']);

/** `trace` of `context/get`: every field with the value that really applied. */
export const ContextTraceSchema = z.object({
  retrievalPolicyDefaultStrategy: StrategySchema,
  retrievalPolicyAppliedStrategy: StrategySchema,
  /**
   * `retrievalPolicyAppliedStrategy` under its legacy name (`LEGACY_STRATEGY_NAMES`), the field upstream memories.sh
   * clients require in a context trace.
   */
  strategy: LegacyStrategySchema,
  retrievalPolicySelection: PolicySelectionSchema,
  /**
   * The strategy the call asked for (the request's, aliases resolved, or the policy default), by name as memories.sh
   * sends it (the written contract does not type the field; upstream's clients read a strategy name).
   */
  semanticStrategyRequested: StrategySchema,
  /** The strategy that ran, after any fallback: `retrievalPolicyAppliedStrategy` (a strategy name, as upstream). */
  semanticStrategyApplied: StrategySchema,
  semanticFallbackTriggered: z.boolean(),
  semanticFallbackReason: z.string().nullable(),
  graphDepth: z.number().int(),
  graphLimit: z.number().int(),
  rolloutMode: RolloutModeSchema,
  shadowExecuted: z.boolean(),
  baselineCandidates: z.number().int(),
  graphCandidates: z.number().int(),
  graphExpandedCount: z.number().int(),
  conflictCount: z.number().int(),
  totalCandidates: z.number().int(),
  fallbackTriggered: z.boolean(),
  fallbackReason: z.string().nullable(),
  embeddingModel: z.string().nullable(),
  durationMs: z.number(),
  /** More live rules exist than the `LIMITS.contextRules.max` newest that were returned. */
  rulesTruncated: z.boolean(),
  /** Skill files among the best `DEFAULTS.contextSkillFiles` left out whole by `LIMITS.contextSkillFileBytes`. */
  skillFilesOmitted: z.number().int(),
  indexPending: IndexPendingSchema,
  /**
   * An additive field: what the query's time expressions did ("last week", "in March", "first"); absent when it has
   * none. Optional in the type because other servers of this contract do not send it.
   */
  time: QueryTimeTraceSchema.optional().describe(
    "How the query's time expressions narrowed, boosted or ordered the memories; absent when the query has none. An additive field.",
  ),
});
export type ContextTrace = z.infer<typeof ContextTraceSchema>;

const retrievalRequestFields = {
  query: QuerySchema.optional(),
  includeRules: z.boolean().default(DEFAULTS.includeRules),
  includeSkillFiles: z.boolean().default(DEFAULTS.includeSkillFiles),
  mode: ContextModeSchema.default(DEFAULTS.mode),
  strategy: StrategyInputSchema.optional(),
  graphDepth: boundedInt(LIMITS.graphDepth).default(DEFAULTS.graphDepth),
  graphLimit: boundedInt(LIMITS.graphLimit).default(DEFAULTS.graphLimit),
  ...scopeField,
};

// context/get
export const ContextGetInputSchema = z.strictObject({
  ...retrievalRequestFields,
  limit: boundedInt(LIMITS.retrievalLimit).default(DEFAULTS.contextLimit),
});
export const ContextGetDataSchema = z.object({
  mode: ContextModeSchema,
  query: z.string(),
  rules: z.array(RetrievedMemorySchema),
  memories: z.array(RetrievedMemorySchema),
  conflicts: z.array(ConflictPairSchema).optional(),
  skillFiles: z.array(SkillFileSchema),
  workingMemories: z.array(RetrievedMemorySchema),
  longTermMemories: z.array(RetrievedMemorySchema),
  trace: ContextTraceSchema,
});
export type ContextGetData = z.infer<typeof ContextGetDataSchema>;

// graph/trace: context/get with other defaults.
export const GraphTraceInputSchema = z.strictObject({
  ...retrievalRequestFields,
  limit: boundedInt(LIMITS.retrievalLimit).default(DEFAULTS.traceLimit),
});
export const GraphTraceTraceSchema = ContextTraceSchema.extend({
  retrievalPolicyReadyForDefaultOn: z.boolean(),
  retrievalPolicyBlockerCodes: z.array(z.string()),
});
export const RecallEntrySchema = z.object({
  rank: z.number().int(),
  memoryId: z.string(),
  score: z.number(),
  source: z.enum(['baseline', 'graph_expansion']),
  tier: z.enum(['rule', 'working', 'long_term']),
  graph: RetrievedMemorySchema.shape.graph,
});
export const GraphTraceDataSchema = z.object({
  mode: ContextModeSchema,
  includeRules: z.boolean(),
  query: z.string(),
  strategy: z.object({ requested: StrategyInputSchema.nullable(), applied: StrategyInputSchema }),
  trace: GraphTraceTraceSchema,
  tiers: z.object({ rule: z.array(z.string()), working: z.array(z.string()), longTerm: z.array(z.string()) }),
  recall: z.array(RecallEntrySchema),
  rules: z.array(RetrievedMemorySchema),
  memories: z.array(RetrievedMemorySchema),
});
