import * as z from 'zod';
import { BackfillActionSchema, EmbeddingConfigSourceSchema, EmbeddingModelSourceSchema } from '../enums.js';
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
  /**
   * Additive fields, as the memories.sh model catalogue answers: a description and context window (null: not known
   * here), the price per input token as a decimal string (`pricing.input`) and a number (`inputCostUsdPerToken`),
   * and tags (`local` for a model that runs in the server).
   */
  description: z.string().nullable(),
  contextWindow: z.number().int().nullable(),
  pricing: z.object({ input: z.string().nullable() }),
  inputCostUsdPerToken: z.number().nullable(),
  tags: z.array(z.string()),
});

/** The resolved model selection and where it came from. */
export const EmbeddingsConfigSchema = z.object({
  selectedModelId: z.string(),
  /** Where the selection came from, in the memories.sh vocabulary (`EMBEDDING_CONFIG_SOURCES`). */
  source: EmbeddingConfigSourceSchema,
  /** The same, as writes name it in `embeddingModelSource` (`EMBEDDING_MODEL_SOURCES`); an additive field. */
  selectionSource: EmbeddingModelSourceSchema,
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
  /**
   * Additive fields, as memories.sh answers: the month, `estimatedRequestCount` (requests whose tokens the server
   * counted itself, those of in-process models, rather than a provider reporting them), `inputTokens`
   * (= `tokenCount`) and three costs, each `estimatedCostUsd` (the one figure this server has: tokens at the model's
   * list price).
   */
  usageMonth: z.string(),
  estimatedRequestCount: z.number().int(),
  inputTokens: z.number().int(),
  gatewayCostUsd: z.number(),
  marketCostUsd: z.number(),
  customerCostUsd: z.number(),
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
