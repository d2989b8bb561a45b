import * as z from 'zod';
import { EvalStatusSchema, TriggerHintSchema } from '../enums.js';
import { LIMITS } from '../limits.js';
import { ProjectIdSchema, ResolvedScopeSchema, TenantIdSchema, UserIdSchema } from '../scope.js';

const ratio = z.number().min(0).max(1);
const TriggerValueSchema = z.union([TriggerHintSchema, z.literal('none')]);

/** One expected or observed fact, or one fact a summary must keep. */
const FactSchema = z.string().max(LIMITS.evalFacts.itemMax);
const FactListSchema = z.array(FactSchema).max(LIMITS.evalFacts.maxItems);

export const EvalScenarioSchema = z.strictObject({
  id: z.string().min(LIMITS.evalScenarioId.min).max(LIMITS.evalScenarioId.max),
  extraction: z.strictObject({ expected: FactListSchema, observed: FactListSchema }),
  /** Facts a compaction summary must keep, and the summary produced. */
  compaction: z
    .strictObject({ requiredFacts: FactListSchema, summary: z.string().max(LIMITS.evalSummary.max) })
    .optional(),
  trigger: z.strictObject({ expected: TriggerValueSchema, observed: TriggerValueSchema }).optional(),
});

export const EvalReplayInputSchema = z.strictObject({
  tenantId: TenantIdSchema.optional(),
  projectId: ProjectIdSchema.optional(),
  userId: UserIdSchema.optional(),
  passCriteria: z
    .strictObject({
      extractionF1: ratio.default(0.8),
      compactionRetention: ratio.default(0.9),
      triggerAccuracy: ratio.default(0.9),
      casePassRatio: ratio.default(0.8),
    })
    .prefault({}),
  scenarios: z.array(EvalScenarioSchema).min(1).max(LIMITS.evalScenarios.max),
});

const ExtractionScoreSchema = z.object({
  precision: z.number(),
  recall: z.number(),
  f1: z.number(),
  truePositives: z.number().int(),
  falsePositives: z.number().int(),
  falseNegatives: z.number().int(),
});

export const EvalReplayDataSchema = z.object({
  scope: ResolvedScopeSchema,
  summary: z.object({
    cases: z.number().int(),
    passed: z.number().int(),
    warned: z.number().int(),
    failed: z.number().int(),
    extractionF1: z.number(),
    extractionPrecision: z.number(),
    extractionRecall: z.number(),
    compactionRetention: z.number().nullable(),
    triggerAccuracy: z.number().nullable(),
    casePassRatio: z.number(),
    status: EvalStatusSchema,
  }),
  scenarios: z.array(
    z.object({
      id: z.string(),
      status: EvalStatusSchema,
      extraction: ExtractionScoreSchema,
      compaction: z
        .object({
          retention: z.number(),
          retained: z.number().int(),
          required: z.number().int(),
          missing: z.array(z.string()),
        })
        .nullable(),
      trigger: z.object({ expected: z.string(), observed: z.string(), match: z.boolean() }).nullable(),
      reasons: z.array(z.string()),
    }),
  ),
});
