import type { InStatement, InValue } from '@libsql/client';
import type { MemoryChange, MemoryLayer, MemoryType, MemoryVersion, ResolvedScope } from '@memory-service/contract';
import type { Database } from './database.js';
import type { MemoryHistoryKey } from './memory-cursors.js';
import type { MemoryPatch } from './memory-rows.js';
import { parseJson, textOrNull } from './rows.js';
import { allOf, type Condition, visibleById } from './scope-filter.js';

/** How far a supersede chain is followed back (a cycle, which no writer makes, stops there too). */
const CHAIN_DEPTH = 32;

/** The columns a patch may change, and what each is compared with (a version is written only for a real change). */
const VERSIONED: ReadonlyArray<[keyof MemoryPatch, string, (patch: MemoryPatch) => InValue]> = [
  ['content', 'content', (patch) => patch.content ?? null],
  ['type', 'type', (patch) => patch.type ?? null],
  ['layer', 'layer', (patch) => patch.layer ?? null],
  ['tags', 'tags', (patch) => JSON.stringify(patch.tags)],
  ['paths', 'paths', (patch) => JSON.stringify(patch.paths)],
  ['category', 'category', (patch) => patch.category ?? null],
  ['metadata', 'metadata', (patch) => JSON.stringify(patch.metadata)],
  ['occurredAt', 'occurred_at', (patch) => patch.occurredAt ?? null],
];

/**
 * The statement that keeps a memory's current wording as a version before an edit replaces it, for the edit's own
 * transaction (it must run before the UPDATE). It writes only when the patch changes a field a reader sees (a new
 * embedding model alone is no new version), and only where the edit's UPDATE applies (`where`: the same row
 * conditions). `valid_from` is when the replaced wording became current: the edit before, else the memory's creation.
 */
export function versionBeforeEditStatement(
  id: string,
  patch: MemoryPatch,
  where: Condition,
  timestamp: string,
): InStatement | undefined {
  const changes = VERSIONED.filter(([field]) => patch[field] !== undefined);
  if (changes.length === 0) return undefined;
  return {
    sql: `INSERT INTO memory_versions (memory_id, content, type, layer, tags, paths, category, metadata, embedding_model,
            occurred_at, valid_from, replaced_at)
          SELECT id, content, type, layer, tags, paths, category, metadata, embedding_model, occurred_at,
                 coalesce((SELECT max(v.replaced_at) FROM memory_versions v WHERE v.memory_id = memories.id), created_at), ?
            FROM memories
           WHERE id = ? AND ${where.sql} AND (${changes.map(([, column]) => `${column} IS NOT ?`).join(' OR ')})`,
    args: [timestamp, id, ...where.args, ...changes.map(([, , value]) => value(patch))],
  };
}

/** Deletes the versions of the given memories that are deleted (a forget, a bulk forget, an expiry). */
export function deleteVersionsOfDeletedStatement(ids: readonly string[]): InStatement {
  return {
    sql: `DELETE FROM memory_versions WHERE memory_id IN (
            SELECT id FROM memories WHERE id IN (${ids.map(() => '?').join(', ')}) AND deleted_at IS NOT NULL)`,
    args: [...ids],
  };
}

/** Deletes the versions of the soft-deleted memories a vacuum is about to purge (`owned`: its row conditions). */
export function deleteVersionsOfPurgedStatement(owned: Condition): InStatement {
  return {
    sql: `DELETE FROM memory_versions WHERE memory_id IN (
            SELECT id FROM memories WHERE deleted_at IS NOT NULL AND ${owned.sql})`,
    args: owned.args,
  };
}

/** One history entry as read, with its sort key. */
interface HistoryRow {
  source: number;
  seq: number;
  memory_id: string;
  change: string;
  content: string;
  type: string;
  layer: string;
  tags: string;
  paths: string;
  category: string | null;
  metadata: string;
  occurred_at: string;
  valid_from: string;
  replaced_at: string;
  superseded_by: string;
}

/** A page of a memory's history, newest first, and the key of its last entry when more follow. */
export interface HistoryPage {
  versions: MemoryVersion[];
  next: MemoryHistoryKey | null;
}

function toVersion(row: HistoryRow): MemoryVersion {
  return {
    memoryId: row.memory_id,
    change: row.change as MemoryChange,
    content: row.content,
    type: row.type as MemoryType,
    layer: row.layer as MemoryLayer,
    tags: parseJson<string[]>(row.tags, []),
    paths: parseJson<string[]>(row.paths, []),
    category: textOrNull(row.category),
    metadata: parseJson<Record<string, unknown>>(row.metadata, {}),
    occurredAt: row.occurred_at,
    validFrom: row.valid_from,
    replacedAt: row.replaced_at,
    supersededBy: row.superseded_by,
  };
}

/**
 * The earlier versions of memory `id` (which the caller has found visible), newest first by when they were replaced,
 * at most `limit` after `after`: the wordings its edits replaced, and along the supersede chain (`superseded_by`) each
 * memory visible to the scope that it superseded or absorbed in a merge, as that memory last read, with that memory's
 * own edit versions. A superseded memory forgotten afterwards is left out, as its versions are gone.
 */
export async function memoryHistory(
  database: Database,
  id: string,
  scope: ResolvedScope,
  limit: number,
  after: MemoryHistoryKey | undefined,
): Promise<HistoryPage> {
  const visible = visibleById(scope, 'm');
  const page: Condition =
    after === undefined
      ? { sql: '1', args: [] }
      : { sql: '(replaced_at, source, seq) < (?, ?, ?)', args: [after.replacedAt, after.source, after.seq] };
  const chainStep = allOf({ sql: 'c.depth < ? AND m.id <> ?', args: [CHAIN_DEPTH, id] }, visible, {
    sql: '(m.deleted_at IS NULL OR m.deleted_at = m.superseded_at)',
    args: [],
  });
  const rows = await database.all<HistoryRow>(
    `WITH RECURSIVE chain(id, depth) AS (
        SELECT ?, 0
        UNION
        SELECT m.id, c.depth + 1 FROM chain c JOIN memories m ON m.superseded_by = c.id WHERE ${chainStep.sql}
      ),
      entries AS (
        SELECT 0 AS source, v.seq AS seq, v.memory_id, 'edited' AS change, v.content, v.type, v.layer, v.tags, v.paths,
               v.category, v.metadata, v.occurred_at, v.valid_from, v.replaced_at, v.memory_id AS superseded_by
          FROM memory_versions v WHERE v.memory_id IN (SELECT id FROM chain)
        UNION ALL
        SELECT 1, m.seq, m.id, CASE WHEN m.deleted_at IS NULL THEN 'superseded' ELSE 'merged' END, m.content, m.type,
               m.layer, m.tags, m.paths, m.category, m.metadata, m.occurred_at,
               coalesce((SELECT max(v.replaced_at) FROM memory_versions v WHERE v.memory_id = m.id), m.created_at),
               coalesce(m.superseded_at, m.updated_at), m.superseded_by
          FROM memories m WHERE m.id IN (SELECT id FROM chain WHERE depth > 0)
      )
      SELECT * FROM entries WHERE ${page.sql} ORDER BY replaced_at DESC, source DESC, seq DESC LIMIT ?`,
    [id, ...chainStep.args, ...page.args, limit + 1],
  );
  const versions = rows.slice(0, limit);
  const last = versions.at(-1);
  const next =
    rows.length > limit && last !== undefined
      ? {
          replacedAt: last.replaced_at,
          source: Number(last.source) === 1 ? (1 as const) : (0 as const),
          seq: Number(last.seq),
        }
      : null;
  return { versions: versions.map(toVersion), next };
}
