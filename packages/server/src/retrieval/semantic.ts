import type { Database } from '../store/database.js';
import { type MemoryRow, prefixed } from '../store/memory-rows.js';
import { type VectorTable, vectorBlob } from '../store/vector-tables.js';
import { type CandidateScope, candidateFilter, type RankedCandidate } from './candidate-filter.js';

/**
 * Over-fetch: the index knows nothing of scopes, so it is asked for a quarter more than the wanted count (at least
 * 64); when the scope filter leaves too few, the search widens 8x at a time, up to 4096 neighbours, before giving up
 * on more. A caller who sees most of the tenant (the common case) is served by one search of 250 for a fusion depth
 * of 200 rather than one of 800 (a hybrid context/get at 10k memories went from 79 to 54 ms in-process); a narrow
 * scope pays for the widening instead.
 */
const OVERFETCH_FACTOR = 1.25;
const OVERFETCH_MIN = 64;
const WIDEN_FACTOR = 8;
const OVERFETCH_MAX = 4096;

/**
 * Nearest memories to a query vector by cosine similarity: `vector_top_k` over the model's DiskANN index, then the
 * scope and candidate filters on the joined memories, then the cut; neighbours below the model's similarity floor are
 * dropped (a nearest neighbour is not necessarily a related one). Exact distances are recomputed on the stored
 * vectors, so the score does not depend on the index's compressed neighbour copies. CROSS JOIN pins the join order
 * (the index search first): left free, SQLite may scan a scope index and run the search once per memory.
 */
export async function vectorCandidates(
  database: Database,
  table: VectorTable,
  vector: Float32Array,
  options: CandidateScope & { limit: number; minSimilarity: number },
): Promise<RankedCandidate[]> {
  const where = candidateFilter(options);
  const blob = vectorBlob(vector);
  let neighbours = Math.max(Math.ceil(options.limit * OVERFETCH_FACTOR), OVERFETCH_MIN);
  for (;;) {
    const rows = await database.all<MemoryRow & { distance: number }>(
      `SELECT ${prefixed('m')}, vector_distance_cos(v.embedding, vector32(?)) AS distance
         FROM vector_top_k('${table.indexName}', vector32(?), ?) AS top
         CROSS JOIN ${table.tableName} v ON v.rowid = top.id
         CROSS JOIN memories m ON m.seq = v.memory_seq
        WHERE ${where.sql}
        ORDER BY distance, m.seq LIMIT ?`,
      [blob, blob, neighbours, ...where.args, options.limit],
    );
    if (rows.length >= options.limit || neighbours >= OVERFETCH_MAX) {
      return rows
        .map((row): RankedCandidate => ({ row, score: 1 - Number(row.distance), source: 'semantic' }))
        .filter((candidate) => candidate.score >= options.minSimilarity);
    }
    neighbours = Math.min(neighbours * WIDEN_FACTOR, OVERFETCH_MAX);
  }
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
