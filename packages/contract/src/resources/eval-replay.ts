import * as z from 'zod';
import { EvalStatusSchema, TriggerHintSchema } from '../enums.js';
import { LIMITS } from '../limits.js';
import { ProjectIdSchema, ResolvedScopeSchema, TenantIdSchema, UserIdSchema } from '../scope.js';

const ratio = z.number().min(0).max(1);
const TriggerValueSchema = z.union([TriggerHintSchema, z.literal('none')]);

export const EvalScenarioSchema = z.object({
  id: z.string().min(1).max(200),
  extraction: z.object({
    expected: z.array(z.string().max(4000)).max(1000),
    observed: z.array(z.string().max(4000)).max(1000),
  }),
  /** Facts a compaction summary must keep, and the summary produced. */
  compaction: z
    .object({ requiredFacts: z.array(z.string().max(4000)).max(1000), summary: z.string().max(200000) })
    .optional(),
  trigger: z.object({ expected: TriggerValueSchema, observed: TriggerValueSchema }).optional(),
});

export const EvalReplayInputSchema = z.object({
  tenantId: TenantIdSchema.optional(),
  projectId: ProjectIdSchema.optional(),
  userId: UserIdSchema.optional(),
  passCriteria: z
    .object({
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
