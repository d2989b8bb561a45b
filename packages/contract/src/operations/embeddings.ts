import * as embeddings from '../resources/embeddings.js';
import { op, tenantCodes } from './define-operation.js';

/** The embedding model route (its usage, backfill and observability are management routes). */
export const embeddingOperations = {
  'embeddings.models': op({
    id: 'embeddings.models',
    method: 'GET',
    path: '/embeddings/models',
    summary: 'Embedding models and the resolved selection',
    description:
      'Lists the embedding models and the selection resolved for the scope (workspace default, project override, an optional requested model). Takes an API key or the admin token.',
    tag: 'embeddings',
    auth: 'apiKeyOrSession',
    scopeSource: 'fields',
    input: embeddings.EmbeddingModelsInputSchema,
    data: embeddings.EmbeddingModelsDataSchema,
    successStatus: 200,
    errorCodes: [...tenantCodes, 'EMBEDDING_MODEL_NOT_ALLOWED'],
  }),
} as const;
