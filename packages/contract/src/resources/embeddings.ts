import * as z from 'zod';
import { BackfillActionSchema, EmbeddingModelSourceSchema } from '../enums.js';
import { DEFAULTS, LIMITS } from '../limits.js';
import { ProjectIdSchema, ResolvedScopeSchema, scopeQueryShape, TenantIdSchema } from '../scope.js';
import { boundedInt, EmbeddingModelIdSchema, queryInt, scopeField, TimestampSchema } from './common.js';

/** An embedding model the server can use. */
export const EmbeddingModelInfoSchema = z.object({
  id: z.string(),
  provider: z.string(),
  name: z.string(),
  dimensions: z.number().int(),
  available: z.boolean(),
  allowed: z.boolean(),
  local: z.boolean(),
  costPerMillionTokensUsd: z.number(),
});

/** The resolved model selection and where it came from. */
export const EmbeddingsConfigSchema = z.object({
  selectedModelId: z.string(),
  source: EmbeddingModelSourceSchema,
  workspaceDefaultModelId: z.string(),
  projectOverrideModelId: z.string().nullable(),
  allowlistModelIds: z.array(z.string()),
});

export const EmbeddingModelsInputSchema = z.strictObject({
  tenantId: TenantIdSchema.optional(),
  projectId: ProjectIdSchema.optional(),
  embeddingModel: EmbeddingModelIdSchema.optional(),
});
export const EmbeddingModelsDataSchema = z.object({
  models: z.array(EmbeddingModelInfoSchema),
  config: EmbeddingsConfigSchema,
});

const UsageFiguresSchema = z.object({
  requestCount: z.number().int(),
  itemCount: z.number().int(),
  tokenCount: z.number().int(),
  estimatedCostUsd: z.number(),
});

export const EmbeddingsUsageInputSchema = z.strictObject({
  usageMonth: z.iso.date().optional(),
  tenantId: TenantIdSchema.optional(),
  projectId: ProjectIdSchema.optional(),
  limit: queryInt(LIMITS.usageLimit).default(DEFAULTS.usageLimit),
});
export const EmbeddingsUsageDataSchema = z.object({
  usageMonth: z.string(),
  summary: UsageFiguresSchema,
  breakdown: z.array(
    UsageFiguresSchema.extend({
      tenantId: z.string().nullable(),
      projectId: z.string().nullable(),
      modelId: z.string(),
      provider: z.string(),
    }),
  ),
});

/** Backfill progress for a scope and model. */
export const BackfillStatusSchema = z.object({
  modelId: z.string(),
  state: z.enum(['idle', 'running', 'paused', 'completed']),
  paused: z.boolean(),
  total: z.number().int(),
  embedded: z.number().int(),
  remaining: z.number().int(),
  failed: z.number().int(),
  lastRunAt: TimestampSchema.nullable(),
  lastError: z.string().nullable(),
  updatedAt: TimestampSchema.nullable(),
});
export const BackfillGetInputSchema = z.strictObject({
  ...scopeQueryShape,
  modelId: EmbeddingModelIdSchema.optional(),
});
export const BackfillPostInputSchema = z.strictObject({
  action: BackfillActionSchema,
  batchSize: boundedInt(LIMITS.backfillBatchSize).default(DEFAULTS.backfillBatchSize),
  modelId: EmbeddingModelIdSchema.optional(),
  ...scopeField,
});
export const BackfillDataSchema = z.object({
  scope: ResolvedScopeSchema,
  backfill: BackfillStatusSchema,
  action: BackfillActionSchema.nullable(),
  batch: z.object({ processed: z.number().int(), failed: z.number().int() }).nullable(),
  message: z.string(),
});
