import type { Database } from './database.js';
import type { MemoryRow } from './memory-rows.js';

/** A `contradicts` edge as stored. */
export interface ContradictionEdge {
  source_memory_id: string;
  target_memory_id: string;
  confidence: number;
  /** JSON: `{ subjectKey, keySource }` from extraction or consolidation. */
  detail: string;
}

/** The `contradicts` edges between memories of a set (both ends in it), in a stable order: one query. */
export function contradictionsAmong(database: Database, ids: readonly string[]): Promise<ContradictionEdge[]> {
  const marks = ids.map(() => '?').join(', ');
  return database.all<ContradictionEdge>(
    `SELECT source_memory_id, target_memory_id, confidence, detail FROM graph_edges
      WHERE edge_type = 'contradicts' AND source_memory_id IN (${marks}) AND target_memory_id IN (${marks})
      ORDER BY source_memory_id, target_memory_id`,
    [...ids, ...ids],
  );
}

/**
 * Live, current memories of a consolidation subject group other than `memoryId`, newest first, at most `limit`, with
 * their content hash (an identical one is a duplicate).
 */
export function subjectPeers(
  database: Database,
  groupKey: string,
  memoryId: string,
  limit: number,
): Promise<Array<Pick<MemoryRow, 'id' | 'content' | 'category' | 'content_hash' | 'occurred_at' | 'seq'>>> {
  return database.all(
    `SELECT m.id, m.content, m.category, m.content_hash, m.occurred_at, m.seq
       FROM memory_subjects s JOIN memories m ON m.id = s.memory_id
      WHERE s.group_key = ? AND s.memory_id <> ? AND m.deleted_at IS NULL AND m.superseded_by IS NULL
      ORDER BY m.created_at DESC LIMIT ?`,
    [groupKey, memoryId, limit],
  );
}
