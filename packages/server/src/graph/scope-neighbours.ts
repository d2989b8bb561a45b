import type { Database } from '../store/database.js';
import { visibleLiveSeqs } from '../store/scope-filter.js';
import type { VectorTable } from '../store/vector-tables.js';

/** A scope of the memories written with one user and project: who sees what a memory's neighbours may be. */
export interface WriterScope {
  tenantId: null;
  userId: string | null;
  projectId: string | null;
}

/**
 * The nearest neighbours of some memories (by `seq`, each by its stored vector) among every live, current memory their
 * writer's scope sees, ranked exactly: `limit` per memory, by cosine distance, ties by the older `seq`; a memory
 * without a stored vector gets no list. The vector index ranks the whole tenant, so in a tenant shared by many users
 * its nearest few are mostly other users' (a user who wrote where they live competes with every user who did). For
 * scopes `scopeRanking` ranks exactly or falls back to ranking exactly (at most `EXACT_SEARCH_MAX` live memories): the
 * scope's vectors are read once each (the outer loop) and compared with every memory asked about.
 */
export async function exactScopeNeighbours(
  database: Database,
  table: VectorTable,
  scope: WriterScope,
  seqs: readonly number[],
  limit: number,
): Promise<Map<number, Array<{ id: string; similarity: number }>>> {
  const visible = visibleLiveSeqs(scope, 'm');
  const asked = JSON.stringify(seqs);
  // The first branch names the memories that have a stored vector, neighbours or not: only they get a list.
  const rows = await database.all<{ seq: number; id: string | null; distance: number | null }>(
    `SELECT memory_seq AS seq, NULL AS id, NULL AS distance, 0 AS place
       FROM ${table.tableName} WHERE memory_seq IN (SELECT value FROM json_each(?))
     UNION ALL
     SELECT seq, id, distance, place FROM (
       SELECT seq, id, distance, row_number() OVER (PARTITION BY seq ORDER BY distance, neighbour) AS place FROM (
         SELECT q.memory_seq AS seq, m.id AS id, m.seq AS neighbour,
                vector_distance_cos(v.embedding, q.embedding) AS distance
           FROM memories m
           CROSS JOIN ${table.tableName} v ON v.memory_seq = m.seq
           CROSS JOIN ${table.tableName} q ON q.memory_seq IN (SELECT value FROM json_each(?))
          WHERE ${visible.sql} AND m.superseded_by IS NULL AND m.seq <> q.memory_seq))
      WHERE place <= ? ORDER BY seq, place`,
    [asked, asked, ...visible.args, limit],
  );
  const found = new Map<number, Array<{ id: string; similarity: number }>>();
  for (const row of rows) {
    const list = found.get(Number(row.seq)) ?? [];
    found.set(Number(row.seq), list);
    if (row.id !== null) list.push({ id: row.id, similarity: 1 - Number(row.distance) });
  }
  return found;
}
