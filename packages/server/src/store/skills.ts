import { randomUUID } from 'node:crypto';
import { type ResolvedScope, recordScopeOf, type SkillFile } from '@memory-service/contract';
import type { Database } from './database.js';
import { parseJson, textOrNull } from './rows.js';
import { visibleTo } from './scope-filter.js';

/** A `skill_files` row as stored. */
export interface SkillFileRow {
  id: string;
  path: string;
  title: string | null;
  content: string;
  user_id: string | null;
  project_id: string | null;
  scope_key: string;
  use_count: number;
  last_used_at: string | null;
  metadata: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

const SKILL_COLUMNS =
  'id, path, title, content, user_id, project_id, scope_key, use_count, last_used_at, metadata, created_at, updated_at, deleted_at';
/** How many distinct query words `listForContext` ranks by; the rest of a long query adds little. */
const MAX_QUERY_WORDS = 16;

/** The contract's skill file record from a row; `scope` labels it `project` or `global` by its project. */
export function toSkillFile(row: SkillFileRow): SkillFile {
  const projectId = textOrNull(row.project_id);
  return {
    id: row.id,
    path: row.path,
    title: textOrNull(row.title),
    content: row.content,
    userId: textOrNull(row.user_id),
    projectId,
    scope: recordScopeOf(projectId),
    useCount: Number(row.use_count),
    lastUsedAt: textOrNull(row.last_used_at),
    metadata: parseJson<Record<string, unknown>>(row.metadata, {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The exact (user, project) pair a file belongs to; one live file per path exists for each key. */
export function scopeKey(scope: ResolvedScope): string {
  return `${scope.userId ?? ''}\u0000${scope.projectId ?? ''}`;
}

/** The text of the first level-1 Markdown heading outside code fences, or null. */
export function markdownTitle(content: string): string | null {
  let inFence = false;
  for (const line of content.split('\n')) {
    if (/^\s{0,3}(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const heading = line.match(/^\s{0,3}#[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/);
    if (heading?.[1] !== undefined) return heading[1].trim();
  }
  return null;
}

/** Distinct lowercase words of a query (letters and digits, at least 2 characters). */
export function queryWords(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  return [...new Set(words.filter((word) => word.length >= 2))].slice(0, MAX_QUERY_WORDS);
}

/** Skill files of one tenant database. */
export class SkillStore {
  constructor(readonly database: Database) {}

  /**
   * Creates or updates the live file at `path` in the request's exact scope, in one transaction with a
   * `skill.upserted` lifecycle event; the content's metadata replaces what was stored.
   */
  async upsert(
    fields: { path: string; content: string; metadata?: Record<string, unknown>; source?: string },
    scope: ResolvedScope,
    now: Date,
  ): Promise<{ row: SkillFileRow; created: boolean }> {
    const timestamp = now.toISOString();
    const key = scopeKey(scope);
    const title = markdownTitle(fields.content);
    const metadata = JSON.stringify(fields.metadata ?? {});
    const [, inserted] = await this.database.transaction([
      {
        sql: `UPDATE skill_files SET content = ?, title = ?, metadata = ?, updated_at = ?
              WHERE scope_key = ? AND path = ? AND deleted_at IS NULL`,
        args: [fields.content, title, metadata, timestamp, key, fields.path],
      },
      {
        sql: `INSERT INTO skill_files (${SKILL_COLUMNS})
              SELECT ?, ?, ?, ?, ?, ?, ?, 0, NULL, ?, ?, ?, NULL WHERE changes() = 0`,
        args: [
          randomUUID(),
          fields.path,
          title,
          fields.content,
          scope.userId,
          scope.projectId,
          key,
          metadata,
          timestamp,
          timestamp,
        ],
      },
      {
        sql: `INSERT INTO lifecycle_events (kind, subject_id, user_id, project_id, detail, created_at)
              SELECT 'skill.upserted', id, user_id, project_id,
                json_object('path', path, 'created', json(CASE WHEN changes() > 0 THEN 'true' ELSE 'false' END), 'source', ?), ?
              FROM skill_files WHERE scope_key = ? AND path = ? AND deleted_at IS NULL`,
        args: [fields.source ?? 'upsert', timestamp, key, fields.path],
      },
    ]);
    const row = await this.database.get<SkillFileRow>(
      `SELECT ${SKILL_COLUMNS} FROM skill_files WHERE scope_key = ? AND path = ? AND deleted_at IS NULL`,
      [key, fields.path],
    );
    if (row === undefined) throw new Error('upserted skill file not found');
    return { row, created: (inserted ?? 0) > 0 };
  }

  /** Live files visible to the scope, by path; at one path the request's own file comes before shared ones. */
  async list(scope: ResolvedScope, limit: number): Promise<SkillFileRow[]> {
    const visible = visibleTo(scope);
    return this.database.all<SkillFileRow>(
      `SELECT ${SKILL_COLUMNS} FROM skill_files WHERE deleted_at IS NULL AND ${visible.sql}
       ORDER BY path, scope_key = ? DESC, user_id IS NULL, project_id IS NULL, created_at LIMIT ?`,
      [...visible.args, scopeKey(scope), limit],
    );
  }

  /**
   * Soft-deletes the visible live file at `path` (the request's exact-scope file first, then the most specific
   * shared one), with a `skill.deleted` lifecycle event; returns whether a file was deleted.
   */
  async softDelete(path: string, scope: ResolvedScope, now: Date): Promise<boolean> {
    const visible = visibleTo(scope);
    const target = await this.database.get<{ id: string }>(
      `SELECT id FROM skill_files WHERE path = ? AND deleted_at IS NULL AND ${visible.sql}
       ORDER BY scope_key = ? DESC, user_id IS NULL, project_id IS NULL LIMIT 1`,
      [path, ...visible.args, scopeKey(scope)],
    );
    if (target === undefined) return false;
    const timestamp = now.toISOString();
    const [changed] = await this.database.transaction([
      {
        sql: 'UPDATE skill_files SET deleted_at = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL',
        args: [timestamp, timestamp, target.id],
      },
      {
        sql: `INSERT INTO lifecycle_events (kind, subject_id, user_id, project_id, detail, created_at)
              SELECT 'skill.deleted', id, user_id, project_id, json_object('path', path), ?
              FROM skill_files WHERE id = ? AND changes() > 0`,
        args: [timestamp, target.id],
      },
    ]);
    return (changed ?? 0) > 0;
  }

  /**
   * Files for `context/get`: visible live files, those matching more of the query's words (in path, title or
   * content, case-insensitive) first, then the most used and most recently used; at most `limit`. The returned
   * files' `use_count` and `last_used_at` are bumped in one statement, and the records reflect the bump.
   */
  async listForContext(scope: ResolvedScope, query: string, limit: number, now: Date): Promise<SkillFile[]> {
    return (await this.selectForContext(scope, query, { files: limit, bytes: Number.POSITIVE_INFINITY }, now)).files;
  }

  /**
   * `listForContext` within a byte budget: in rank order, a file is returned whole when its content (UTF-8) fits in
   * what the files before it left of `budget.bytes`, else left out (never cut). Content is read only for the files
   * returned; `omitted` counts the files of the best `budget.files` the budget left out.
   */
  async selectForContext(
    scope: ResolvedScope,
    query: string,
    budget: { files: number; bytes: number },
    now: Date,
  ): Promise<{ files: SkillFile[]; omitted: number }> {
    if (budget.files <= 0) return { files: [], omitted: 0 };
    const visible = visibleTo(scope);
    const words = queryWords(query);
    const score = words.length === 0 ? '0' : words.map(() => '(instr(haystack, ?) > 0)').join(' + ');
    const ranked = await this.database.all<{ id: string; bytes: number }>(
      `SELECT id, length(CAST(content AS BLOB)) AS bytes, ${score} AS score
       FROM (SELECT *, lower(path || char(10) || coalesce(title, '') || char(10) || content) AS haystack
             FROM skill_files WHERE deleted_at IS NULL AND ${visible.sql})
       ORDER BY score DESC, use_count DESC, coalesce(last_used_at, updated_at) DESC, path LIMIT ?`,
      [...words, ...visible.args, budget.files],
    );
    const candidates = withinBudget(ranked, (entry) => Number(entry.bytes), budget.bytes);
    if (candidates.length === 0) return { files: [], omitted: ranked.length };
    const marks = candidates.map(() => '?').join(', ');
    const fetched = await this.database.all<SkillFileRow>(
      `SELECT ${SKILL_COLUMNS} FROM skill_files WHERE deleted_at IS NULL AND id IN (${marks})`,
      candidates.map((entry) => entry.id),
    );
    const byId = new Map(fetched.map((row) => [row.id, row]));
    const inRankOrder = candidates.flatMap((entry) => byId.get(entry.id) ?? []);
    // Measured again on the content read: a file edited between the two statements still cannot pass the budget.
    const rows = withinBudget(inRankOrder, (row) => Buffer.byteLength(row.content, 'utf8'), budget.bytes);
    if (rows.length === 0) return { files: [], omitted: ranked.length };
    const timestamp = now.toISOString();
    await this.database.run(
      `UPDATE skill_files SET use_count = use_count + 1, last_used_at = ? WHERE id IN (${rows.map(() => '?').join(', ')})`,
      [timestamp, ...rows.map((row) => row.id)],
    );
    return {
      files: rows.map((row) => ({ ...toSkillFile(row), useCount: Number(row.use_count) + 1, lastUsedAt: timestamp })),
      omitted: ranked.length - rows.length,
    };
  }
}

/** The items, in order, that fit whole in `maxBytes` together; an item that does not fit is skipped, not cut. */
function withinBudget<T>(items: readonly T[], bytesOf: (item: T) => number, maxBytes: number): T[] {
  const kept: T[] = [];
  let total = 0;
  for (const item of items) {
    const bytes = bytesOf(item);
    if (total + bytes > maxBytes) continue;
    total += bytes;
    kept.push(item);
  }
  return kept;
}
