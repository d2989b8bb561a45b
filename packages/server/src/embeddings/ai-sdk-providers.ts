import { DEFAULT_MIN_SIMILARITY, type EmbeddingModelObject } from './model-definition.js';
import type { EmbeddingRegistry } from './registry.js';

/** An AI SDK provider package and the embedding models it offers, with list prices (USD per million tokens). */
interface ProviderCatalogEntry {
  provider: string;
  packageName: string;
  exportName: string;
  apiKeyVariable: string;
  models: ReadonlyArray<{ name: string; dimensions: number; costPerMillionTokensUsd: number }>;
}

/**
 * Providers registered when their API key variable is set and their package is installed beside the server. The
 * packages are not dependencies of the server: install the one you use. Prices are the providers' published list
 * prices when this table was written; override them with `MEMORY_EMBEDDING_PRICES`.
 */
export const AI_SDK_PROVIDERS: readonly ProviderCatalogEntry[] = [
  {
    provider: 'openai',
    packageName: '@ai-sdk/openai',
    exportName: 'openai',
    apiKeyVariable: 'OPENAI_API_KEY',
    models: [
      { name: 'text-embedding-3-small', dimensions: 1536, costPerMillionTokensUsd: 0.02 },
      { name: 'text-embedding-3-large', dimensions: 3072, costPerMillionTokensUsd: 0.13 },
    ],
  },
  {
    provider: 'google',
    packageName: '@ai-sdk/google',
    exportName: 'google',
    apiKeyVariable: 'GOOGLE_GENERATIVE_AI_API_KEY',
    models: [{ name: 'gemini-embedding-001', dimensions: 3072, costPerMillionTokensUsd: 0.15 }],
  },
  {
    provider: 'mistral',
    packageName: '@ai-sdk/mistral',
    exportName: 'mistral',
    apiKeyVariable: 'MISTRAL_API_KEY',
    models: [{ name: 'mistral-embed', dimensions: 1024, costPerMillionTokensUsd: 0.1 }],
  },
  {
    provider: 'cohere',
    packageName: '@ai-sdk/cohere',
    exportName: 'cohere',
    apiKeyVariable: 'COHERE_API_KEY',
    models: [
      { name: 'embed-english-v3.0', dimensions: 1024, costPerMillionTokensUsd: 0.1 },
      { name: 'embed-multilingual-v3.0', dimensions: 1024, costPerMillionTokensUsd: 0.1 },
    ],
  },
];

type EmbeddingFactory = (name: string) => EmbeddingModelObject;

/** The provider object's embedding factory (`embeddingModel` in spec V4, `textEmbeddingModel` before). */
function factoryOf(module: unknown, exportName: string): EmbeddingFactory | undefined {
  const provider = (module as Record<string, unknown> | null)?.[exportName] as Record<string, unknown> | undefined;
  const factory = provider?.embeddingModel ?? provider?.textEmbeddingModel;
  return typeof factory === 'function' ? (name: string) => factory.call(provider, name) : undefined;
}

/**
 * Registers every catalog model whose provider is keyed (its API key variable is set, see `loadConfig`) and whose
 * package is importable; the others are declared unavailable so `GET /embeddings/models` still lists them.
 */
export async function registerAiSdkProviders(
  registry: EmbeddingRegistry,
  keyedProviders: readonly string[],
): Promise<void> {
  for (const entry of AI_SDK_PROVIDERS) {
    let factory: EmbeddingFactory | undefined;
    if (keyedProviders.includes(entry.provider)) {
      const specifier = entry.packageName;
      factory = await import(specifier).then(
        (module: unknown) => factoryOf(module, entry.exportName),
        () => undefined,
      );
    }
    for (const model of entry.models) {
      const id = `${entry.provider}/${model.name}`;
      if (registry.has(id)) continue; // an application-registered model wins over discovery
      const base = {
        id,
        dimensions: model.dimensions,
        local: false,
        costPerMillionTokensUsd: model.costPerMillionTokensUsd,
      };
      if (factory === undefined) {
        registry.declareUnavailable({
          ...base,
          provider: entry.provider,
          name: model.name,
          minSimilarity: DEFAULT_MIN_SIMILARITY,
        });
      } else {
        const create = factory;
        registry.register({ ...base, model: async () => create(model.name) });
      }
    }
  }
}
