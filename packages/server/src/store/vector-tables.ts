import { createHash } from 'node:crypto';
import type { InStatement } from '@libsql/client';
import type { Database } from './database.js';

/** A model's vector table: `F32_BLOB(dimensions)` rows keyed by the memory's `seq`, with a DiskANN index. */
export interface VectorTable {
  modelId: string;
  tableName: string;
  indexName: string;
  dimensions: number;
}

/**
 * DiskANN settings: cosine distance (embeddings are compared by angle); 32 neighbours per node with float8-compressed
 * neighbour vectors, which made inserts about 6x faster than the defaults at 384-512 dimensions while the index stays
 * an over-fetched candidate generator (exact distances are recomputed on the full vectors). `insert_l=32` (libSQL's
 * default is 70): an insert searches a 32-wide list for its node's neighbours. With 20k hash-384 vectors an insert took
 * 6.9 -> 3.9 ms with the same recall of the exact nearest 10 and 25 (0.995 / 0.994) and no slower searches; at 100k
 * only 6.3 -> 5.8 ms (there, by our reading, rewriting the neighbours' nodes is most of an insert). 16 neighbours
 * or 1-bit neighbour vectors lost 0.14-0.25 of that recall (BENCHMARKS.md, "Issue 27, fourth round"). An index keeps
 * the settings it was created with: these apply to vector tables created from now on.
 */
const INDEX_OPTIONS = "'metric=cosine', 'max_neighbors=32', 'compress_neighbors=float8', 'insert_l=32'";

/**
 * The statements creating a model's vector table, its index (`<table>_idx`) and its registration, for one transaction
 * (`VectorTables.ensure`, and an import).
 */
export function createVectorTableStatements(
  modelId: string,
  tableName: string,
  dimensions: number,
  now: Date,
): InStatement[] {
  const indexName = `${tableName}_idx`;
  return [
    `CREATE TABLE IF NOT EXISTS ${tableName} (
       memory_seq INTEGER PRIMARY KEY,
       embedding F32_BLOB(${dimensions}) NOT NULL,
       text_hash TEXT NOT NULL,
       embedded_at TEXT NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS ${indexName} ON ${tableName} (libsql_vector_idx(embedding, ${INDEX_OPTIONS}))`,
    vectorKeyIndexStatement(tableName),
    {
      sql: `INSERT OR IGNORE INTO embedding_vector_tables (model_id, table_name, index_name, dimensions, created_at)
            VALUES (?, ?, ?, ?, ?)`,
      args: [modelId, tableName, indexName, dimensions, now.toISOString()],
    },
  ];
}

/**
 * The name of a vector table's key index: its `memory_seq` alone. The key is the table's rowid, so the index repeats
 * it, on purpose: the rowid tree's leaves hold the vectors (1.5-2 KB a row), and a count of the table or a test of
 * whether a memory has a vector reads those leaves, where the key index holds a few bytes an entry. Counting the
 * memories without a vector at 100k took 185 ms through the rowid, 25 ms through this index.
 */
export function vectorKeyIndexName(tableName: string): string {
  return `${tableName}_seq`;
}

/** The statement creating a vector table's key index (`vectorKeyIndexName`): with its table, and in migration 11. */
export function vectorKeyIndexStatement(tableName: string): string {
  return `CREATE INDEX IF NOT EXISTS ${vectorKeyIndexName(tableName)} ON ${tableName} (memory_seq)`;
}

interface VectorTableRow {
  model_id: string;
  table_name: string;
  index_name: string;
  dimensions: number;
}

const fromRow = (row: VectorTableRow): VectorTable => ({
  modelId: row.model_id,
  tableName: row.table_name,
  indexName: row.index_name,
  dimensions: Number(row.dimensions),
});

/** A safe SQL identifier for a model's table: `memory_vectors_<sanitised id>_<dimensions>` (only [a-z0-9_]). */
export function vectorTableName(modelId: string, dimensions: number): string {
  const sanitised = modelId
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 48);
  return `memory_vectors_${sanitised}_${dimensions}`;
}

/** A Float32 vector as the blob `vector32()` reads. */
export function vectorBlob(vector: Float32Array): Uint8Array {
  return new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
}

/** A memory's vector to store, with the hash of the text it was computed from. */
export interface VectorEntry {
  memorySeq: number;
  vector: Float32Array;
  textHash: string;
}

/** The statements storing (or replacing) memories' vectors. */
export function vectorStatements(table: VectorTable, entries: readonly VectorEntry[], now: Date): InStatement[] {
  return entries.flatMap((entry) => [
    { sql: `DELETE FROM ${table.tableName} WHERE memory_seq = ?`, args: [entry.memorySeq] },
    {
      sql: `INSERT INTO ${table.tableName} (memory_seq, embedding, text_hash, embedded_at) VALUES (?, vector32(?), ?, ?)`,
      args: [entry.memorySeq, vectorBlob(entry.vector), entry.textHash, now.toISOString()],
    },
  ]);
}

/**
 * The vector tables of one database (one per embedding model) and their rows. A table, once created, is never dropped,
 * so its registration is kept after the first read (a handful per database, no eviction needed).
 */
export class VectorTables {
  private readonly known = new Map<string, VectorTable>();
  /** Whether each table has its key index (`vectorKeyIndexName`), once asked. */
  private readonly keyIndexed = new Map<string, boolean>();

  constructor(private readonly database: Database) {}

  /** The vector table of a model, if one exists in this database. */
  async find(modelId: string): Promise<VectorTable | undefined> {
    const cached = this.known.get(modelId);
    if (cached !== undefined) return cached;
    const row = await this.database.get<VectorTableRow>(
      'SELECT model_id, table_name, index_name, dimensions FROM embedding_vector_tables WHERE model_id = ?',
      [modelId],
    );
    if (row === undefined) return undefined;
    const table = fromRow(row);
    this.known.set(modelId, table);
    return table;
  }

  /** Every vector table of this database. */
  async list(): Promise<VectorTable[]> {
    const rows = await this.database.all<VectorTableRow>(
      'SELECT model_id, table_name, index_name, dimensions FROM embedding_vector_tables ORDER BY model_id',
    );
    return rows.map(fromRow);
  }

  /** The model's vector table, created with its index on first use (safe when two writers race). */
  async ensure(modelId: string, dimensions: number, now: Date): Promise<VectorTable> {
    const existing = await this.find(modelId);
    if (existing !== undefined) {
      if (existing.dimensions !== dimensions)
        throw new Error(`vector table of ${modelId} has ${existing.dimensions} dimensions, not ${dimensions}`);
      return existing;
    }
    let tableName = vectorTableName(modelId, dimensions);
    const taken = await this.database.get('SELECT 1 FROM embedding_vector_tables WHERE table_name = ?', [tableName]);
    // Two ids that sanitise alike (`a/b-c`, `a/b_c`) get the id's hash appended.
    if (taken !== undefined)
      tableName = `${tableName}_${createHash('sha256').update(modelId).digest('hex').slice(0, 8)}`;
    await this.database.transaction(createVectorTableStatements(modelId, tableName, dimensions, now));
    const created = await this.find(modelId);
    if (created === undefined) throw new Error('vector table registration not found');
    return created;
  }

  /** A memory's stored vector in a table (the `F32_BLOB`), if it has one. */
  async storedVector(table: VectorTable, memorySeq: number): Promise<ArrayBuffer | undefined> {
    const stored = await this.database.get<{ embedding: ArrayBuffer }>(
      `SELECT embedding FROM ${table.tableName} WHERE memory_seq = ?`,
      [memorySeq],
    );
    return stored?.embedding;
  }

  /** The text hash stored beside each of these memories' vectors of a table (memories without one are absent). */
  async textHashes(table: VectorTable, memorySeqs: readonly number[]): Promise<Map<number, string>> {
    if (memorySeqs.length === 0) return new Map();
    const stored = await this.database.all<{ memory_seq: number; text_hash: string }>(
      `SELECT memory_seq, text_hash FROM ${table.tableName} WHERE memory_seq IN (${memorySeqs.map(() => '?').join(', ')})`,
      [...memorySeqs],
    );
    return new Map(stored.map((entry) => [Number(entry.memory_seq), entry.text_hash]));
  }

  /** The statements dropping a memory's vectors of every model (an edit that changed its text). */
  async dropStatements(memorySeq: number): Promise<InStatement[]> {
    return (await this.list()).map((table) => ({
      sql: `DELETE FROM ${table.tableName} WHERE memory_seq = ?`,
      args: [memorySeq],
    }));
  }

  /** Deletes vectors whose memory no longer exists (purged by vacuum); returns how many. */
  async purgeOrphans(): Promise<number> {
    let purged = 0;
    for (const table of await this.list()) {
      purged += await this.database.run(
        `DELETE FROM ${table.tableName} WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.seq = memory_seq)`,
      );
    }
    return purged;
  }

  /**
   * The condition "memory `m` has no vector for this model" (every memory, when the model has no table yet): what
   * the backfill and the observability's pending counts select. It reads the table's key index, not its vectors,
   * when the table has one.
   */
  async lackingCondition(modelId: string): Promise<{ sql: string; args: [] }> {
    const table = await this.find(modelId);
    if (table === undefined) return { sql: '1 = 1', args: [] };
    const keys = (await this.hasKeyIndex(table)) ? ` INDEXED BY ${vectorKeyIndexName(table.tableName)}` : '';
    return { sql: `NOT EXISTS (SELECT 1 FROM ${table.tableName} v${keys} WHERE v.memory_seq = m.seq)`, args: [] };
  }

  /**
   * Whether a table has its key index. Every table has it once migration 11 has run, but servers of two versions may
   * share one database while it is upgraded, and an older one creates a new model's table without it: that table is
   * then probed by its rowid, more slowly, rather than failing on an index it does not have.
   */
  private async hasKeyIndex(table: VectorTable): Promise<boolean> {
    const known = this.keyIndexed.get(table.tableName);
    if (known !== undefined) return known;
    const found = await this.database.hasSchemaObject('index', vectorKeyIndexName(table.tableName));
    this.keyIndexed.set(table.tableName, found);
    return found;
  }
}
