import * as z from 'zod';
import type { EmbeddingModelDefinition } from './model-definition.js';
import { createOpenAiCompatibleModel } from './openai-compatible.js';

/** One OpenAI-compatible endpoint as configured in `MEMORY_EMBEDDING_ENDPOINTS` (unknown fields are ignored). */
export const EndpointConfigSchema = z.looseObject({
  /** The model id to register, `provider/name` (default `openai-compatible/<model>`). */
  id: z.string().optional(),
  baseUrl: z.string(),
  model: z.string(),
  dimensions: z.number().int().positive(),
  /** The API key itself (prefer `apiKeyVariable`, which names an environment variable holding it). */
  apiKey: z.string().optional(),
  apiKeyVariable: z.string().optional(),
  costPerMillionTokensUsd: z.number().optional(),
  /** Cosine similarity floor of semantic candidates (default 0.2, see `DEFAULT_MIN_SIMILARITY`). */
  minSimilarity: z.number().optional(),
  timeoutMs: z.number().optional(),
});

/** One configured OpenAI-compatible endpoint (its `apiKeyVariable` already read into `apiKey` by `loadConfig`). */
export type EndpointConfig = z.output<typeof EndpointConfigSchema>;

/** A registry definition for a configured endpoint (remote: embedded on write, failures recorded, not fatal). */
export function endpointDefinition(endpoint: EndpointConfig, fetchFunction?: typeof fetch): EmbeddingModelDefinition {
  const id = endpoint.id ?? `openai-compatible/${endpoint.model}`;
  const { apiKey } = endpoint;
  return {
    id,
    dimensions: endpoint.dimensions,
    local: false,
    costPerMillionTokensUsd: endpoint.costPerMillionTokensUsd ?? 0,
    ...(endpoint.minSimilarity === undefined ? {} : { minSimilarity: endpoint.minSimilarity }),
    model: createOpenAiCompatibleModel({
      baseUrl: endpoint.baseUrl,
      model: endpoint.model,
      apiKey,
      provider: id.split('/')[0] ?? 'openai-compatible',
      ...(endpoint.timeoutMs === undefined ? {} : { timeoutMs: endpoint.timeoutMs }),
      ...(fetchFunction ? { fetch: fetchFunction } : {}),
    }),
  };
}
