import { registerAiSdkProviders } from './ai-sdk-providers.js';
import { endpointDefinition, endpointsFromEnvironment, priceOverrides } from './endpoint-config.js';
import { createHashEmbeddingModel, HASH_DIMENSIONS } from './hash-embedding.js';
import { EmbeddingRegistry } from './registry.js';
import {
  createSentenceEncoderModel,
  SENTENCE_ENCODER_DIMENSIONS,
  SENTENCE_ENCODER_MODEL_ID,
} from './sentence-encoder.js';

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
 * Adds what the environment configures: OpenAI-compatible endpoints, AI SDK providers with a key and an installed
 * package, then price overrides. Models the application registered first are kept. Throws on malformed configuration
 * (the message names the variable only).
 */
export async function configureFromEnvironment(
  registry: EmbeddingRegistry,
  environment: Record<string, string | undefined>,
): Promise<void> {
  for (const endpoint of endpointsFromEnvironment(environment)) {
    const definition = endpointDefinition(endpoint, environment);
    if (!registry.has(definition.id)) registry.register(definition);
  }
  await registerAiSdkProviders(registry, environment);
  for (const [id, price] of priceOverrides(environment)) registry.overridePrice(id, price);
}

let shared: EmbeddingRegistry | undefined;
let sharedReady: Promise<EmbeddingRegistry> | undefined;
let configurationError: string | null = null;

/**
 * The process-wide registry the server uses. Register injected AI SDK models on it before serving traffic:
 *
 * @example
 * defaultEmbeddingRegistry().register({ id: 'acme/embed-v2', dimensions: 768, local: false,
 *   costPerMillionTokensUsd: 0.05, model: myEmbeddingModel });
 */
export function defaultEmbeddingRegistry(): EmbeddingRegistry {
  shared ??= createBuiltInRegistry();
  return shared;
}

/**
 * The process-wide registry once the environment's providers are registered (configured once, from `process.env`).
 * Malformed configuration never breaks requests: the built-in models stay, and the problem is kept for
 * `embeddingConfigurationError()` (call this at start-up to surface it early).
 */
export function embeddingRegistryReady(): Promise<EmbeddingRegistry> {
  sharedReady ??= (async () => {
    const registry = defaultEmbeddingRegistry();
    try {
      await configureFromEnvironment(registry, process.env);
    } catch (error) {
      configurationError = error instanceof Error ? error.message : 'embedding configuration could not be read';
    }
    return registry;
  })();
  return sharedReady;
}

/** Why the environment's embedding configuration was not applied (it names the variable, never its value), or null. */
export function embeddingConfigurationError(): string | null {
  return configurationError;
}
