import type { ServerConfig } from '../config.js';
import { SENTENCE_ENCODER_MODEL_ID } from '../embedding-models/default-model.js';
import { endpointDefinition } from './endpoint-definition.js';
import { createHashEmbeddingModel, HASH_DIMENSIONS } from './hash-embedding.js';
import type { EmbeddingModelDefinition } from './model-definition.js';
import { registerAiSdkProviders } from './register-ai-sdk-providers.js';
import { EmbeddingRegistry } from './registry.js';
import { createSentenceEncoderModel, SENTENCE_ENCODER_DIMENSIONS } from './sentence-encoder.js';

/** The built-in hashing model's id. */
export const HASH_MODEL_ID = `local/hash-${HASH_DIMENSIONS}`;

/** A registry with the two built-in offline models: `local/hash-384` and `local/use-lite-512`. */
export function createBuiltInRegistry(): EmbeddingRegistry {
  const registry = new EmbeddingRegistry();
  registry.register({
    id: HASH_MODEL_ID,
    dimensions: HASH_DIMENSIONS,
    local: true,
    costPerMillionTokensUsd: 0,
    // Unrelated texts score up to about 0.15 (shared trigrams, bucket collisions); a shared content word scores more.
    minSimilarity: 0.2,
    model: createHashEmbeddingModel(),
  });
  registry.register({
    id: SENTENCE_ENCODER_MODEL_ID,
    dimensions: SENTENCE_ENCODER_DIMENSIONS,
    local: true,
    costPerMillionTokensUsd: 0,
    // On the development conversations a random memory scored 0.28-0.5 against a question and 95% of the evidence
    // 0.3 or more: 0.25 drops only what is clearly unrelated (0.3 already cost recall).
    minSimilarity: 0.25,
    model: createSentenceEncoderModel(),
  });
  return registry;
}

/**
 * The registry a server uses, built from its configuration: the built-in models, then `models` (the application's
 * own, which win over what the configuration discovers), the configured OpenAI-compatible endpoints, the AI SDK
 * providers whose key is set (and package installed), then the configured price overrides.
 *
 * @example
 * const registry = await createEmbeddingRegistry(loadConfig(), [{ id: 'acme/embed-v2', dimensions: 768,
 *   local: false, costPerMillionTokensUsd: 0.05, model: myEmbeddingModel }]);
 */
export async function createEmbeddingRegistry(
  config: Pick<ServerConfig, 'embeddingEndpoints' | 'embeddingProviders' | 'embeddingPrices'>,
  models: readonly EmbeddingModelDefinition[] = [],
): Promise<EmbeddingRegistry> {
  const registry = createBuiltInRegistry();
  for (const model of models) registry.register(model);
  for (const endpoint of config.embeddingEndpoints) {
    const definition = endpointDefinition(endpoint);
    if (!registry.has(definition.id)) registry.register(definition);
  }
  await registerAiSdkProviders(registry, config.embeddingProviders);
  for (const [id, price] of Object.entries(config.embeddingPrices)) registry.overridePrice(id, price);
  return registry;
}
