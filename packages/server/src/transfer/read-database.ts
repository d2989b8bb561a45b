import type { InValue } from '@libsql/client';
import type { TransferRecord } from '@memory-service/contract';
import type { Database } from '../store/database.js';
import { parseJson } from '../store/rows.js';

/** Rows read per query: pages are walked with keyset cursors, so memory holds one page whatever the table's size. */
const PAGE = 500;

type Row = Record<string, unknown>;
const text = (value: unknown): string => String(value);
const orNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
const list = (value: unknown): string[] => parseJson<string[]>(value, []);
const object = (value: unknown): Record<string, unknown> => parseJson<Record<string, unknown>>(value, {});

/**
 * Every row of a query, a page at a time, by a keyset: `where` compares the key columns with the last row's
 * (`keyOf`), so each page is an index seek, never an OFFSET scan.
 */
async function* pages(database: Database, table: string, key: readonly string[], columns = '*'): AsyncGenerator<Row> {
  let after: InValue[] | null = null;
  const order = key.join(', ');
  const tuple = key.length === 1 ? (key[0] as string) : `(${order})`;
  const placeholders = key.length === 1 ? '?' : `(${key.map(() => '?').join(', ')})`;
  for (;;) {
    const where: string = after === null ? '' : `WHERE ${tuple} > ${placeholders}`;
    const rows: Row[] = await database.all<Row>(
      `SELECT ${columns} FROM ${table} ${where} ORDER BY ${order} LIMIT ${PAGE}`,
      after ?? [],
    );
    for (const row of rows) yield row;
    if (rows.length < PAGE) return;
    const last = rows.at(-1) as Row;
    after = key.map((column) => last[column] as InValue);
  }
}

async function* memories(database: Database): AsyncGenerator<TransferRecord> {
  for await (const row of pages(database, 'memories', ['seq'])) {
    yield {
      record: 'memory',
      id: text(row.id),
      content: text(row.content),
      type: row.type as never,
      layer: row.layer as never,
      tags: list(row.tags),
      paths: list(row.paths),
      category: orNull(row.category),
      metadata: object(row.metadata),
      userId: orNull(row.user_id),
      projectId: orNull(row.project_id),
      embeddingModel: orNull(row.embedding_model),
      supersededBy: orNull(row.superseded_by),
      supersededAt: orNull(row.superseded_at),
      createdAt: text(row.created_at),
      updatedAt: text(row.updated_at),
      occurredAt: text(row.occurred_at ?? row.created_at),
      expiresAt: orNull(row.expires_at),
      deletedAt: orNull(row.deleted_at),
    };
  }
}

async function* memoryVersions(database: Database): AsyncGenerator<TransferRecord> {
  for await (const row of pages(database, 'memory_versions', ['seq'])) {
    yield {
      record: 'memoryVersion',
      memoryId: text(row.memory_id),
      content: text(row.content),
      type: row.type as never,
      layer: row.layer as never,
      tags: list(row.tags),
      paths: list(row.paths),
      category: orNull(row.category),
      metadata: object(row.metadata),
      embeddingModel: orNull(row.embedding_model),
      occurredAt: text(row.occurred_at),
      validFrom: text(row.valid_from),
      replacedAt: text(row.replaced_at),
    };
  }
}

async function* graph(database: Database): AsyncGenerator<TransferRecord> {
  for await (const row of pages(database, 'graph_nodes', ['id'])) {
    yield {
      record: 'graphNode',
      id: text(row.id),
      kind: text(row.type),
      label: text(row.label),
      createdAt: text(row.created_at),
    };
  }
  for await (const row of pages(database, 'graph_memory_links', ['memory_id', 'node_id'])) {
    yield {
      record: 'graphLink',
      memoryId: text(row.memory_id),
      nodeId: text(row.node_id),
      edgeType: text(row.edge_type),
      confidence: Number(row.confidence),
      createdAt: text(row.created_at),
    };
  }
  for await (const row of pages(database, 'graph_edges', ['source_memory_id', 'target_memory_id', 'edge_type'])) {
    yield {
      record: 'graphEdge',
      sourceMemoryId: text(row.source_memory_id),
      targetMemoryId: text(row.target_memory_id),
      edgeType: text(row.edge_type),
      confidence: Number(row.confidence),
      origin: text(row.origin),
      detail: object(row.detail),
      createdAt: text(row.created_at),
    };
  }
  for await (const row of pages(database, 'memory_subjects', ['memory_id'])) {
    yield {
      record: 'memorySubject',
      memoryId: text(row.memory_id),
      groupKey: text(row.group_key),
      keySource: text(row.key_source),
    };
  }
}

async function* sessions(database: Database): AsyncGenerator<TransferRecord> {
  for await (const row of pages(database, 'sessions', ['rowid'], 'rowid, *')) {
    yield {
      record: 'session',
      id: text(row.id),
      userId: orNull(row.user_id),
      projectId: orNull(row.project_id),
      client: orNull(row.client),
      status: text(row.status),
      title: orNull(row.title),
      metadata: object(row.metadata),
      startedAt: text(row.started_at),
      lastActivityAt: text(row.last_activity_at),
      endedAt: orNull(row.ended_at),
    };
  }
  for await (const row of pages(database, 'session_events', ['rowid'], 'rowid, *')) {
    yield {
      record: 'sessionEvent',
      id: text(row.id),
      sessionId: text(row.session_id),
      seq: Number(row.seq),
      role: text(row.role),
      kind: text(row.kind),
      content: text(row.content),
      tokenCount: Number(row.token_count),
      turnIndex: Number(row.turn_index),
      isMeaningful: Number(row.is_meaningful) === 1,
      createdAt: text(row.created_at),
    };
  }
  for await (const row of pages(database, 'session_snapshots', ['rowid'], 'rowid, *')) {
    yield {
      record: 'sessionSnapshot',
      id: text(row.id),
      sessionId: text(row.session_id),
      seq: Number(row.seq),
      slug: text(row.slug),
      sourceTrigger: text(row.source_trigger),
      transcriptMd: text(row.transcript_md),
      messageCount: Number(row.message_count),
      lastEventSeq: Number(row.last_event_seq),
      summary: orNull(row.summary),
      createdAt: text(row.created_at),
    };
  }
}

async function* skillFiles(database: Database): AsyncGenerator<TransferRecord> {
  for await (const row of pages(database, 'skill_files', ['rowid'], 'rowid, *')) {
    yield {
      record: 'skillFile',
      id: text(row.id),
      path: text(row.path),
      title: orNull(row.title),
      content: text(row.content),
      userId: orNull(row.user_id),
      projectId: orNull(row.project_id),
      scopeKey: text(row.scope_key),
      useCount: Number(row.use_count),
      lastUsedAt: orNull(row.last_used_at),
      metadata: object(row.metadata),
      createdAt: text(row.created_at),
      updatedAt: text(row.updated_at),
      deletedAt: orNull(row.deleted_at),
    };
  }
}

/** A stored `F32_BLOB` as numbers (float32 values are exact as JSON doubles, so they read back bit for bit). */
function floats(blob: unknown, dimensions: number): number[] {
  if (!(blob instanceof ArrayBuffer)) return [];
  return Array.from(new Float32Array(blob, 0, Math.min(dimensions, Math.floor(blob.byteLength / 4))));
}

async function* vectors(database: Database): AsyncGenerator<TransferRecord> {
  const tables = await database.all<{ model_id: string; table_name: string; dimensions: number }>(
    'SELECT model_id, table_name, dimensions FROM embedding_vector_tables ORDER BY model_id',
  );
  for (const table of tables) {
    const dimensions = Number(table.dimensions);
    const columns = 'v.memory_seq AS memory_seq, m.id AS memory_id, v.embedding, v.text_hash, v.embedded_at';
    const source = `${table.table_name} v JOIN memories m ON m.seq = v.memory_seq`;
    for await (const row of pages(database, source, ['memory_seq'], columns)) {
      yield {
        record: 'vector',
        memoryId: text(row.memory_id),
        model: table.model_id,
        dimensions,
        values: floats(row.embedding, dimensions),
        textHash: text(row.text_hash),
        embeddedAt: text(row.embedded_at),
      };
    }
  }
}

/**
 * Every exported record of one tenant (or workspace) database, in the order of docs/export-format.md: memories,
 * their versions, the graph, sessions with their events and snapshots, skill files, then vectors when asked.
 */
export async function* databaseRecords(
  database: Database,
  { withVectors }: { withVectors: boolean },
): AsyncGenerator<TransferRecord> {
  yield* memories(database);
  yield* memoryVersions(database);
  yield* graph(database);
  yield* sessions(database);
  yield* skillFiles(database);
  if (withVectors) yield* vectors(database);
}

/** How many records `databaseRecords` will give (for a progress bar), counted cheaply per table. */
export async function countRecords(database: Database, { withVectors }: { withVectors: boolean }): Promise<number> {
  const tables = [
    'memories',
    'memory_versions',
    'graph_nodes',
    'graph_memory_links',
    'graph_edges',
    'memory_subjects',
    'sessions',
    'session_events',
    'session_snapshots',
    'skill_files',
  ];
  if (withVectors) {
    const vectorTables = await database.all<{ table_name: string }>('SELECT table_name FROM embedding_vector_tables');
    tables.push(...vectorTables.map((table) => table.table_name));
  }
  let total = 0;
  for (const table of tables) {
    const row = await database.get<{ count: number }>(`SELECT count(*) AS count FROM ${table}`);
    total += Number(row?.count ?? 0);
  }
  return total;
}
