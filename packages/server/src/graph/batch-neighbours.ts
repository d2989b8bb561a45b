import type { MemoryRow } from '../store/memory-rows.js';
import { visibleTo } from '../store/scope-filter.js';
import type { ScopeRanking } from '../store/scope-ranking.js';
import type { VectorTable } from '../store/vector-tables.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import { type Neighbours, nearestCandidates, SIMILARITY_CANDIDATES, SIMILARITY_SEARCH } from './related-memories.js';
import { exactScopeNeighbours } from './scope-neighbours.js';

/** Memories of a batch that share a vector table and a scope: one statement searches their neighbours. */
interface SearchGroup {
  table: VectorTable;
  scope: { tenantId: null; userId: string | null; projectId: string | null };
  rows: MemoryRow[];
}

async function searchGroups(tenant: TenantDatabase, rows: readonly MemoryRow[]): Promise<SearchGroup[]> {
  const groups = new Map<string, SearchGroup>();
  for (const row of rows) {
    if (row.embedding_model === null) continue;
    const table = await tenant.vectorTables.find(row.embedding_model);
    if (table === undefined) continue;
    const key = JSON.stringify([table.tableName, row.user_id, row.project_id]);
    const group = groups.get(key) ?? {
      table,
      scope: { tenantId: null, userId: row.user_id, projectId: row.project_id },
      rows: [],
    };
    group.rows.push(row);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** The group's neighbours ranked exactly over its writer's scope, for the members that have a stored vector. */
async function exactNeighbours(
  tenant: TenantDatabase,
  { table, scope, rows }: SearchGroup,
  seqs: readonly number[] = rows.map((row) => Number(row.seq)),
): Promise<Map<number, Neighbours>> {
  const exact = await exactScopeNeighbours(tenant.database, table, scope, seqs, SIMILARITY_CANDIDATES);
  return new Map([...exact].map(([seq, scored]) => [seq, { measure: 'cosine', scored }]));
}

/**
 * The group's neighbours through the vector index, one statement for the group: the index search runs once per
 * memory inside it, against the memory's stored vector. The first branch of the UNION says which memories have a
 * vector, neighbours or not; CROSS JOIN pins the join order (see `cosineNeighbours`). When the index leaves a memory
 * fewer neighbours than asked and the scope is the whole of a small tenant (`index-or-exact`), the scope is ranked
 * exactly.
 */
async function indexNeighbours(
  tenant: TenantDatabase,
  group: SearchGroup,
  ranking: ScopeRanking,
): Promise<Map<number, Neighbours>> {
  const { table, scope, rows } = group;
  const visible = visibleTo(scope, 'm');
  const seqs = JSON.stringify(rows.map((row) => Number(row.seq)));
  const results = await tenant.database.all<{ seq: number; id: string | null; distance: number | null }>(
    `SELECT b.value AS seq, NULL AS id, NULL AS distance
       FROM json_each(?) b CROSS JOIN ${table.tableName} q ON q.memory_seq = b.value
     UNION ALL
     SELECT b.value, m.id, vector_distance_cos(v.embedding, q.embedding)
       FROM json_each(?) b
       CROSS JOIN ${table.tableName} q ON q.memory_seq = b.value
       CROSS JOIN vector_top_k('${table.indexName}', q.embedding, ?) AS top
       CROSS JOIN ${table.tableName} v ON v.rowid = top.id
       CROSS JOIN memories m ON m.seq = v.memory_seq
      WHERE m.seq <> b.value AND m.deleted_at IS NULL AND m.superseded_by IS NULL AND ${visible.sql}`,
    [seqs, seqs, SIMILARITY_SEARCH, ...visible.args],
  );
  const bySeq = new Map<number, Neighbours>();
  for (const result of results) {
    const neighbours = bySeq.get(Number(result.seq)) ?? { measure: 'cosine', scored: [] };
    bySeq.set(Number(result.seq), neighbours);
    if (result.id !== null) neighbours.scored.push({ id: result.id, similarity: 1 - Number(result.distance) });
  }
  for (const neighbours of bySeq.values()) neighbours.scored = nearestCandidates(neighbours.scored);
  const short = [...bySeq.values()].some((neighbours) => neighbours.scored.length < SIMILARITY_CANDIDATES);
  if (!short || ranking !== 'index-or-exact') return bySeq;
  for (const [seq, neighbours] of await exactNeighbours(tenant, group, [...bySeq.keys()])) bySeq.set(seq, neighbours);
  return bySeq;
}

/**
 * The cosine neighbours of a batch's memories (`nearestNeighbours` for each), searched with one statement per vector
 * table and scope, usually one for the whole batch, so the batch costs one round trip to the database instead of two
 * per memory (its vector, then its search). How depends on the scope (`scopeRanking`): a narrow scope of a larger
 * tenant is ranked exactly (the index's nearest would be mostly other users'; searching it first cost ~7 ms per memory
 * at 100k for nothing), any other through the vector index. A memory without a stored vector is left out of the map
 * (the caller falls back to its lexical neighbours, as `nearestNeighbours` does).
 */
export async function batchNearestNeighbours(
  tenant: TenantDatabase,
  rows: readonly MemoryRow[],
): Promise<Map<string, Neighbours>> {
  const found = new Map<string, Neighbours>();
  for (const group of await searchGroups(tenant, rows)) {
    const ranking = await tenant.scopeRankings.ranking(group.scope);
    const bySeq =
      ranking === 'exact' ? await exactNeighbours(tenant, group) : await indexNeighbours(tenant, group, ranking);
    for (const row of group.rows) {
      const neighbours = bySeq.get(Number(row.seq));
      if (neighbours !== undefined) found.set(row.id, neighbours);
    }
  }
  return found;
}
