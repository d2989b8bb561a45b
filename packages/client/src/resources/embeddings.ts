import type { RequestOptions } from '../request-options.js';
import type { OperationCaller, QueryInput } from '../types.js';

/** `client.embeddings`: the embedding models the server offers and the resolved selection. */
export function createEmbeddingsResource(call: OperationCaller) {
  return {
    /** Lists embedding models and which one applies (request > project override > workspace default). */
    models: (query: QueryInput<'embeddings.models'> = {}, options?: RequestOptions) =>
      call('embeddings.models', query, options),
  };
}

/** The `client.embeddings` resource. */
export type EmbeddingsResource = ReturnType<typeof createEmbeddingsResource>;
