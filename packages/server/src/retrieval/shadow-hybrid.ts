import type { ResolvedScope } from '@memory-service/contract';
import type { EmbeddingRegistry } from '../embeddings/registry.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import { retrieve } from './retrieve.js';

/** The seeds a graph execution starts from, and what the hybrid run behind them did. */
export interface GraphSeeds {
  seedIds: string[];
  /** A hybrid run was made beside a lexical answer (it counts as a hybrid sample). */
  shadowHybridExecuted: boolean;
  shadowSemanticFallback: boolean;
}

/**
 * Seeds for the graph. A hybrid call seeds from what it serves. A lexical call with the graph in shadow runs
 * hybrid retrieval beside its answer, so the gate measures the path a promotion would serve (hybrid + graph),
 * and seeds from that run's top `limit` current memories; the lexical answer is not changed.
 */
export async function graphSeeds(
  tenant: TenantDatabase,
  input: {
    hybrid: boolean;
    embeddings: EmbeddingRegistry;
    servedIds: readonly string[];
    query: string;
    scope: ResolvedScope;
    limit: number;
    candidateLimit: number;
  },
): Promise<GraphSeeds> {
  if (input.hybrid)
    return { seedIds: [...input.servedIds], shadowHybridExecuted: false, shadowSemanticFallback: false };
  const shadow = await retrieve(tenant, {
    query: input.query,
    scope: input.scope,
    limit: input.candidateLimit,
    strategy: 'hybrid',
    excludeLayer: 'rule',
    recencyFallback: true,
    embeddings: input.embeddings,
  });
  const seedIds = shadow.candidates
    .filter((candidate) => candidate.row.superseded_by === null)
    .slice(0, input.limit)
    .map((candidate) => candidate.row.id);
  return { seedIds, shadowHybridExecuted: true, shadowSemanticFallback: shadow.semanticFallbackTriggered };
}
