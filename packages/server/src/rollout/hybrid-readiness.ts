import type { EmbeddingRegistry } from '../embeddings/registry.js';
import { SEMANTIC_FALLBACK_REASONS } from '../retrieval/semantic-side.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import { GATE_WINDOW_HOURS, QUALITY_THRESHOLDS } from './quality-gate.js';

/**
 * The readiness gate's thresholds. Coverage: hybrid fuses the lexical list (every memory) with the vector list (only
 * memories that have a vector), so a memory without one competes on half the evidence; at 0.95 at most one memory in
 * twenty does, and the indexer normally reaches 1.0 seconds after a write. Failures: the quality gate's own maximum
 * fallback rate.
 */
export const READINESS_THRESHOLDS = {
  minVectorCoverage: 0.95,
  maxModelFailureRate: QUALITY_THRESHOLDS.maxFallbackRate,
} as const;

/** Why a tenant is not ready for hybrid by default. */
export const READINESS_REASONS = {
  noMemories: 'NO_MEMORIES',
  modelUnavailable: 'EMBEDDING_MODEL_UNAVAILABLE',
  vectorCoverage: 'VECTOR_COVERAGE_BELOW_MINIMUM',
  modelFailures: 'SEMANTIC_FAILURE_RATE_ABOVE_MAXIMUM',
} as const;

/** Semantic fallbacks that say the model or the vector search failed (not a query without words, nor no vectors yet). */
const MODEL_FAILURES = [
  SEMANTIC_FALLBACK_REASONS.modelUnavailable,
  SEMANTIC_FALLBACK_REASONS.embeddingFailed,
  SEMANTIC_FALLBACK_REASONS.searchFailed,
];

/** The readiness of a tenant for hybrid retrieval by default, with what it was judged on. */
export interface HybridReadiness {
  ready: boolean;
  reasonCodes: string[];
  /** The model a query that names none is embedded with (the tenant's last-written model, else the server default). */
  modelId: string;
  modelAvailable: boolean;
  /** Live, current memories of the tenant (every user and project). */
  memories: number;
  /** How many of them have a vector of the model. */
  vectors: number;
  /** Hybrid requests of the last gate window, and how many of them the model or the vector search failed. */
  hybridRequests: number;
  modelFailures: number;
}

const ratio = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

/**
 * Whether hybrid can be the tenant's default: its embedding model is registered and not failed, the tenant has
 * memories and at least `minVectorCoverage` of them have a vector of that model, and hybrid requests of the last 24 h
 * (if any) were not failed by the model more often than the quality gate allows. It needs no traffic of any kind,
 * only the state the writes left, so a fresh server passes it as soon as its first memories are indexed. An
 * unavailable model is decided without counting anything.
 */
export async function hybridReadiness(
  tenant: TenantDatabase,
  options: { embeddings: EmbeddingRegistry; defaultModelId: string; now: Date },
): Promise<HybridReadiness> {
  const modelId = (await tenant.scopeModels.modelFor(null)) ?? options.defaultModelId;
  const modelAvailable = options.embeddings.describe(modelId)?.available === true;
  const verdict = { modelId, modelAvailable, memories: 0, vectors: 0, hybridRequests: 0, modelFailures: 0 };
  if (!modelAvailable) return { ...verdict, ready: false, reasonCodes: [READINESS_REASONS.modelUnavailable] };
  const { database } = tenant;
  const table = await tenant.vectorTables.find(modelId);
  const counts = await database.get<{ memories: number; vectors: number | null }>(
    `SELECT COUNT(*) AS memories, ${
      table === undefined ? '0' : `SUM(EXISTS (SELECT 1 FROM ${table.tableName} v WHERE v.memory_seq = m.seq))`
    } AS vectors FROM memories m WHERE m.deleted_at IS NULL AND m.superseded_by IS NULL`,
  );
  const since = new Date(options.now.getTime() - GATE_WINDOW_HOURS * 3_600_000).toISOString();
  const events = await database.get<{ requests: number; failures: number | null }>(
    `SELECT COUNT(*) AS requests, SUM(fallback_reason IN (${MODEL_FAILURES.map(() => '?').join(', ')})) AS failures
       FROM embedding_retrieval_events WHERE created_at >= ? AND semantic_requested = 1 AND model_id = ?`,
    [...MODEL_FAILURES, since, modelId],
  );
  const figures = {
    ...verdict,
    memories: Number(counts?.memories ?? 0),
    vectors: Number(counts?.vectors ?? 0),
    hybridRequests: Number(events?.requests ?? 0),
    modelFailures: Number(events?.failures ?? 0),
  };
  const reasonCodes: string[] = [];
  if (figures.memories === 0) reasonCodes.push(READINESS_REASONS.noMemories);
  else if (ratio(figures.vectors, figures.memories) < READINESS_THRESHOLDS.minVectorCoverage)
    reasonCodes.push(READINESS_REASONS.vectorCoverage);
  if (ratio(figures.modelFailures, figures.hybridRequests) > READINESS_THRESHOLDS.maxModelFailureRate)
    reasonCodes.push(READINESS_REASONS.modelFailures);
  return { ...figures, ready: reasonCodes.length === 0, reasonCodes };
}
