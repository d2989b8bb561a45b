import type { EmbeddingModelV4 } from '@ai-sdk/provider';
import { HASH_DIMENSIONS } from './hash-vector.js';
import { pooledEmbeddingModel } from './pooled-model.js';

export { embeddingWords, HASH_DIMENSIONS, hashEmbedding } from './hash-vector.js';

/**
 * `local/hash-384` as an AI SDK embedding model. The hashing runs in the inference pool's workers, as every local
 * model does: cheap per text, but a large batch (a backfill) would still hold the event loop.
 */
export function createHashEmbeddingModel(dimensions = HASH_DIMENSIONS): EmbeddingModelV4 {
  return pooledEmbeddingModel({ name: `local/hash-${dimensions}`, source: { builtIn: 'hash' }, dimensions });
}
