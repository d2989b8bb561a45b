import type { InStatement, InValue } from '@libsql/client';
import type { ErasedKind } from '@memory-service/contract';

/** A statement of the erasure and what its changed rows count as in the receipt (null: not counted). */
export interface CountedStatement {
  counts: ErasedKind | 'supersedesCleared' | null;
  statement: InStatement;
}

/** The person's memories (every state: live, forgotten, superseded), as a subquery taking the userId. */
const THEIR_MEMORIES = '(SELECT id FROM memories WHERE user_id = ?)';
const THEIR_SEQS = '(SELECT seq FROM memories WHERE user_id = ?)';
const THEIR_SESSIONS = '(SELECT id FROM sessions WHERE user_id = ?)';
const THEIR_SKILL_FILES = '(SELECT id FROM skill_files WHERE user_id = ?)';

/** A JSON field of a detail column, null when the column is not JSON (a bad row must not fail the erasure). */
const detailField = (field: string) => `(CASE WHEN json_valid(detail) THEN detail ->> '${field}' END)`;

/**
 * Everything derived from the person's memories, deleted by memory id while the memories still exist to name them:
 * graph nodes no other memory links (and the memory's own `memory:<id>` node), links, edges either way, subjects,
 * history, queued jobs, graph errors and the vectors of every model's table (`vectorTables`).
 */
function derivedStatements(userId: string, vectorTables: readonly string[]): CountedStatement[] {
  const counted = (counts: CountedStatement['counts'], sql: string, args: InValue[]): CountedStatement => ({
    counts,
    statement: { sql, args },
  });
  return [
    counted(
      'graphNodes',
      `DELETE FROM graph_nodes
        WHERE (id IN (SELECT node_id FROM graph_memory_links WHERE memory_id IN ${THEIR_MEMORIES})
               AND NOT EXISTS (SELECT 1 FROM graph_memory_links l
                                WHERE l.node_id = graph_nodes.id AND l.memory_id NOT IN ${THEIR_MEMORIES}))
           OR id IN (SELECT 'memory:' || id FROM memories WHERE user_id = ?)`,
      [userId, userId, userId],
    ),
    counted('graphLinks', `DELETE FROM graph_memory_links WHERE memory_id IN ${THEIR_MEMORIES}`, [userId]),
    counted(
      'graphEdges',
      `DELETE FROM graph_edges WHERE source_memory_id IN ${THEIR_MEMORIES} OR target_memory_id IN ${THEIR_MEMORIES}`,
      [userId, userId],
    ),
    counted('memorySubjects', `DELETE FROM memory_subjects WHERE memory_id IN ${THEIR_MEMORIES}`, [userId]),
    counted('memoryVersions', `DELETE FROM memory_versions WHERE memory_id IN ${THEIR_MEMORIES}`, [userId]),
    counted('indexJobs', `DELETE FROM index_jobs WHERE memory_seq IN ${THEIR_SEQS}`, [userId]),
    counted('embeddingJobs', `DELETE FROM embedding_jobs WHERE user_id = ? OR memory_id IN ${THEIR_MEMORIES}`, [
      userId,
      userId,
    ]),
    counted('graphErrors', `DELETE FROM graph_errors WHERE memory_id IN ${THEIR_MEMORIES}`, [userId]),
    ...vectorTables.map((table) =>
      counted('vectors', `DELETE FROM ${table} WHERE memory_seq IN ${THEIR_SEQS}`, [userId]),
    ),
  ];
}

/**
 * Records that name the person or their records: lifecycle events (theirs, about their memories, sessions or skill
 * files, or saying one of their memories superseded or absorbed another), retrieval events and metrics, consolidation
 * runs and backfill state of their scope (`<userId>|<projectId>`; a userId holds no `|`).
 */
function namingStatements(userId: string): CountedStatement[] {
  return [
    {
      counts: 'lifecycleEvents',
      statement: {
        sql: `DELETE FROM lifecycle_events
               WHERE user_id = ?
                  OR subject_id IN ${THEIR_MEMORIES} OR subject_id IN ${THEIR_SESSIONS} OR subject_id IN ${THEIR_SKILL_FILES}
                  OR ${detailField('supersededBy')} IN ${THEIR_MEMORIES}
                  OR ${detailField('mergedInto')} IN ${THEIR_MEMORIES}`,
        args: [userId, userId, userId, userId, userId, userId],
      },
    },
    {
      counts: 'retrievalEvents',
      statement: { sql: 'DELETE FROM embedding_retrieval_events WHERE user_id = ?', args: [userId] },
    },
    {
      counts: 'retrievalMetrics',
      statement: { sql: 'DELETE FROM retrieval_metrics WHERE user_id = ?', args: [userId] },
    },
    {
      counts: 'consolidationRuns',
      statement: { sql: 'DELETE FROM consolidation_runs WHERE user_id = ?', args: [userId] },
    },
    {
      counts: 'embeddingBackfill',
      statement: {
        sql: 'DELETE FROM embedding_backfill WHERE substr(scope_key, 1, length(?) + 1) = ? || ?',
        args: [userId, userId, '|'],
      },
    },
  ];
}

/**
 * The statements of one erasure, for one transaction, in an order where each still finds what it names: what is
 * derived from or names the person's records first, then the records (sessions with their events and snapshots,
 * skill files, memories: their delete triggers remove the full-text entries), then an FTS5 `optimize`, which merges
 * the index into one segment so the erased terms are gone from its pages too, not only marked deleted.
 * Other people's memories an erased one had superseded have `superseded_by` cleared (`supersedesCleared`).
 */
export function eraseStatements(userId: string, vectorTables: readonly string[], now: Date): CountedStatement[] {
  const timestamp = now.toISOString();
  return [
    ...derivedStatements(userId, vectorTables),
    ...namingStatements(userId),
    {
      counts: 'supersedesCleared',
      statement: {
        sql: `UPDATE memories SET superseded_by = NULL, updated_at = ?
               WHERE superseded_by IN ${THEIR_MEMORIES} AND user_id IS NOT ?`,
        args: [timestamp, userId, userId],
      },
    },
    {
      counts: 'sessionEvents',
      statement: { sql: `DELETE FROM session_events WHERE session_id IN ${THEIR_SESSIONS}`, args: [userId] },
    },
    {
      counts: 'sessionSnapshots',
      statement: { sql: `DELETE FROM session_snapshots WHERE session_id IN ${THEIR_SESSIONS}`, args: [userId] },
    },
    { counts: 'sessions', statement: { sql: 'DELETE FROM sessions WHERE user_id = ?', args: [userId] } },
    { counts: 'skillFiles', statement: { sql: 'DELETE FROM skill_files WHERE user_id = ?', args: [userId] } },
    { counts: 'memories', statement: { sql: 'DELETE FROM memories WHERE user_id = ?', args: [userId] } },
    { counts: null, statement: { sql: "INSERT INTO memories_fts(memories_fts) VALUES ('optimize')", args: [] } },
  ];
}
