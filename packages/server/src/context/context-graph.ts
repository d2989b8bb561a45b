import type { ContextMode, ResolvedScope, RetrievedMemory, RolloutMode } from '@memory-service/contract';
import type { EmbeddingRegistry } from '../embeddings/registry.js';
import { planGraphStage, runGraphStage } from '../graph/graph-stage.js';
import { type GraphSeeds, graphSeeds } from '../retrieval/shadow-hybrid.js';
import { recordGraphError } from '../store/graph-errors.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';

/** What the graph did in a context call. */
export interface ContextGraph {
  executed: boolean;
  applied: boolean;
  /** Distinct memories expansion reached (in shadow too). */
  candidates: number;
  /** The memories to serve after the baseline (empty unless applied). */
  expanded: RetrievedMemory[];
  error: boolean;
  /** A hybrid run beside a lexical answer (shadow), and whether it fell back. */
  shadowHybridExecuted: boolean;
  shadowSemanticFallback: boolean;
}

const NOT_EXECUTED: ContextGraph = {
  executed: false,
  applied: false,
  candidates: 0,
  expanded: [],
  error: false,
  shadowHybridExecuted: false,
  shadowSemanticFallback: false,
};

/** The graph part of a context call: plan it from the rollout, seed it, run it (see planGraphStage). */
export async function graphForContext(
  tenant: TenantDatabase,
  input: {
    rolloutMode: RolloutMode;
    embeddings: EmbeddingRegistry;
    hybrid: boolean;
    query: string;
    scope: ResolvedScope;
    mode: ContextMode;
    limit: number;
    candidateLimit: number;
    graphDepth: number;
    graphLimit: number;
    servedIds: readonly string[];
    ruleIds: readonly string[];
    now: Date;
  },
): Promise<ContextGraph> {
  const plan = planGraphStage(input);
  if (!plan.execute) return NOT_EXECUTED;
  const { database } = tenant;
  let seeds: GraphSeeds;
  try {
    seeds = await graphSeeds(tenant, input);
  } catch {
    // A side path never fails the call: the answer stands, the failure counts as a graph error.
    await recordGraphError(
      database,
      'GRAPH_EXPANSION_FAILED',
      'Graph seeding failed; the baseline was served',
      null,
      input.now,
    );
    return { ...NOT_EXECUTED, executed: true, applied: plan.apply, error: true };
  }
  const outcome = await runGraphStage(tenant, {
    seedIds: seeds.seedIds,
    excludeIds: new Set([...input.servedIds, ...input.ruleIds]),
    depth: input.graphDepth,
    limit: input.graphLimit,
    scope: input.scope,
    mode: input.mode,
    now: input.now,
  });
  return {
    executed: true,
    applied: plan.apply,
    candidates: outcome.candidates,
    expanded: plan.apply ? outcome.expanded : [],
    error: outcome.error,
    shadowHybridExecuted: seeds.shadowHybridExecuted,
    shadowSemanticFallback: seeds.shadowSemanticFallback,
  };
}
