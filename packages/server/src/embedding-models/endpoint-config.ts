import * as z from 'zod';

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
