import { createHash, randomBytes } from 'node:crypto';
import type { InStatement, InValue } from '@libsql/client';
import {
  type Memory,
  type MemoryLayer,
  type MemoryType,
  normalizeMemoryContent,
  type ResolvedScope,
  recordScopeOf,
  resolveRelativeDates,
} from '@memory-service/contract';
import { parseJson, textOrNull } from './rows.js';
import type { Condition } from './scope-filter.js';

/** A `memories` row as stored. */
export interface MemoryRow {
  seq: number;
  id: string;
  content: string;
  type: string;
  layer: string;
  tags: string;
  paths: string;
  category: string | null;
  metadata: string;
  user_id: string | null;
  project_id: string | null;
  embedding_model: string | null;
  superseded_by: string | null;
  content_hash: string;
  created_at: string;
  updated_at: string;
  expires_at: string | null;
  deleted_at: string | null;
  /** When what the memory says happened or was said (tenant migration 7); `created_at` unless the write named one. */
  occurred_at: string;
}

/** Fields of a new memory. */
export interface NewMemory {
  content: string;
  type: MemoryType;
  layer: MemoryLayer;
  tags: string[];
  paths: string[];
  category: string | null;
  metadata: Record<string, unknown>;
  embeddingModel: string | null;
  expiresAt: string | null;
  /** When what it says happened or was said (ISO 8601 UTC); absent: the time of the write. */
  occurredAt?: string;
}

/** Editable fields. */
export type MemoryPatch = Partial<
  Pick<
    NewMemory,
    'content' | 'type' | 'layer' | 'tags' | 'paths' | 'category' | 'metadata' | 'embeddingModel' | 'occurredAt'
  >
>;

export const MEMORY_COLUMNS =
  'seq, id, content, type, layer, tags, paths, category, metadata, user_id, project_id, embedding_model, superseded_by, content_hash, created_at, updated_at, expires_at, deleted_at, occurred_at';

/** A 12-character lowercase hex id (docs/architecture.md#storage). */
export function newMemoryId(): string {
  return randomBytes(6).toString('hex');
}

/**
 * The hash of a memory's normalised content (`normalizeMemoryContent`: Unicode forms, case, whitespace and a final
 * full stop folded): duplicates share it. `memories/add` looks equal live memories up by it, consolidation merges them.
 */
export function contentHash(content: string): string {
  return createHash('sha256').update(normalizeMemoryContent(content)).digest('hex');
}

/**
 * The contract's memory record from a row; `scope` labels it `project` or `global` by its project, `resolvedDates` are
 * its content's relative time expressions resolved against its `occurredAt`.
 */
export function toMemory(row: MemoryRow): Memory {
  const projectId = textOrNull(row.project_id);
  return {
    id: row.id,
    content: row.content,
    type: row.type as MemoryType,
    layer: row.layer as MemoryLayer,
    tags: parseJson<string[]>(row.tags, []),
    paths: parseJson<string[]>(row.paths, []),
    category: textOrNull(row.category),
    metadata: parseJson<Record<string, unknown>>(row.metadata, {}),
    userId: textOrNull(row.user_id),
    projectId,
    scope: recordScopeOf(projectId),
    embeddingModel: textOrNull(row.embedding_model),
    supersededBy: textOrNull(row.superseded_by),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    occurredAt: row.occurred_at,
    // Resolved from what is stored, so an edit of the content or of occurredAt resolves again.
    resolvedDates: resolveRelativeDates(row.content, row.occurred_at),
  };
}

const INSERT_COLUMNS = `id, content, type, layer, tags, paths, category, metadata, user_id, project_id,
  embedding_model, superseded_by, content_hash, created_at, updated_at, expires_at, deleted_at, occurred_at`;
const INSERT_VALUES = '?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, NULL, ?';

/**
 * The INSERT of a new memory written with a scope (the bench seeds through it too). With `unlessExists` (a query),
 * the row is inserted only when that query finds nothing, checked by the statement itself inside its transaction.
 * With `returning`, the statement gives the row it wrote (MEMORY_COLUMNS; none when it wrote none).
 */
export function memoryInsertStatement(
  id: string,
  memory: NewMemory,
  scope: ResolvedScope,
  timestamp: string,
  { unlessExists, returning = false }: { unlessExists?: Condition | undefined; returning?: boolean } = {},
): InStatement {
  const args: InValue[] = [
    id,
    memory.content,
    memory.type,
    memory.layer,
    JSON.stringify(memory.tags),
    JSON.stringify(memory.paths),
    memory.category,
    JSON.stringify(memory.metadata),
    scope.userId,
    scope.projectId,
    memory.embeddingModel,
    contentHash(memory.content),
    timestamp,
    timestamp,
    memory.expiresAt,
    memory.occurredAt ?? timestamp,
  ];
  const insert = `INSERT INTO memories (${INSERT_COLUMNS})`;
  const returned = returning ? ` RETURNING ${MEMORY_COLUMNS}` : '';
  if (unlessExists === undefined) return { sql: `${insert} VALUES (${INSERT_VALUES})${returned}`, args };
  return {
    sql: `${insert} SELECT ${INSERT_VALUES} WHERE NOT EXISTS (${unlessExists.sql})${returned}`,
    args: [...args, ...unlessExists.args],
  };
}

/** The memory columns with a table alias. */
export function prefixed(alias: string): string {
  return MEMORY_COLUMNS.split(', ')
    .map((name) => `${alias}.${name}`)
    .join(', ');
}

/**
 * A FROM clause reading the memories whose `seq`s are a JSON array (its `?` is the first argument), each by its key:
 * `json_each` is pinned as the outer loop. Written as `WHERE m.seq IN (SELECT value FROM json_each(?))` beside the
 * live-row conditions, SQLite may choose a live-rows index instead and test every live memory against the list: 300
 * rows of a 100k tenant took 12-23 ms that way, 3.5 ms by key. The `seq`s must be distinct: a repeated one is read
 * twice (an `IN` list would read it once).
 */
export function memoriesBySeq(alias: string): string {
  return `json_each(?) AS wanted CROSS JOIN memories ${alias} ON ${alias}.seq = wanted.value`;
}

/** A lifecycle event insert. */
export function lifecycleStatement(
  kind: string,
  subjectId: string | null,
  scope: ResolvedScope,
  timestamp: string,
  detail: Record<string, unknown> = {},
): InStatement {
  return {
    sql: 'INSERT INTO lifecycle_events (kind, subject_id, user_id, project_id, detail, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    args: [kind, subjectId, scope.userId, scope.projectId, JSON.stringify(detail), timestamp],
  };
}
