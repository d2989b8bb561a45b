import type { ResolvedScope } from '@memory-service/contract';
import { ApiError } from '../api-error.js';
import { describeEmbeddingError } from '../embeddings/embedding-errors.js';
import type { EmbeddingRegistry } from '../embeddings/registry.js';
import type { Database } from '../store/database.js';
import { usageStatement } from '../store/embedding-usage.js';
import type { ScopeRanking } from '../store/scope-ranking.js';
import type { VectorTable } from '../store/vector-tables.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import type { CandidateScope, RankedCandidate } from './candidate-filter.js';
import { queryTerms, wordsOf } from './fts-query.js';
import { closestSimilarities, similarities, vectorNeighbourLists, withRows } from './semantic.js';

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

/** The query's vectors of the scope's model, with what searching them needs; or the reason there are none. */
export type QueryEmbedding =
  | {
      ok: true;
      modelId: string;
      table: VectorTable;
      /**
       * One vector per query text (`queryTexts`), the whole question's first: each gets its own ranked list, and
       * fusion splits the semantic weight evenly between them.
       */
      vectors: Float32Array[];
      /** The model's similarity floor: below it a neighbour is not related. */
      minSimilarity: number;
    }
  | { ok: false; modelId: string | null; reason: string };

/** What embedding a query needs. */
export interface QueryEmbeddingRequest {
  query: string;
  scope: ResolvedScope;
  registry: EmbeddingRegistry;
  /** The model to embed the query with; by default the one this scope's memories were last written with. */
  embeddingModel?: string;
  now: Date;
}

/**
 * Local models (no per-token cost, no network call) also embed the query's content words alone, the text the lexical
 * side searches for (`queryTerms`: stopwords dropped), as a second query vector with its own ranked list. A small
 * sentence encoder's vector of a whole question leans on its form ("What ... has Joanna ...?"); the content words'
 * vector leans on the subject, and each finds evidence the other ranks low. Fused as two lists they beat either
 * alone and their mean vector: on the development conversations with `local/use-lite-512`, hybrid recall@10 0.745
 * vs 0.737 (mean vector 0.740), recall@5 0.645 vs 0.613, MRR 0.528 vs 0.487, better in each of the 5 conversations.
 * Paid models keep one query vector: the second would nearly double the query's embedding tokens.
 */
export const CONTENT_WORDS_VECTOR = true;

/**
 * The texts to embed for a query: the query, then its content words when `CONTENT_WORDS_VECTOR` applies to the model
 * and they differ from the query's own words (a query of keywords only gets one vector).
 */
export function queryTexts(query: string, local: boolean): string[] {
  const content = queryTerms(query).join(' ');
  const own = [...wordsOf(query)].join(' ');
  return CONTENT_WORDS_VECTOR && local && content !== own ? [query, content] : [query];
}

/**
 * Embeds the query with the scope's model (metering what the model embedded; a query asked before reuses its vectors,
 * `EmbeddingRegistry.embedQuery`). It needs nothing of the lexical side, so a hybrid request starts it first and
 * searches words while the model runs. Every failure of the model is caught and named, so the caller can fall back to
 * lexical and say why; the server's own refusals (`ApiError`: SERVER_BUSY, a passed deadline) propagate.
 */
export async function embedQuery(tenant: TenantDatabase, request: QueryEmbeddingRequest): Promise<QueryEmbedding> {
  const reasons = SEMANTIC_FALLBACK_REASONS;
  if (queryTerms(request.query).length === 0) return { ok: false, modelId: null, reason: reasons.queryHasNoTerms };
  const modelId = request.embeddingModel ?? (await tenant.scopeModels.modelFor(request.scope.projectId));
  if (modelId === undefined) return { ok: false, modelId: null, reason: reasons.modelNotConfigured };
  const descriptor = request.registry.describe(modelId);
  if (descriptor === undefined || !descriptor.available)
    return { ok: false, modelId, reason: reasons.modelUnavailable };
  const table = await tenant.vectorTables.find(modelId);
  if (table === undefined) return { ok: false, modelId, reason: reasons.indexEmpty };
  const texts = queryTexts(request.query, descriptor.local);
  let vectors: Float32Array[];
  try {
    const result = await request.registry.embedQuery(modelId, texts, { partition: tenant.key });
    vectors = result.embeddings;
    // Metered through the log buffer: a read never waits for a write transaction. Reused vectors cost nothing.
    if (result.cached < texts.length)
      tenant.database.logs.append(
        usageStatement(
          {
            tenantId: request.scope.tenantId,
            projectId: request.scope.projectId,
            modelId,
            provider: result.model.provider,
            items: texts.length - result.cached,
            tokens: result.tokens,
            costPerMillionTokensUsd: result.model.costPerMillionTokensUsd,
          },
          request.now,
        ),
      );
  } catch (error) {
    // The server refusing work (SERVER_BUSY: the local model's queue is full) or a request past its deadline is not a
    // model failure: the request answers it, with its Retry-After, rather than a lexical answer the client takes as all.
    if (error instanceof ApiError) throw error;
    const unavailable = describeEmbeddingError(error).code === 'EMBEDDING_MODEL_UNAVAILABLE';
    return { ok: false, modelId, reason: unavailable ? reasons.modelUnavailable : reasons.embeddingFailed };
  }
  if (vectors.length === 0 || vectors.length !== texts.length)
    return { ok: false, modelId, reason: reasons.embeddingFailed };
  return { ok: true, modelId, table, vectors, minSimilarity: descriptor.minSimilarity };
}

/** A query embedding that succeeded. */
export type Embedded = Extract<QueryEmbedding, { ok: true }>;

/**
 * The nearest memories to each query vector, one ranked list per vector (`vectorNeighbourLists`: a narrow scope of a
 * larger tenant ranked exactly in one statement, any other searched in the index, each vector at once on as many
 * database workers as are free); the lists' rows are then read in one statement. `ranking` is `scopeRanking`'s answer
 * when the caller counted the scope while the query was embedded. Throws when a search fails.
 */
export async function vectorLists(
  database: Database,
  embedding: Embedded,
  options: CandidateScope & { limit: number },
  ranking?: Promise<ScopeRanking>,
): Promise<RankedCandidate[][]> {
  const { table, vectors, minSimilarity } = embedding;
  return withRows(
    database,
    await vectorNeighbourLists(database, table, vectors, { ...options, minSimilarity }, ranking),
  );
}

/** Which of the given memories (by `seq`) are related to the query: the question's similarity at the floor or more. */
export async function relatedMemories(
  database: Database,
  embedding: Embedded,
  seqs: readonly number[],
): Promise<Set<number>> {
  const scores = await similarities(database, embedding.table, embedding.vectors[0] as Float32Array, seqs);
  return new Set([...scores].filter(([, score]) => score >= embedding.minSimilarity).map(([seq]) => seq));
}

/** The given memories' cosine similarity to the closest of the query's vectors (memories without a vector: none). */
export function querySimilarities(
  database: Database,
  embedding: Embedded,
  seqs: readonly number[],
): Promise<Map<number, number>> {
  return closestSimilarities(database, embedding.table, embedding.vectors, seqs);
}
