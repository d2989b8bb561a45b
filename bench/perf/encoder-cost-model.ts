import { hashEmbedding } from '../../packages/server/src/embeddings/hash-vector.js';
import type { EmbeddingModelDefinition } from '../../packages/server/src/embeddings/model-definition.js';
import { createSentenceEncoderModel } from '../../packages/server/src/embeddings/sentence-encoder.js';

/**
 * `local/hash-<dimensions>` whose every call also runs the default sentence encoder (`local/use-lite-512`) on the same
 * texts, through the inference pool like any query, and discards its vectors: a store of hash vectors (which take
 * minutes to build at 100k, where the encoder would take hours on this machine) read with the encoder's cost on the
 * query path. The hash vectors are computed in-process, so the pool runs the encoder's batch alone, as it would for a
 * store of encoder vectors.
 */
export function hashWithEncoderCost(dimensions: number): EmbeddingModelDefinition {
  const encoder = createSentenceEncoderModel();
  return {
    id: `local/hash-${dimensions}`,
    dimensions,
    local: true,
    costPerMillionTokensUsd: 0,
    minSimilarity: 0.2,
    model: {
      specificationVersion: 'v4',
      provider: 'local',
      modelId: `hash-${dimensions}`,
      maxEmbeddingsPerCall: Number.POSITIVE_INFINITY,
      supportsParallelCalls: true,
      doEmbed: async (options) => {
        await encoder.doEmbed(options);
        return {
          embeddings: options.values.map((value) => Array.from(hashEmbedding(value, dimensions))),
          warnings: [],
        };
      },
    },
  };
}
