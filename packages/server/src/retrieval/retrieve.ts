import {
  type QueryTime,
  type QueryTimeTrace,
  type ResolvedScope,
  resolveQueryTime,
  type Strategy,
} from '@memory-service/contract';
import { ApiError } from '../api-error.js';
import type { EmbeddingRegistry } from '../embeddings/registry.js';
import { recordRetrievalEvent } from '../store/retrieval-events.js';
import type { ScopeRanking } from '../store/scope-ranking.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import type { RankedCandidate } from './candidate-filter.js';
import { withConversationWindows } from './conversation-window.js';
import { queryTerms, wordsOf } from './fts-query.js';
import { fuseRankings } from './hybrid.js';
import { type LexicalResult, lexicalSearch } from './lexical.js';
import { type RelevanceEvidence, withRelevance } from './relevance.js';
import {
  embedQuery,
  type QueryEmbedding,
  querySimilarities,
  relatedMemories,
  SEMANTIC_FALLBACK_REASONS,
  vectorLists,
} from './semantic-side.js';
import { commonTerms } from './term-frequency.js';
import { withTimeMentionCredit } from './time-mention-credit.js';
import { appliesTime, preferByTime } from './time-preference.js';

/** The reasons a hybrid request can fall back to lexical, re-exported beside the entry point. */
export { SEMANTIC_FALLBACK_REASONS } from './semantic-side.js';

/**
 * Each side of a hybrid request ranks this many candidates (at least) before fusion: RRF needs evidence below the cut,
 * and on the development conversations (400-700 memories each) depth 200 beat 100 on every category.
 */
const FUSION_DEPTH = 200;

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
  /** The request's clock (TTL checks, recency prior, records); defaults to now. */
  now?: Date;
  /** The embedding model of the query; by default the one the scope's memories were last written with. */
  embeddingModel?: string;
  /** The server's embedding models. */
  embeddings: EmbeddingRegistry;
}

/** Candidates in rank order and the facts the traces report. */
export interface RetrievalOutcome {
  /** In rank order, each scored with its relevance: 0..1 on one scale for every strategy (see `withRelevance`). */
  candidates: RankedCandidate[];
  requestedStrategy: Strategy;
  appliedStrategy: Strategy;
  lexicalCandidates: number;
  semanticCandidates: number;
  fallbackTriggered: boolean;
  fallbackReason: string | null;
  semanticFallbackTriggered: boolean;
  semanticFallbackReason: string | null;
  embeddingModel: string | null;
  /** What the query's time expressions did (`preferByTime`); null when it has none. */
  time: QueryTimeTrace | null;
}

/** A request as searched: `query` is the words searched (the topic), `time` what the query's time expressions ask. */
interface SearchedRequest extends RetrievalRequest {
  time: QueryTime | null;
}

/**
 * The candidates to serve, scored with their relevance. Without time in the query: the ranking's first `limit`. With
 * time: relevance for the whole ranked pool (a memory of the query's week may rank deep), then `preferByTime`.
 */
async function served(
  tenant: TenantDatabase,
  request: SearchedRequest,
  ranked: readonly RankedCandidate[],
  evidence: RelevanceEvidence,
): Promise<{ candidates: RankedCandidate[]; time: QueryTimeTrace | null }> {
  if (request.time === null)
    return {
      candidates: await withRelevance(tenant, request.query, ranked.slice(0, request.limit), evidence),
      time: null,
    };
  const scored = await withRelevance(tenant, request.query, ranked, evidence);
  const topicless = wordsOf(request.query).size === 0;
  const preferred = preferByTime(scored, request.time, { limit: request.limit, topicless });
  return { candidates: preferred.candidates, time: preferred.trace };
}

/** The memories the lexical side matched (not its recency fallback), by `seq`. */
function lexicalHits(lexical: LexicalResult): Set<number> {
  return new Set(lexical.candidates.filter(({ source }) => source !== 'recency').map(({ row }) => row.seq));
}

async function lexicalOutcome(
  tenant: TenantDatabase,
  request: SearchedRequest,
  lexical: LexicalResult,
  semantic: QueryEmbedding | null,
): Promise<RetrievalOutcome> {
  const failed = semantic !== null && !semantic.ok;
  const answer = await served(tenant, request, lexical.candidates, {
    lexicalHits: lexicalHits(lexical),
    semantic: null,
  });
  return {
    candidates: answer.candidates,
    requestedStrategy: request.strategy,
    appliedStrategy: 'lexical',
    lexicalCandidates: lexical.candidates.length,
    semanticCandidates: 0,
    fallbackTriggered: lexical.fallbackTriggered,
    fallbackReason: lexical.fallbackReason,
    semanticFallbackTriggered: failed,
    semanticFallbackReason: failed ? semantic.reason : null,
    embeddingModel: semantic?.modelId ?? null,
    time: answer.time,
  };
}

/** The query's vector side: its embedding and, once it is in, the vector lists, searched while the words are. */
interface SemanticSide {
  embedding: QueryEmbedding;
  /** The vector lists, or the reason they failed (answered lexically); null when the embedding failed. */
  lists: Promise<RankedCandidate[][]> | null;
}

/**
 * Embeds the query and searches its vector lists, without waiting for the lexical side: only the conversation windows
 * need the lexical hits, and the vector lists need nothing of them (at 100k memories their two index searches take
 * ~24 ms of database time, the lexical list ~13). A failed search is held for `hybridOutcome`, never left unhandled.
 */
function semanticSide(
  embedding: Promise<QueryEmbedding>,
  request: SearchedRequest,
  database: TenantDatabase['database'],
  now: Date,
  ranking: Promise<ScopeRanking>,
): Promise<SemanticSide> {
  return embedding.then((embedded) => {
    if (!embedded.ok) return { embedding: embedded, lists: null };
    const lists = vectorLists(
      database,
      embedded,
      { ...request, now, limit: Math.max(request.limit, FUSION_DEPTH) },
      ranking,
    );
    lists.catch(() => undefined);
    return { embedding: embedded, lists };
  });
}

/**
 * The hybrid answer once the lexical list is in: the conversation windows of the lexical hits (which read the query's
 * vector only to gate unmatched neighbours) are searched while the vector lists finish, then fused.
 */
async function hybridOutcome(
  tenant: TenantDatabase,
  request: SearchedRequest,
  lexical: LexicalResult,
  semantic: SemanticSide,
  now: Date,
): Promise<RetrievalOutcome> {
  const { embedding } = semantic;
  if (!embedding.ok || semantic.lists === null) return lexicalOutcome(tenant, request, lexical, embedding);
  const { database } = tenant;
  const filters = { ...request, now };
  // Recency-fallback rows are not evidence of relevance: only real lexical hits take part in fusion.
  const hits = lexical.candidates.filter((candidate) => candidate.source !== 'recency');
  const terms = queryTerms(request.query);
  let ranked: RankedCandidate[];
  let lists: RankedCandidate[][];
  let similarities: Map<number, number>;
  try {
    const searched = await Promise.all([
      semantic.lists,
      withConversationWindows(database, hits, lexical.query, filters, (seqs) =>
        relatedMemories(database, embedding, seqs),
      ),
      commonTerms(tenant.termCounts, terms),
    ]);
    const [, windows, common] = searched;
    lists = searched[0];
    const fused = withTimeMentionCredit(fuseRankings(windows, lists, now, { common, terms }), {
      asksWhen: request.time?.asksWhen ?? false,
      served: request.limit,
    });
    const pool = fused.length === 0 ? lexical.candidates : fused;
    // With time in the query the whole pool is scored: `served` may bring up a memory of the query's time.
    ranked = request.time === null ? pool.slice(0, request.limit) : pool;
    similarities = await querySimilarities(
      database,
      embedding,
      ranked.map(({ row }) => row.seq),
    );
  } catch (error) {
    // A request past its deadline fails as such; any other failure of the searches is answered lexically, saying why.
    if (error instanceof ApiError) throw error;
    const reason = SEMANTIC_FALLBACK_REASONS.searchFailed;
    return lexicalOutcome(tenant, request, lexical, { ok: false, modelId: embedding.modelId, reason });
  }
  const answer = await served(tenant, request, ranked, {
    lexicalHits: lexicalHits(lexical),
    semantic: { similarities, minSimilarity: embedding.minSimilarity },
  });
  return {
    candidates: answer.candidates,
    requestedStrategy: request.strategy,
    appliedStrategy: 'hybrid',
    lexicalCandidates: hits.length,
    semanticCandidates: new Set(lists.flatMap((list) => list.map((candidate) => candidate.row.seq))).size,
    fallbackTriggered: hits.length === 0 && lexical.fallbackTriggered,
    fallbackReason: hits.length === 0 ? lexical.fallbackReason : null,
    semanticFallbackTriggered: false,
    semanticFallbackReason: null,
    embeddingModel: embedding.modelId,
    time: answer.time,
  };
}

/**
 * Retrieves candidates with the requested strategy; the single entry point of context/get, memories/search and
 * graph seeding. Lexical is FTS5 BM25. Hybrid fuses BM25 (over conversation windows) and the vector index of the
 * scope's embedding model (one list per query vector) by reciprocal rank plus a common-term credit and a recency
 * prior; any semantic failure answers lexically and says why (`semanticFallbackTriggered`, reason), never silently.
 * The ranking's own scores order the candidates; the scores returned are their relevance (`withRelevance`).
 * A query's time expressions (`resolveQueryTime`: "last week", "in March", "first", "when did ...") are taken out of
 * the words searched and applied to the ranked pool (`preferByTime`); a query without any ranks as it always did.
 * Each call is recorded for embedding observability.
 */
export async function retrieve(tenant: TenantDatabase, retrieval: RetrievalRequest): Promise<RetrievalOutcome> {
  const started = performance.now();
  const now = retrieval.now ?? new Date();
  const hybrid = retrieval.strategy === 'hybrid';
  const time = resolveQueryTime(retrieval.query, now);
  // A query's time expressions say when, not what: the words searched are its topic ("last week" would otherwise
  // match every memory that says "last week", and drown the words the question is about).
  const request: SearchedRequest = {
    ...retrieval,
    query: time.topic,
    time: appliesTime(time) ? time : null,
  };
  // How the scope is searched (a narrow one by its own memories) needs nothing of the query: counted while the query's
  // words are counted and the model runs.
  const ranking = tenant.scopeRankings.ranking(request.scope);
  ranking.catch(() => undefined);
  // The query's embedding and vector lists need nothing of the lexical side: the model runs (in its worker, or at its
  // provider) and the vector index is searched while the words are.
  const semantic = hybrid
    ? semanticSide(
        embedQuery(tenant, {
          query: request.query,
          scope: request.scope,
          registry: request.embeddings,
          now,
          ...(request.embeddingModel === undefined ? {} : { embeddingModel: request.embeddingModel }),
        }),
        request,
        tenant.database,
        now,
        ranking,
      )
    : null;
  // Should the lexical search fail first, the request fails with its error; the embedding's is then of no interest.
  semantic?.catch(() => undefined);
  const lexical = await lexicalSearch(tenant, {
    query: request.query,
    scope: request.scope,
    // With time in the query a memory of its time may rank below the first `limit`: search as deep as fusion does.
    limit: hybrid || request.time !== null ? Math.max(request.limit, FUSION_DEPTH) : request.limit,
    recencyFallback: request.recencyFallback,
    now,
    ranking,
    ...(request.type === undefined ? {} : { type: request.type }),
    ...(request.layer === undefined ? {} : { layer: request.layer }),
    ...(request.excludeLayer === undefined ? {} : { excludeLayer: request.excludeLayer }),
  });
  const outcome =
    semantic === null
      ? await lexicalOutcome(tenant, request, lexical, null)
      : await hybridOutcome(tenant, request, lexical, await semantic, now);
  recordRetrievalEvent(
    tenant.database,
    {
      userId: request.scope.userId,
      projectId: request.scope.projectId,
      modelId: outcome.embeddingModel,
      semanticRequested: hybrid,
      semanticApplied: outcome.appliedStrategy === 'hybrid',
      fallbackReason: outcome.semanticFallbackReason,
      latencyMs: Math.round((performance.now() - started) * 100) / 100,
    },
    now,
  ); // buffered: observability never fails or slows a read
  return outcome;
}
