import { randomUUID } from 'node:crypto';
import type { ConsolidationRun, OperationData } from '@memory-service/contract';
import type { ConsolidationCandidate } from '../store/consolidation-plan-rows.js';
import {
  applyPlanStatements,
  type ConsolidationSelection,
  consolidationCandidates,
  insertRunStatement,
} from '../store/consolidation-runs.js';
import type { Database } from '../store/database.js';
import { lifecycleStatement } from '../store/memory-rows.js';
import { planConsolidation } from './plan-consolidation.js';

/** Candidates whose write-time edges are read per query (an IN list on the edges' primary key). */
const EDGE_LOOKUP_CHUNK = 500;

/**
 * The restatements among the candidates: `similar_to` edges the indexer marked `paraphrase` (graph/paraphrase-edges.ts),
 * read through the edges' primary key, a chunk of candidates at a time.
 */
async function restatedPairs(database: Database, candidates: readonly ConsolidationCandidate[]) {
  const ids = candidates.map((candidate) => candidate.id);
  const pairs: Array<[string, string]> = [];
  for (let start = 0; start < ids.length; start += EDGE_LOOKUP_CHUNK) {
    const chunk = ids.slice(start, start + EDGE_LOOKUP_CHUNK);
    const rows = await database.all<{ source_memory_id: string; target_memory_id: string }>(
      `SELECT source_memory_id, target_memory_id FROM graph_edges
        WHERE source_memory_id IN (${chunk.map(() => '?').join(', ')}) AND edge_type = 'similar_to'
          AND json_extract(detail, '$.paraphrase') = 1`,
      chunk,
    );
    for (const row of rows) pairs.push([row.source_memory_id, row.target_memory_id]);
  }
  return pairs;
}

/** The model recorded when the request names none: the deterministic pass is the only one this server runs. */
export const DETERMINISTIC_MODEL = 'deterministic';

/** A consolidation request after validation. */
export interface ConsolidationRequest extends ConsolidationSelection {
  dryRun: boolean;
  model: string | undefined;
  now: Date;
}

/**
 * Runs consolidation (docs/architecture.md#write-side-behaviour) over the memories the scope owns: its own user's (or shared ones without a user)
 * in its project, plus project-less ("global") memories when `includeGlobal` (default true), or only those when
 * `globalOnly`; `types` narrows by type. The plan and the run record are written in one transaction; a dry run
 * writes only the run record (metadata.dryRun = true) and its lifecycle event.
 */
export async function consolidateMemories(
  database: Database,
  request: ConsolidationRequest,
): Promise<OperationData<'memories.consolidate'>> {
  const candidates = await consolidationCandidates(database, request);
  const plan = planConsolidation(candidates, await restatedPairs(database, candidates));
  const runId = randomUUID();
  const timestamp = request.now.toISOString();
  const mergedCount = plan.groups.reduce((sum, group) => sum + group.mergedIds.length, 0);
  const supersededCount = plan.groups.reduce((sum, group) => sum + group.supersededIds.length, 0);
  // A conflicted subject is one where differing statements were found (one winner, at least one superseded).
  const conflictedCount = plan.groups.filter((group) => group.supersededIds.length > 0).length;
  const run: ConsolidationRun = {
    id: runId,
    scope: request.scope,
    projectId: request.scope.projectId,
    userId: request.scope.userId,
    inputCount: plan.inputCount,
    mergedCount,
    supersededCount,
    conflictedCount,
    model: request.model ?? DETERMINISTIC_MODEL,
    createdAt: timestamp,
    metadata: {
      dryRun: request.dryRun,
      method: 'deterministic',
      groups: plan.groups.length,
      types: request.types ?? null,
      includeGlobal: request.includeGlobal,
      globalOnly: request.globalOnly,
    },
  };
  const counts = { inputCount: plan.inputCount, mergedCount, supersededCount, conflictedCount, dryRun: request.dryRun };
  await database.transaction([
    ...(request.dryRun ? [] : applyPlanStatements(plan, runId, timestamp)),
    insertRunStatement(run, request.scope.tenantId),
    lifecycleStatement('consolidation.run', runId, request.scope, timestamp, counts),
  ]);
  const changed = mergedCount + supersededCount;
  return {
    runId,
    message: request.dryRun
      ? `Dry run: ${changed} of ${plan.inputCount} memories would be consolidated (${mergedCount} merged, ${supersededCount} superseded); nothing was changed`
      : `${changed} of ${plan.inputCount} memories consolidated (${mergedCount} merged, ${supersededCount} superseded)`,
    run,
    winnerMemoryIds: plan.groups.map((group) => group.winnerId),
    supersededMemoryIds: plan.groups.flatMap((group) => [...group.supersededIds, ...group.mergedIds]),
  };
}
