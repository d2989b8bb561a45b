import type { Database } from '../store/database.js';
import { type MemoryRow, memoriesBySeq, prefixed } from '../store/memory-rows.js';
import { allOf, type Condition, visibleLiveSeqs } from '../store/scope-filter.js';
import { type ScopeRanking, scopeRanking } from '../store/scope-ranking.js';
import { type VectorTable, vectorBlob } from '../store/vector-tables.js';
import { type CandidateScope, candidateFilter, type RankedCandidate } from './candidate-filter.js';

/**
 * Over-fetch: the index knows nothing of scopes, so it is asked for a quarter more than the wanted count (at least
 * 64). A caller who sees most of the tenant (the common case) is served by that one search: 250 neighbours for a
 * fusion depth of 200 rather than 800 (a hybrid context/get at 10k memories went from 79 to 54 ms in-process).
 */
const OVERFETCH_FACTOR = 1.25;
const OVERFETCH_MIN = 64;
/**
 * What a second index search asks when the first left too few in scope. libSQL's DiskANN search returns at most the
 * candidates it kept while searching (its `search_l`, 200 by default, which our indexes keep): asking 250, 500 or 4096
 * neighbours of 100k vectors returns 201-202 alike. So a search can widen once, up to that list, and never beyond it.
 */
const WIDEST_SEARCH = 4096;
/** A memory near a query vector, before its row is read: its `seq` and cosine similarity. */
export interface Neighbour {
  seq: number;
  score: number;
}

type SearchOptions = CandidateScope & { limit: number; minSimilarity: number };

interface Found {
  seq: number;
  distance: number;
  visible: number;
}

/**
 * The index's nearest memories to a vector, each flagged with whether the candidate filter keeps it: the filter is
 * read in the same pass (it needs the memory's row) but filters nothing, so the caller knows how many the index found
 * at all. Exact distances are recomputed on the stored vectors, so the score does not depend on the index's
 * compressed neighbour copies. CROSS JOIN pins the join order (the index search first): left free, SQLite may scan a
 * scope index and run the search once per memory.
 */
function indexSearch(database: Database, table: VectorTable, blob: Uint8Array, where: Condition, neighbours: number) {
  return database.all<Found>(
    `SELECT m.seq AS seq, vector_distance_cos(v.embedding, vector32(?)) AS distance,
            CASE WHEN ${where.sql} THEN 1 ELSE 0 END AS visible
       FROM vector_top_k('${table.indexName}', vector32(?), ?) AS top
       CROSS JOIN ${table.tableName} v ON v.rowid = top.id
       CROSS JOIN memories m ON m.seq = v.memory_seq`,
    [blob, ...where.args, blob, neighbours],
  );
}

/**
 * Every memory of a small scope that passes the filter and has a vector, ranked by exact distance to each vector, in
 * one statement: each stored vector is read once (the materialized `in_scope`) and compared with every query
 * vector, and each list keeps its first `limit`, ties by the older `seq`.
 */
async function exactLists(
  database: Database,
  table: VectorTable,
  vectors: readonly Float32Array[],
  options: SearchOptions,
): Promise<Neighbour[][]> {
  const where = allOf(visibleLiveSeqs(options.scope, 'm'), candidateFilter(options));
  const distances = vectors.map((_, index) => `vector_distance_cos(v.embedding, vector32(?)) AS d${index}`);
  const lists = vectors.map(
    (_, index) => `SELECT * FROM (SELECT ${index} AS list, seq, d${index} AS distance FROM in_scope
                    ORDER BY d${index}, seq LIMIT ?)`,
  );
  const rows = await database.all<{ list: number; seq: number; distance: number }>(
    `WITH in_scope AS MATERIALIZED (
       SELECT m.seq AS seq, ${distances.join(', ')}
         FROM memories m CROSS JOIN ${table.tableName} v ON v.memory_seq = m.seq
        WHERE ${where.sql})
     ${lists.join(' UNION ALL ')}`,
    [...vectors.map(vectorBlob), ...where.args, ...vectors.map(() => options.limit)],
  );
  const ranked: Array<Array<{ seq: number; distance: number }>> = vectors.map(() => []);
  for (const row of rows) ranked[Number(row.list)]?.push(row);
  return ranked.map((list) => neighboursOf(list, options));
}

const byDistance = (left: { seq: number; distance: number }, right: { seq: number; distance: number }) =>
  Number(left.distance) - Number(right.distance) || Number(left.seq) - Number(right.seq);

/** The first `limit` by distance as neighbours, those below the model's similarity floor dropped. */
function neighboursOf(found: Array<{ seq: number; distance: number }>, options: SearchOptions): Neighbour[] {
  return found
    .sort(byDistance)
    .slice(0, options.limit)
    .map((row) => ({ seq: Number(row.seq), score: 1 - Number(row.distance) }))
    .filter((neighbour) => neighbour.score >= options.minSimilarity);
}

/** Whether the table holds no more vectors than the index returned: then its answer was every vector there is. */
async function holdsAtMost(database: Database, table: VectorTable, count: number): Promise<boolean> {
  const row = await database.get<{ count: number }>(
    `SELECT count(*) AS count FROM (SELECT 1 FROM ${table.tableName} LIMIT ?)`,
    [count + 1],
  );
  return Number(row?.count ?? 0) <= count;
}

/**
 * The index's nearest memories to a vector that pass the scope and candidate filters. When those leave fewer than
 * `limit` and the index returned as many as asked, the search widens once to the index's whole search list; if that
 * is still short, the index did not return every vector there is, and the scope is small (`index-or-exact`), the scope
 * is ranked exactly.
 */
async function indexNeighbours(
  database: Database,
  table: VectorTable,
  vector: Float32Array,
  options: SearchOptions,
  ranking: ScopeRanking,
): Promise<Neighbour[]> {
  const where = candidateFilter(options);
  const blob = vectorBlob(vector);
  let asked = Math.max(Math.ceil(options.limit * OVERFETCH_FACTOR), OVERFETCH_MIN);
  let found = await indexSearch(database, table, blob, where, asked);
  let kept = found.filter((row) => Number(row.visible) === 1);
  if (kept.length < options.limit && found.length >= asked && asked < WIDEST_SEARCH) {
    asked = WIDEST_SEARCH;
    found = await indexSearch(database, table, blob, where, asked);
    kept = found.filter((row) => Number(row.visible) === 1);
  }
  if (kept.length >= options.limit || ranking !== 'index-or-exact') return neighboursOf(kept, options);
  if (await holdsAtMost(database, table, found.length)) return neighboursOf(kept, options);
  const [exact = []] = await exactLists(database, table, [vector], options);
  return exact;
}

/**
 * Nearest memories to each query vector by cosine similarity, one list per vector, as `seq` and score (their rows are
 * read once for all of a query's lists: `withRows`), best first, at most `limit` each; neighbours below the model's
 * similarity floor are dropped (a nearest neighbour is not necessarily a related one). How depends on the scope
 * (`scopeRanking`): a narrow scope of a larger tenant (one user among many) is ranked exactly, every vector in one
 * statement, so it gets its own nearest memories, not the few of them among the tenant's nearest; any other scope is
 * served by the model's DiskANN index, one search per vector at once, with the scope and candidate filters applied to
 * its list. `ranking` is `scopeRanking`'s answer when the caller counted already.
 */
export async function vectorNeighbourLists(
  database: Database,
  table: VectorTable,
  vectors: readonly Float32Array[],
  options: SearchOptions,
  ranking?: Promise<ScopeRanking>,
): Promise<Neighbour[][]> {
  if (vectors.length === 0) return [];
  const how = await (ranking ?? scopeRanking(database, options.scope));
  if (how === 'exact') return exactLists(database, table, vectors, options);
  return Promise.all(vectors.map((vector) => indexNeighbours(database, table, vector, options, how)));
}

/**
 * Lists of neighbours with their memories' rows, read in one statement for all the lists (a query's two vectors share
 * many neighbours), each by its key. A memory forgotten or superseded since its list was searched is left out.
 */
export async function withRows(
  database: Database,
  lists: readonly (readonly Neighbour[])[],
): Promise<RankedCandidate[][]> {
  const seqs = [...new Set(lists.flatMap((list) => list.map(({ seq }) => seq)))];
  const rows =
    seqs.length === 0
      ? []
      : await database.all<MemoryRow>(
          `SELECT ${prefixed('m')} FROM ${memoriesBySeq('m')} WHERE m.deleted_at IS NULL AND m.superseded_by IS NULL`,
          [JSON.stringify(seqs)],
        );
  const rowOf = new Map(rows.map((row) => [Number(row.seq), row]));
  return lists.map((list) =>
    list.flatMap(({ seq, score }): RankedCandidate[] => {
      const row = rowOf.get(seq);
      return row === undefined ? [] : [{ row, score, source: 'semantic' }];
    }),
  );
}

/** The nearest memories to one query vector as ranked candidates, with their rows (`vectorNeighbourLists`). */
export async function vectorCandidates(
  database: Database,
  table: VectorTable,
  vector: Float32Array,
  options: SearchOptions,
): Promise<RankedCandidate[]> {
  const [list] = await withRows(database, await vectorNeighbourLists(database, table, [vector], options));
  return list ?? [];
}

/** Cosine similarity to the query vector of given memories (by `seq`) that have a vector in the table. */
export async function similarities(
  database: Database,
  table: VectorTable,
  vector: Float32Array,
  seqs: readonly number[],
): Promise<Map<number, number>> {
  if (seqs.length === 0) return new Map();
  const rows = await database.all<{ memory_seq: number; distance: number }>(
    `SELECT memory_seq, vector_distance_cos(embedding, vector32(?)) AS distance FROM ${table.tableName}
      WHERE memory_seq IN (${seqs.map(() => '?').join(', ')})`,
    [vectorBlob(vector), ...seqs],
  );
  return new Map(rows.map((row) => [Number(row.memory_seq), 1 - Number(row.distance)]));
}

/**
 * The cosine similarity of given memories (by `seq`) that have a vector in the table to the closest of several query
 * vectors, in one statement.
 */
export async function closestSimilarities(
  database: Database,
  table: VectorTable,
  vectors: readonly Float32Array[],
  seqs: readonly number[],
): Promise<Map<number, number>> {
  if (seqs.length === 0 || vectors.length === 0) return new Map();
  const each = vectors.map(() => '1 - vector_distance_cos(embedding, vector32(?))');
  // SQLite's max() of one argument is the aggregate: a single vector's similarity is used as is.
  const similarity = each.length === 1 ? each[0] : `max(${each.join(', ')})`;
  const rows = await database.all<{ memory_seq: number; similarity: number }>(
    `SELECT memory_seq, ${similarity} AS similarity FROM ${table.tableName}
      WHERE memory_seq IN (${seqs.map(() => '?').join(', ')})`,
    [...vectors.map(vectorBlob), ...seqs],
  );
  return new Map(rows.map((row) => [Number(row.memory_seq), Number(row.similarity)]));
}
