import type { OperationData, ResolvedScope, RetrievedMemory, Strategy } from '@memory-service/contract';
import type { EmbeddingRegistry } from '../embeddings/registry.js';
import { toMemory } from '../store/memory-rows.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import type { RankedCandidate } from './candidate-filter.js';
import { retrieve } from './retrieve.js';

/** A retrieved candidate (scored with its 0..1 relevance) as the contract's retrieved memory, the score to 4 decimals. */
export function toRetrievedMemory(candidate: RankedCandidate): RetrievedMemory {
  const score = Math.min(1, Math.max(0, Math.round(candidate.score * 10_000) / 10_000));
  return { ...toMemory(candidate.row), score, source: candidate.source };
}

/** The `memories/search` answer. */
export async function searchMemoriesFor(
  tenant: TenantDatabase,
  options: {
    query: string;
    scope: ResolvedScope;
    limit: number;
    strategy: Strategy;
    type?: string;
    layer?: string;
    embeddings: EmbeddingRegistry;
  },
): Promise<OperationData<'memories.search'>> {
  const outcome = await retrieve(tenant, { ...options, recencyFallback: false });
  const memories = outcome.candidates.map(toRetrievedMemory);
  return {
    memories,
    count: memories.length,
    trace: {
      requestedStrategy: outcome.requestedStrategy,
      appliedStrategy: outcome.appliedStrategy,
      fallbackTriggered: outcome.fallbackTriggered,
      fallbackReason: outcome.fallbackReason,
      semanticFallbackTriggered: outcome.semanticFallbackTriggered,
      semanticFallbackReason: outcome.semanticFallbackReason,
      lexicalCandidates: outcome.lexicalCandidates,
      semanticCandidates: outcome.semanticCandidates,
      totalCandidates: outcome.candidates.length,
      embeddingModel: outcome.embeddingModel,
      ...(outcome.time === null ? {} : { time: outcome.time }),
    },
  };
}
