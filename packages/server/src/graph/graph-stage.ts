import type { ContextMode, ResolvedScope, RetrievedMemory, RolloutMode } from '@memory-service/contract';
import { recordGraphError } from '../store/graph-errors.js';
import { toMemory } from '../store/memory-rows.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import { expandFromSeeds } from './expand.js';

/** Whether and how graph expansion takes part in a context call. */
export interface GraphStagePlan {
  /** Expansion runs (rollout shadow or canary, graphDepth >= 1, a mode that returns memories). */
  execute: boolean;
  /** Its results are served (canary and a hybrid strategy); otherwise it runs in shadow. */
  apply: boolean;
}

/**
 * When the graph runs (documented decision): never in rollout mode off (a kill switch a request cannot bypass)
 * nor with graphDepth 0 or mode rules_only; applied only under a canary when the call's strategy is hybrid
 * (asked for, or the policy default; `hybrid_graph` is hybrid); in every other case it runs in shadow.
 */
export function planGraphStage(input: {
  rolloutMode: RolloutMode;
  graphDepth: number;
  mode: ContextMode;
  hybrid: boolean;
}): GraphStagePlan {
  const execute = input.rolloutMode !== 'off' && input.graphDepth >= 1 && input.mode !== 'rules_only';
  return { execute, apply: execute && input.rolloutMode === 'canary' && input.hybrid };
}

/** The outcome: distinct candidates found, the memories to add (when applied) and whether the graph failed. */
export interface GraphStageOutcome {
  candidates: number;
  expanded: RetrievedMemory[];
  error: boolean;
}

/** Runs expansion from the seeds; a failure is recorded (GRAPH_EXPANSION_FAILED) and answered without the graph. */
export async function runGraphStage(
  tenant: TenantDatabase,
  input: {
    seedIds: readonly string[];
    excludeIds: ReadonlySet<string>;
    depth: number;
    limit: number;
    scope: ResolvedScope;
    mode: ContextMode;
    now: Date;
  },
): Promise<GraphStageOutcome> {
  const { database } = tenant;
  try {
    const { candidates } = await expandFromSeeds(database, {
      seedIds: input.seedIds,
      excludeIds: input.excludeIds,
      depth: input.depth,
      limit: input.limit,
      scope: input.scope,
      layer: input.mode === 'working' ? 'working' : input.mode === 'long_term' ? 'long_term' : null,
    });
    const chosen = candidates.slice(0, input.limit);
    const rows = await tenant.memories.findManyVisible(
      chosen.map((candidate) => candidate.memoryId),
      input.scope,
    );
    const byId = new Map(rows.filter((row) => row.superseded_by === null).map((row) => [row.id, row]));
    const expanded = chosen.flatMap((candidate): RetrievedMemory[] => {
      const row = byId.get(candidate.memoryId);
      return row === undefined
        ? []
        : [{ ...toMemory(row), score: candidate.score, source: 'graph_expansion', graph: candidate.graph }];
    });
    return { candidates: candidates.length, expanded, error: false };
  } catch {
    await recordGraphError(
      database,
      'GRAPH_EXPANSION_FAILED',
      'Graph expansion failed; the baseline was served',
      null,
      input.now,
    );
    return { candidates: 0, expanded: [], error: true };
  }
}
