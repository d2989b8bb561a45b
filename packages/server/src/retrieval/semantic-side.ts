import { describeEmbeddingError } from '../embeddings/embedding-errors.js';
import type { EmbeddingRegistry } from '../embeddings/registry.js';
import { scopeModel } from '../embeddings/scope-model.js';
import { recordUsage } from '../embeddings/usage.js';
import { findVectorTable } from '../embeddings/vector-store.js';
import type { Database } from '../store/database.js';
import type { CandidateScope, RankedCandidate } from './candidate-filter.js';
import { queryTerms } from './fts-query.js';
import { similarities, vectorCandidates } from './semantic.js';

/** Why a hybrid request was answered lexically (the trace's `semanticFallbackReason`). */
export const SEMANTIC_FALLBACK_REASONS = {
  /** The query has no words to embed. */
  queryHasNoTerms: 'query_has_no_terms',
  /** No model was named and nothing in this scope was ever embedded. */
  modelNotConfigured: 'embedding_model_not_configured',
  /** The model is not registered, or its package or provider cannot be loaded. */
  modelUnavailable: 'embedding_model_unavailable',
  /** The model has no vectors in this database yet (the backfill fills them). */
  indexEmpty: 'semantic_index_empty',
  /** The model failed to embed the query (provider error, timeout, bad response). */
  embeddingFailed: 'embedding_failed',
  /** The vector search itself failed. */
  searchFailed: 'semantic_search_failed',
} as const;

/** The vector side of a hybrid request: candidates, or the reason there are none. */
export type SemanticSide =
  | {
      ok: true;
      modelId: string;
      candidates: RankedCandidate[];
      /** Which of the given memories (by `seq`) are related to the query: similarity at or above the model's floor. */
      related: (seqs: readonly number[]) => Promise<Set<number>>;
    }
  | { ok: false; modelId: string | null; reason: string };

/** What the vector side needs beyond the candidate filters. */
export interface SemanticRequest extends CandidateScope {
  query: string;
  limit: number;
  registry: EmbeddingRegistry;
  /** The model to embed the query with; by default the one this scope's memories were last written with. */
  embeddingModel?: string;
  now: Date;
}

/**
 * Embeds the query with the scope's model (metering the request) and finds its nearest memories. Every failure is
 * caught and named, so the caller can fall back to lexical and say why.
 */
export async function semanticSide(database: Database, request: SemanticRequest): Promise<SemanticSide> {
  const reasons = SEMANTIC_FALLBACK_REASONS;
  if (queryTerms(request.query).length === 0) return { ok: false, modelId: null, reason: reasons.queryHasNoTerms };
  const modelId = request.embeddingModel ?? (await scopeModel(database, request.scope.projectId));
  if (modelId === undefined) return { ok: false, modelId: null, reason: reasons.modelNotConfigured };
  const descriptor = request.registry.describe(modelId);
  if (descriptor === undefined || !descriptor.available)
    return { ok: false, modelId, reason: reasons.modelUnavailable };
  const table = await findVectorTable(database, modelId);
  if (table === undefined) return { ok: false, modelId, reason: reasons.indexEmpty };
  let vector: Float32Array | undefined;
  try {
    const result = await request.registry.embed(modelId, [request.query]);
    vector = result.embeddings[0];
    await recordUsage(
      database,
      {
        tenantId: request.scope.tenantId,
        projectId: request.scope.projectId,
        modelId,
        provider: result.model.provider,
        items: 1,
        tokens: result.tokens,
        costPerMillionTokensUsd: result.model.costPerMillionTokensUsd,
      },
      request.now,
    ).catch(() => undefined);
  } catch (error) {
    const unavailable = describeEmbeddingError(error).code === 'EMBEDDING_MODEL_UNAVAILABLE';
    return { ok: false, modelId, reason: unavailable ? reasons.modelUnavailable : reasons.embeddingFailed };
  }
  if (vector === undefined) return { ok: false, modelId, reason: reasons.embeddingFailed };
  try {
    const query = vector;
    return {
      ok: true,
      modelId,
      candidates: await vectorCandidates(database, table, query, {
        ...request,
        minSimilarity: descriptor.minSimilarity,
      }),
      related: async (seqs) => {
        const scores = await similarities(database, table, query, seqs);
        return new Set([...scores].filter(([, score]) => score >= descriptor.minSimilarity).map(([seq]) => seq));
      },
    };
  } catch {
    return { ok: false, modelId, reason: reasons.searchFailed };
  }
}
