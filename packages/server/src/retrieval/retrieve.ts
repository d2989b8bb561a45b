import type { ResolvedScope, Strategy } from '@memory-service/contract';
import type { Database } from '../store/database.js';
import { lexicalSearch, type ScoredRow } from './lexical.js';

/** What to retrieve. */
export interface RetrievalRequest {
  query: string;
  scope: ResolvedScope;
  /** How many candidates to return. */
  limit: number;
  strategy: Strategy;
  type?: string;
  layer?: string;
  excludeLayer?: string;
  recencyFallback: boolean;
}

/** Candidates in rank order and the facts the traces report. */
export interface RetrievalOutcome {
  candidates: ScoredRow[];
  requestedStrategy: Strategy;
  appliedStrategy: Strategy;
  lexicalCandidates: number;
  semanticCandidates: number;
  fallbackTriggered: boolean;
  fallbackReason: string | null;
  semanticFallbackTriggered: boolean;
  semanticFallbackReason: string | null;
  embeddingModel: string | null;
}

/** Why a hybrid request is answered lexically by this build: no vector index exists yet. */
export const SEMANTIC_UNAVAILABLE = 'semantic_index_unavailable';

/**
 * Retrieves candidates with the requested strategy. Lexical is FTS5 BM25; a hybrid request that cannot be
 * served semantically answers lexically and says so (`semanticFallbackTriggered`, reason), never silently.
 */
export async function retrieve(database: Database, request: RetrievalRequest): Promise<RetrievalOutcome> {
  const lexical = await lexicalSearch(database, {
    query: request.query,
    scope: request.scope,
    limit: request.limit,
    recencyFallback: request.recencyFallback,
    ...(request.type === undefined ? {} : { type: request.type }),
    ...(request.layer === undefined ? {} : { layer: request.layer }),
    ...(request.excludeLayer === undefined ? {} : { excludeLayer: request.excludeLayer }),
  });
  const semanticRequested = request.strategy === 'hybrid';
  return {
    candidates: lexical.candidates,
    requestedStrategy: request.strategy,
    appliedStrategy: 'lexical',
    lexicalCandidates: lexical.candidates.length,
    semanticCandidates: 0,
    fallbackTriggered: lexical.fallbackTriggered,
    fallbackReason: lexical.fallbackReason,
    semanticFallbackTriggered: semanticRequested,
    semanticFallbackReason: semanticRequested ? SEMANTIC_UNAVAILABLE : null,
    embeddingModel: null,
  };
}
