import type { InStatement } from '@libsql/client';

/** An older statement of a claim and the newer one that gives it another value. */
export interface SupersedePair {
  olderId: string;
  newerId: string;
}

/**
 * Statements that supersede older statements at write time (the indexer's verdict by consolidation's rule,
 * docs/architecture.md#write-side-behaviour): `superseded_by` on the older, a `supersedes` edge from the newer (origin
 * `consolidation`, so re-extracting either memory keeps it, as after a consolidation run) and a `memory.superseded`
 * lifecycle event. A memory already superseded, forgotten or gone is left as it is.
 */
export function supersedeAtWriteStatements(pairs: readonly SupersedePair[], timestamp: string): InStatement[] {
  return pairs.flatMap(({ olderId, newerId }) => [
    {
      sql: `UPDATE memories SET superseded_by = ?, updated_at = ?
             WHERE id = ? AND deleted_at IS NULL AND superseded_by IS NULL
               AND EXISTS (SELECT 1 FROM memories n WHERE n.id = ? AND n.deleted_at IS NULL AND n.superseded_by IS NULL)`,
      args: [newerId, timestamp, olderId, newerId],
    },
    {
      sql: `INSERT OR REPLACE INTO graph_edges (source_memory_id, target_memory_id, edge_type, confidence, origin, detail, created_at)
            SELECT ?, ?, 'supersedes', 1, 'consolidation', json_object('reason', 'newer_statement', 'decidedAt', 'write'), ?
             WHERE EXISTS (SELECT 1 FROM memories WHERE id = ? AND superseded_by = ?)`,
      args: [newerId, olderId, timestamp, olderId, newerId],
    },
    {
      sql: `INSERT INTO lifecycle_events (kind, subject_id, user_id, project_id, detail, created_at)
            SELECT 'memory.superseded', id, user_id, project_id, json_object('supersededBy', ?, 'decidedAt', 'write'), ?
              FROM memories WHERE id = ? AND superseded_by = ? AND updated_at = ?`,
      args: [newerId, timestamp, olderId, newerId, timestamp],
    },
  ]);
}
