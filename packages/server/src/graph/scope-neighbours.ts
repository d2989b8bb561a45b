import { EXACT_SEARCH_MAX } from '../retrieval/semantic.js';
import type { Database } from '../store/database.js';
import { countVisibleLive, visibleLiveSeqs } from '../store/scope-filter.js';
import type { VectorTable } from '../store/vector-tables.js';

/** A scope of the memories written with one user and project: who sees what a memory's neighbours may be. */
export interface WriterScope {
  tenantId: null;
  userId: string | null;
  projectId: string | null;
}

/**
 * The nearest neighbours of some memories (by `seq`, each by its stored vector) among every live, current memory
 * their writer's scope sees, ranked exactly: `limit` per memory, by cosine distance, ties by the older `seq`. The
 * vector index ranks the whole tenant, so in a tenant shared by many users its nearest few are mostly other users'
 * (a user who wrote where they live competes with every user who did). Null when the scope holds more than
 * `EXACT_SEARCH_MAX` live memories: it is then a large part of the tenant, and the index's answer holds enough of it.
 * The scope's vectors are read once each (the outer loop) and compared with every memory asked about.
 */
export async function exactScopeNeighbours(
  database: Database,
  table: VectorTable,
  scope: WriterScope,
  seqs: readonly number[],
  limit: number,
): Promise<Map<number, Array<{ id: string; similarity: number }>> | null> {
  const counting = countVisibleLive(scope, EXACT_SEARCH_MAX);
  const counted = await database.get<{ count: number }>(counting.sql, counting.args);
  if (Number(counted?.count ?? 0) > EXACT_SEARCH_MAX) return null;
  const visible = visibleLiveSeqs(scope, 'm');
  const rows = await database.all<{ seq: number; id: string; distance: number }>(
    `SELECT seq, id, distance FROM (
       SELECT seq, id, distance, row_number() OVER (PARTITION BY seq ORDER BY distance, neighbour) AS place FROM (
         SELECT q.memory_seq AS seq, m.id AS id, m.seq AS neighbour,
                vector_distance_cos(v.embedding, q.embedding) AS distance
           FROM memories m
           CROSS JOIN ${table.tableName} v ON v.memory_seq = m.seq
           CROSS JOIN ${table.tableName} q ON q.memory_seq IN (SELECT value FROM json_each(?))
          WHERE ${visible.sql} AND m.superseded_by IS NULL AND m.seq <> q.memory_seq))
      WHERE place <= ? ORDER BY seq, place`,
    [JSON.stringify(seqs), ...visible.args, limit],
  );
  const found = new Map<number, Array<{ id: string; similarity: number }>>(seqs.map((seq) => [seq, []]));
  for (const row of rows) found.get(Number(row.seq))?.push({ id: row.id, similarity: 1 - Number(row.distance) });
  return found;
}
