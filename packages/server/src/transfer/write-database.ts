import { createHash } from 'node:crypto';
import type { InStatement } from '@libsql/client';
import type { TransferRecord, TransferRecordKind } from '@memory-service/contract';
import type { Database } from '../store/database.js';
import { contentHash } from '../store/memory-rows.js';
import { createVectorTableStatements, vectorTableName } from '../store/vector-tables.js';

/** Records of one kind written per statement (a JSON array read by `json_each`): bounded memory, few round trips. */
export const WRITE_BATCH = 500;

type Values = Record<string, string | number | null>;
type RecordOf<Kind extends TransferRecordKind> = Extract<TransferRecord, { record: Kind }>;

const json = (value: unknown) => JSON.stringify(value);
/** `json_extract` of each listed field of the batch's rows, in order. */
const fields = (names: readonly string[]) => names.map((name) => `json_extract(j.value, '$.${name}')`).join(', ');
const updates = (columns: readonly string[]) => columns.map((column) => `${column} = excluded.${column}`).join(', ');

/** One upsert over a batch: the rows' values as a JSON array, inserted with `json_each`, conflicts updated. */
function upsert(table: string, columns: readonly string[], conflict: string, rows: readonly Values[]): InStatement {
  const keys = conflict.split(',').map((key) => key.trim());
  return {
    sql: `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${fields(columns)} FROM json_each(?) AS j WHERE true
          ON CONFLICT (${conflict}) DO UPDATE SET ${updates(columns.filter((column) => !keys.includes(column)))}`,
    args: [json(rows)],
  };
}

const MEMORY_COLUMNS = [
  'id',
  'content',
  'type',
  'layer',
  'tags',
  'paths',
  'category',
  'metadata',
  'user_id',
  'project_id',
  'embedding_model',
  'superseded_by',
  'content_hash',
  'created_at',
  'updated_at',
  'expires_at',
  'deleted_at',
  'occurred_at',
  'superseded_at',
] as const;

function memoryStatements(records: readonly RecordOf<'memory'>[], queue: boolean, now: Date): InStatement[] {
  const rows = records.map((memory) => ({
    id: memory.id,
    content: memory.content,
    type: memory.type,
    layer: memory.layer,
    tags: json(memory.tags),
    paths: json(memory.paths),
    category: memory.category,
    metadata: json(memory.metadata),
    user_id: memory.userId,
    project_id: memory.projectId,
    embedding_model: memory.embeddingModel,
    superseded_by: memory.supersededBy,
    content_hash: contentHash(memory.content),
    created_at: memory.createdAt,
    updated_at: memory.updatedAt,
    expires_at: memory.expiresAt,
    deleted_at: memory.deletedAt,
    occurred_at: memory.occurredAt,
    superseded_at: memory.supersededAt,
  }));
  const statements = [
    upsert('memories', MEMORY_COLUMNS, 'id', rows),
    // The trigger of tenant migration 8 stamps `superseded_at` when an update changes `superseded_by`: the file's
    // time is put back.
  ];
  // Only a superseded memory can have been stamped. The rows are found by id through its index: an UPDATE ... FROM
  // json_each let SQLite scan the whole table once per batch, which made an import of 100k memories quadratic.
  const superseded = rows.filter((row) => row.superseded_by !== null);
  if (superseded.length > 0) {
    const stamps = json(Object.fromEntries(superseded.map((row) => [row.id, row.superseded_at])));
    statements.push({
      sql: `UPDATE memories SET superseded_at = (SELECT value FROM json_each(?) WHERE key = memories.id)
             WHERE id IN (SELECT key FROM json_each(?))
               AND superseded_at IS NOT (SELECT value FROM json_each(?) WHERE key = memories.id)`,
      args: [stamps, stamps, stamps],
    });
  }
  if (queue) {
    // Their vectors and graph edges are derived again by the indexer, as after an add (a vector record of the same
    // file takes its memory off the queue).
    statements.push({
      sql: `INSERT INTO index_jobs (memory_seq, memory_id, kind, created_at)
            SELECT m.seq, m.id, 'add', ? FROM memories m
             WHERE m.id IN (SELECT value FROM json_each(?)) AND m.deleted_at IS NULL AND m.superseded_by IS NULL
            ON CONFLICT (memory_seq) DO UPDATE SET attempts = 0, last_error_code = NULL, generation = generation + 1,
              claimed_until = CASE WHEN claimed_by IS NULL THEN 0 ELSE claimed_until END`,
      args: [now.toISOString(), json(rows.map((row) => row.id))],
    });
  }
  return statements;
}

function versionStatement(records: readonly RecordOf<'memoryVersion'>[]): InStatement {
  const rows = records.map((version) => ({
    memory_id: version.memoryId,
    content: version.content,
    type: version.type,
    layer: version.layer,
    tags: json(version.tags),
    paths: json(version.paths),
    category: version.category,
    metadata: json(version.metadata),
    embedding_model: version.embeddingModel,
    occurred_at: version.occurredAt,
    valid_from: version.validFrom,
    replaced_at: version.replacedAt,
  }));
  const columns = Object.keys(rows[0] ?? {});
  // Versions have no id of their own: one is the same version when memory, period and wording are.
  return {
    sql: `INSERT INTO memory_versions (${columns.join(', ')}) SELECT ${fields(columns)} FROM json_each(?) AS j
           WHERE NOT EXISTS (SELECT 1 FROM memory_versions v WHERE v.memory_id = json_extract(j.value, '$.memory_id')
             AND v.valid_from = json_extract(j.value, '$.valid_from')
             AND v.replaced_at = json_extract(j.value, '$.replaced_at')
             AND v.content = json_extract(j.value, '$.content'))`,
    args: [json(rows)],
  };
}

/** The statements of a batch of one kind (never vectors or tenants: see `VectorWriter`). */
function batchStatements(kind: TransferRecordKind, records: readonly TransferRecord[], queue: boolean, now: Date) {
  const of = <Kind extends TransferRecordKind>(_: Kind) => records as readonly RecordOf<Kind>[];
  switch (kind) {
    case 'memory':
      return memoryStatements(of('memory'), queue, now);
    case 'memoryVersion':
      return [versionStatement(of('memoryVersion'))];
    case 'graphNode':
      return [
        upsert(
          'graph_nodes',
          ['id', 'type', 'label', 'created_at'],
          'id',
          of('graphNode').map((node) => ({
            id: node.id,
            type: node.kind,
            label: node.label,
            created_at: node.createdAt,
          })),
        ),
      ];
    case 'graphLink':
      return [
        upsert(
          'graph_memory_links',
          ['memory_id', 'node_id', 'edge_type', 'confidence', 'created_at'],
          'memory_id, node_id',
          of('graphLink').map((link) => ({
            memory_id: link.memoryId,
            node_id: link.nodeId,
            edge_type: link.edgeType,
            confidence: link.confidence,
            created_at: link.createdAt,
          })),
        ),
      ];
    case 'graphEdge':
      return [
        upsert(
          'graph_edges',
          ['source_memory_id', 'target_memory_id', 'edge_type', 'confidence', 'origin', 'detail', 'created_at'],
          'source_memory_id, target_memory_id, edge_type',
          of('graphEdge').map((edge) => ({
            source_memory_id: edge.sourceMemoryId,
            target_memory_id: edge.targetMemoryId,
            edge_type: edge.edgeType,
            confidence: edge.confidence,
            origin: edge.origin,
            detail: json(edge.detail),
            created_at: edge.createdAt,
          })),
        ),
      ];
    case 'memorySubject':
      return [
        upsert(
          'memory_subjects',
          ['memory_id', 'group_key', 'key_source'],
          'memory_id',
          of('memorySubject').map((subject) => ({
            memory_id: subject.memoryId,
            group_key: subject.groupKey,
            key_source: subject.keySource,
          })),
        ),
      ];
    case 'session':
      return [
        upsert(
          'sessions',
          [
            'id',
            'user_id',
            'project_id',
            'client',
            'status',
            'title',
            'metadata',
            'started_at',
            'last_activity_at',
            'ended_at',
          ],
          'id',
          of('session').map((session) => ({
            id: session.id,
            user_id: session.userId,
            project_id: session.projectId,
            client: session.client,
            status: session.status,
            title: session.title,
            metadata: json(session.metadata),
            started_at: session.startedAt,
            last_activity_at: session.lastActivityAt,
            ended_at: session.endedAt,
          })),
        ),
      ];
    case 'sessionEvent':
      return [
        upsert(
          'session_events',
          [
            'id',
            'session_id',
            'seq',
            'role',
            'kind',
            'content',
            'token_count',
            'turn_index',
            'is_meaningful',
            'created_at',
          ],
          'id',
          of('sessionEvent').map((event) => ({
            id: event.id,
            session_id: event.sessionId,
            seq: event.seq,
            role: event.role,
            kind: event.kind,
            content: event.content,
            token_count: event.tokenCount,
            turn_index: event.turnIndex,
            is_meaningful: event.isMeaningful ? 1 : 0,
            created_at: event.createdAt,
          })),
        ),
      ];
    case 'sessionSnapshot':
      return [
        upsert(
          'session_snapshots',
          [
            'id',
            'session_id',
            'seq',
            'slug',
            'source_trigger',
            'transcript_md',
            'message_count',
            'last_event_seq',
            'summary',
            'created_at',
          ],
          'id',
          of('sessionSnapshot').map((snapshot) => ({
            id: snapshot.id,
            session_id: snapshot.sessionId,
            seq: snapshot.seq,
            slug: snapshot.slug,
            source_trigger: snapshot.sourceTrigger,
            transcript_md: snapshot.transcriptMd,
            message_count: snapshot.messageCount,
            last_event_seq: snapshot.lastEventSeq,
            summary: snapshot.summary,
            created_at: snapshot.createdAt,
          })),
        ),
      ];
    case 'skillFile':
      return [
        upsert(
          'skill_files',
          [
            'id',
            'path',
            'title',
            'content',
            'user_id',
            'project_id',
            'scope_key',
            'use_count',
            'last_used_at',
            'metadata',
            'created_at',
            'updated_at',
            'deleted_at',
          ],
          'id',
          of('skillFile').map((file) => ({
            id: file.id,
            path: file.path,
            title: file.title,
            content: file.content,
            user_id: file.userId,
            project_id: file.projectId,
            scope_key: file.scopeKey,
            use_count: file.useCount,
            last_used_at: file.lastUsedAt,
            metadata: json(file.metadata),
            created_at: file.createdAt,
            updated_at: file.updatedAt,
            deleted_at: file.deletedAt,
          })),
        ),
      ];
    default:
      return [];
  }
}

/** The vector table of each model, as registered in the database (read before the write transaction starts). */
interface VectorTablesKnown {
  byModel: Map<string, { tableName: string; dimensions: number }>;
  names: Set<string>;
}

async function knownVectorTables(database: Database): Promise<VectorTablesKnown> {
  const rows = await database.all<{ model_id: string; table_name: string; dimensions: number }>(
    'SELECT model_id, table_name, dimensions FROM embedding_vector_tables',
  );
  return {
    byModel: new Map(
      rows.map((row) => [row.model_id, { tableName: row.table_name, dimensions: Number(row.dimensions) }]),
    ),
    names: new Set(rows.map((row) => row.table_name)),
  };
}

/** How statements reach the database: one transaction for the whole database, or one per batch. */
export interface StatementSink {
  write(statements: InStatement[]): Promise<void>;
}

/**
 * Writes the records of one database in batches of one kind (`WRITE_BATCH`), as upserts by id: writing the same
 * records twice leaves the same rows. Memories are queued for indexing unless their vectors come with them.
 */
export class DatabaseImporter {
  private kind: TransferRecordKind | null = null;
  private batch: TransferRecord[] = [];
  private vectorTables: VectorTablesKnown | null = null;
  /** Memories queued for indexing. */
  queued = 0;

  constructor(
    private readonly database: Database,
    private readonly sink: StatementSink,
    private readonly options: { queueForIndexing: boolean; now: Date },
  ) {}

  /** Reads what the writes need to know before the transaction starts. */
  async prepare(): Promise<void> {
    this.vectorTables = await knownVectorTables(this.database);
  }

  async add(record: TransferRecord): Promise<void> {
    if (record.record === 'tenant') return;
    if (this.kind !== record.record || this.batch.length >= WRITE_BATCH) await this.flush();
    this.kind = record.record;
    this.batch.push(record);
  }

  /** Writes what is batched. */
  async flush(): Promise<void> {
    const kind = this.kind;
    const batch = this.batch;
    this.batch = [];
    if (kind === null || batch.length === 0) return;
    if (kind === 'vector') return this.sink.write(this.vectorStatements(batch as RecordOf<'vector'>[]));
    if (kind === 'memory' && this.options.queueForIndexing) {
      this.queued += (batch as RecordOf<'memory'>[]).filter(
        (memory) => memory.deletedAt === null && memory.supersededBy === null,
      ).length;
    }
    await this.sink.write(batchStatements(kind, batch, this.options.queueForIndexing, this.options.now));
  }

  private vectorStatements(records: RecordOf<'vector'>[]): InStatement[] {
    const known = this.vectorTables ?? { byModel: new Map(), names: new Set<string>() };
    const statements: InStatement[] = [];
    const byTable = new Map<string, RecordOf<'vector'>[]>();
    for (const vector of records) {
      let table = known.byModel.get(vector.model);
      if (table === undefined) {
        let tableName = vectorTableName(vector.model, vector.dimensions);
        // Two ids that sanitise alike get the id's hash appended, as VectorTables.ensure does.
        if (known.names.has(tableName)) {
          tableName = `${tableName}_${createHash('sha256').update(vector.model).digest('hex').slice(0, 8)}`;
        }
        table = { tableName, dimensions: vector.dimensions };
        known.byModel.set(vector.model, table);
        known.names.add(tableName);
        statements.push(...createVectorTableStatements(vector.model, tableName, vector.dimensions, this.options.now));
      }
      byTable.set(table.tableName, [...(byTable.get(table.tableName) ?? []), vector]);
    }
    for (const [tableName, vectors] of byTable) {
      const rows = vectors.map((vector) => ({
        memory_id: vector.memoryId,
        values: json(vector.values),
        text_hash: vector.textHash,
        embedded_at: vector.embeddedAt,
      }));
      statements.push(
        {
          sql: `INSERT INTO ${tableName} (memory_seq, embedding, text_hash, embedded_at)
                SELECT m.seq, vector32(json_extract(j.value, '$.values')), json_extract(j.value, '$.text_hash'),
                       json_extract(j.value, '$.embedded_at')
                  FROM json_each(?) AS j JOIN memories m ON m.id = json_extract(j.value, '$.memory_id') WHERE true
                ON CONFLICT (memory_seq) DO UPDATE SET embedding = excluded.embedding, text_hash = excluded.text_hash,
                  embedded_at = excluded.embedded_at`,
          args: [json(rows)],
        },
        // A memory whose vector came with it needs no indexing (its graph came with it too).
        {
          sql: `DELETE FROM index_jobs WHERE memory_id IN (SELECT json_extract(value, '$.memory_id') FROM json_each(?))`,
          args: [json(rows.map((row) => ({ memory_id: row.memory_id })))],
        },
      );
    }
    return statements;
  }
}

/** Every statement in one transaction on the database's own connection: the database is written whole or not at all. */
export class SingleTransaction implements StatementSink {
  private open = false;
  constructor(private readonly database: Database) {}

  async begin(): Promise<void> {
    await this.database.run('BEGIN IMMEDIATE');
    this.open = true;
  }

  async write(statements: InStatement[]): Promise<void> {
    for (const statement of statements) {
      if (typeof statement === 'string') await this.database.run(statement);
      else await this.database.run(statement.sql, statement.args ?? []);
    }
  }

  async commit(): Promise<void> {
    await this.database.run('COMMIT');
    this.open = false;
  }

  async rollback(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    await this.database.run('ROLLBACK').catch(() => undefined);
  }
}

/**
 * Every statement in one transaction sent at the end, on the connection the server itself writes with (an import
 * through the server, whose body is capped: its statements fit in memory). Writes of other requests wait for it instead
 * of meeting a lock held by a second connection.
 */
export class CollectedTransaction implements StatementSink {
  private statements: InStatement[] = [];
  constructor(private readonly database: Database) {}

  async write(statements: InStatement[]): Promise<void> {
    this.statements.push(...statements);
  }

  async commit(): Promise<void> {
    const statements = this.statements;
    this.statements = [];
    await this.database.transaction(statements);
  }
}

/** One transaction per batch (a database on a libSQL server, where a transaction cannot span calls). */
export class BatchTransactions implements StatementSink {
  constructor(private readonly database: Database) {}

  async write(statements: InStatement[]): Promise<void> {
    await this.database.transaction(statements);
  }
}
