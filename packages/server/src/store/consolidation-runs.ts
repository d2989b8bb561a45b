import type { InStatement, InValue } from '@libsql/client';
import type { ConsolidationRun, MemoryType, ResolvedScope } from '@memory-service/contract';
import type { ConsolidationCandidate, ConsolidationPlan } from './consolidation-plan-rows.js';
import type { Database } from './database.js';
import { allOf, type Condition } from './scope-filter.js';

/** Which memories a run considers (see `consolidateMemories` for the meaning of the flags). */
export interface ConsolidationSelection {
  scope: ResolvedScope;
  types: readonly MemoryType[] | undefined;
  includeGlobal: boolean;
  globalOnly: boolean;
}

/** Confidence of a consolidation `contradicts` edge, by how the shared subject was found (as at extraction). */
const CONTRADICTION_CONFIDENCE = { prefix: 0.9, first_words: 0.75, category: 0.6 } as const;

function projectCondition(selection: ConsolidationSelection): Condition {
  const projectId = selection.scope.projectId;
  if (selection.globalOnly || projectId === null) return { sql: 'project_id IS NULL', args: [] };
  if (selection.includeGlobal) return { sql: '(project_id = ? OR project_id IS NULL)', args: [projectId] };
  return { sql: 'project_id = ?', args: [projectId] };
}

/** Live, current memories the scope owns (its own user's, or shared ones without a user), newest first. */
export async function consolidationCandidates(
  database: Database,
  selection: ConsolidationSelection,
): Promise<ConsolidationCandidate[]> {
  const user: Condition =
    selection.scope.userId === null
      ? { sql: 'user_id IS NULL', args: [] }
      : { sql: 'user_id = ?', args: [selection.scope.userId] };
  const conditions = [
    { sql: 'deleted_at IS NULL AND superseded_by IS NULL', args: [] },
    user,
    projectCondition(selection),
  ];
  if (selection.types !== undefined) {
    conditions.push({ sql: `type IN (${selection.types.map(() => '?').join(', ')})`, args: [...selection.types] });
  }
  const where = allOf(...conditions);
  const rows = await database.all<{
    id: string;
    seq: number;
    content: string;
    type: string;
    category: string | null;
    project_id: string | null;
    user_id: string | null;
    content_hash: string;
    created_at: string;
    occurred_at: string;
  }>(
    `SELECT id, seq, content, type, category, project_id, user_id, content_hash, created_at, occurred_at FROM memories
      WHERE ${where.sql} ORDER BY created_at DESC, seq DESC`,
    where.args,
  );
  return rows.map((row) => ({
    id: row.id,
    seq: Number(row.seq),
    content: row.content,
    type: row.type,
    category: row.category,
    projectId: row.project_id,
    userId: row.user_id,
    contentHash: row.content_hash,
    createdAt: row.created_at,
    occurredAt: row.occurred_at,
  }));
}

/**
 * Statements applying a plan in one transaction, a fixed number whatever its size (pairs travel as JSON):
 * superseded memories get `superseded_by`; merged duplicates get it too and are soft-deleted; `supersedes` edges
 * (and `contradicts` for differing content) from the winner; a lifecycle event per changed memory. The plan was made
 * from a read before this transaction: a memory the indexer superseded at write time (or a concurrent run changed) in
 * between is left as it is, with no second edge or event, so a contradiction is resolved and counted once.
 */
export function applyPlanStatements(plan: ConsolidationPlan, runId: string, timestamp: string): InStatement[] {
  const superseded = plan.groups.flatMap((group) =>
    group.supersededIds.map((id) => ({
      id,
      winner: group.winnerId,
      confidence: CONTRADICTION_CONFIDENCE[group.keySource],
      subject: group.subjectKey,
      keySource: group.keySource,
    })),
  );
  const merged = plan.groups.flatMap((group) => group.mergedIds.map((id) => ({ id, winner: group.winnerId })));
  const supersededJson = JSON.stringify(superseded);
  const mergedJson = JSON.stringify(merged);
  // What this run changed: the memory now points at the plan's winner with this run's timestamp.
  const changedHere = (alias: string) =>
    `EXISTS (SELECT 1 FROM memories c WHERE c.id = ${alias}.value->>'id' AND c.superseded_by = ${alias}.value->>'winner' AND c.updated_at = ?)`;
  const edges = (
    json: string,
    type: string,
    confidence: string,
    detail: string,
    detailArgs: InValue[],
  ): InStatement => ({
    sql: `INSERT OR REPLACE INTO graph_edges (source_memory_id, target_memory_id, edge_type, confidence, origin, detail, created_at)
          SELECT p.value->>'winner', p.value->>'id', ?, ${confidence.replaceAll('value->>', 'p.value->>')}, 'consolidation',
                 ${detail.replaceAll('value->>', 'p.value->>')}, ?
            FROM json_each(?) p WHERE ${changedHere('p')}`,
    args: [type, ...detailArgs, timestamp, json, timestamp],
  });
  const events = (json: string, kind: string, field: string): InStatement => ({
    sql: `INSERT INTO lifecycle_events (kind, subject_id, user_id, project_id, detail, created_at)
          SELECT ?, m.id, m.user_id, m.project_id, json_object('${field}', p.value->>'winner', 'runId', ?), ?
            FROM json_each(?) p JOIN memories m ON m.id = p.value->>'id' WHERE ${changedHere('p')}`,
    args: [kind, runId, timestamp, json, timestamp],
  });
  // Only memories still live and not superseded: the plan's read may be older than a write-time supersede.
  const live = 'deleted_at IS NULL AND superseded_by IS NULL';
  return [
    {
      sql: `UPDATE memories SET superseded_by = (SELECT p.value->>'winner' FROM json_each(?) p WHERE p.value->>'id' = memories.id),
              updated_at = ? WHERE id IN (SELECT value->>'id' FROM json_each(?)) AND ${live}`,
      args: [supersededJson, timestamp, supersededJson],
    },
    {
      sql: `UPDATE memories SET superseded_by = (SELECT p.value->>'winner' FROM json_each(?) p WHERE p.value->>'id' = memories.id),
              deleted_at = ?, updated_at = ? WHERE id IN (SELECT value->>'id' FROM json_each(?)) AND ${live}`,
      args: [mergedJson, timestamp, timestamp, mergedJson],
    },
    edges(supersededJson, 'supersedes', '1', "json_object('runId', ?, 'reason', 'newer_statement')", [runId]),
    edges(
      supersededJson,
      'contradicts',
      "value->>'confidence'",
      "json_object('runId', ?, 'subjectKey', value->>'subject', 'keySource', value->>'keySource')",
      [runId],
    ),
    edges(mergedJson, 'supersedes', '1', "json_object('runId', ?, 'reason', 'duplicate')", [runId]),
    events(supersededJson, 'memory.superseded', 'supersededBy'),
    events(mergedJson, 'memory.merged', 'mergedInto'),
  ];
}

/** The run record's insert. */
export function insertRunStatement(run: ConsolidationRun, tenantId: string | null): InStatement {
  return {
    sql: `INSERT INTO consolidation_runs (id, tenant_id, user_id, project_id, input_count, merged_count, superseded_count,
            conflicted_count, model, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    args: [
      run.id,
      tenantId,
      run.userId,
      run.projectId,
      run.inputCount,
      run.mergedCount,
      run.supersededCount,
      run.conflictedCount,
      run.model,
      JSON.stringify(run.metadata),
      run.createdAt,
    ],
  };
}
