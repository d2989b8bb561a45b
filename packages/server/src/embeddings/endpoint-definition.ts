import type { EndpointConfig } from '../embedding-models/endpoint-config.js';
import type { EmbeddingModelDefinition } from './model-definition.js';
import { createOpenAiCompatibleModel } from './openai-compatible.js';

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
