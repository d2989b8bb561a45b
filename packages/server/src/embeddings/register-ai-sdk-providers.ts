import { AI_SDK_PROVIDERS } from '../embedding-models/ai-sdk-providers.js';
import { DEFAULT_MIN_SIMILARITY, type EmbeddingModelObject } from './model-definition.js';
import type { EmbeddingRegistry } from './registry.js';

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
