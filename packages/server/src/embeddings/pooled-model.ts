import type { EmbeddingModelV4 } from '@ai-sdk/provider';
import type { InferenceModel } from './inference-messages.js';
import { splitModelId } from './model-definition.js';
import { sharedInferencePool } from './shared-inference-pool.js';

/**
 * A local model as an AI SDK embedding model whose `doEmbed` hands the texts to the process's inference pool: the
 * model runs in a worker thread, batched with other callers' texts, and the event loop only waits.
 */
export function pooledEmbeddingModel(model: InferenceModel): EmbeddingModelV4 {
  const { provider, name } = splitModelId(model.name);
  return {
    specificationVersion: 'v4',
    provider,
    modelId: name,
    // The pool cuts and merges batches itself; one call per caller lets it keep each caller's texts together.
    maxEmbeddingsPerCall: Number.POSITIVE_INFINITY,
    supportsParallelCalls: true,
    doEmbed: async ({ values, abortSignal }) => {
      const vectors = await sharedInferencePool().embed(model, values, abortSignal);
      return { embeddings: vectors.map((vector) => Array.from(vector)), warnings: [] };
    },
  };
}
