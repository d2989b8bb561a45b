import { randomUUID } from 'node:crypto';
import { type ResolvedScope, recordScopeOf, type SkillFile } from '@memory-service/contract';
import type { Database } from './database.js';
import { parseJson, textOrNull } from './rows.js';
import { ownedBy, sharedReadOnly, visibleTo } from './scope-filter.js';
import type { SkillListKey } from './skill-list-cursor.js';

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
/** `SKILL_COLUMNS` of the table aliased `s`. */
const SKILL_COLUMNS_OF_S = SKILL_COLUMNS.split(', ')
  .map((column) => `s.${column}`)
  .join(', ');
/** The order of skills/files/list, by the columns of its key (see `SkillListKey`). */
const LIST_ORDER = 'path, user_shared, project_shared, id';
/**
 * Rounds of an upsert before it gives up (SERVER_BUSY): a round fails only when another upsert created the file at the
 * same path and scope in between. 160 upserts racing 160 deletes of one path took at most 25 rounds; the request's
 * deadline usually ends a longer fight first.
 */
const MAX_UPSERT_ATTEMPTS = 100;
/** How many distinct query words `listForContext` ranks by; the rest of a long query adds little. */
const MAX_QUERY_WORDS = 16;

/** The contract's skill file record from a row; `scope` labels it `project` or `global` by its project. */
export function toSkillFile(row: SkillFileRow): SkillFile {
  const projectId = textOrNull(row.project_id);
  const metadata = parseJson<Record<string, unknown>>(row.metadata, {});
  return {
    id: row.id,
    path: row.path,
    title: textOrNull(row.title),
    content: row.content,
    userId: textOrNull(row.user_id),
    projectId,
    scope: recordScopeOf(projectId),
    useCount: Number(row.use_count),
    usageCount: Number(row.use_count),
    lastUsedAt: textOrNull(row.last_used_at),
    procedureKey: typeof metadata.procedureKey === 'string' ? metadata.procedureKey : null,
    metadata,
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
   * `skill.upserted` lifecycle event; the content's metadata replaces what was stored. Answers the file as written,
   * whatever runs after the transaction (a delete of the path used to make the read-back fail with a 500).
   *
   * The live file is read first, and the transaction writes by its id: it updates that file if it is still live,
   * else creates a new file if none is live at the path. Either way it knows which row it wrote, so the answer is
   * built from the write, never read back; `useCount` and `lastUsedAt` are as read just before. When another
   * upsert made a new file live at the path in between, nothing is written and the upsert starts again with that
   * file: every round that fails is a create that succeeded, so the rounds end. Undefined after
   * `MAX_UPSERT_ATTEMPTS` such rounds (the caller answers SERVER_BUSY).
   */
  async upsert(
    fields: { path: string; content: string; metadata?: Record<string, unknown>; source?: string },
    scope: ResolvedScope,
    now: Date,
  ): Promise<{ row: SkillFileRow; created: boolean } | undefined> {
    const timestamp = now.toISOString();
    const key = scopeKey(scope);
    const written = { path: fields.path, content: fields.content, title: markdownTitle(fields.content) };
    const metadata = JSON.stringify(fields.metadata ?? {});
    for (let attempt = 1; attempt <= MAX_UPSERT_ATTEMPTS; attempt += 1) {
      // Not the content, which the write replaces: up to 360 KB read for nothing.
      const live = await this.database.get<
        Omit<SkillFileRow, 'path' | 'content' | 'title' | 'metadata' | 'updated_at'>
      >(
        `SELECT id, user_id, project_id, scope_key, use_count, last_used_at, created_at, deleted_at
         FROM skill_files WHERE scope_key = ? AND path = ? AND deleted_at IS NULL`,
        [key, fields.path],
      );
      const newId = randomUUID();
      const [updated, inserted] = await this.database.transaction([
        {
          sql: `UPDATE skill_files SET content = ?, title = ?, metadata = ?, updated_at = ?
                WHERE id = ? AND deleted_at IS NULL`,
          args: [written.content, written.title, metadata, timestamp, live?.id ?? null],
        },
        {
          // changes() is the update's: no new file when it updated the live one, nor while another is live.
          sql: `INSERT INTO skill_files (${SKILL_COLUMNS})
                SELECT ?, ?, ?, ?, ?, ?, ?, 0, NULL, ?, ?, ?, NULL
                WHERE changes() = 0
                  AND NOT EXISTS (SELECT 1 FROM skill_files WHERE scope_key = ? AND path = ? AND deleted_at IS NULL)`,
          args: [
            newId,
            fields.path,
            written.title,
            written.content,
            scope.userId,
            scope.projectId,
            key,
            metadata,
            timestamp,
            timestamp,
            key,
            fields.path,
          ],
        },
        {
          // The row written, if any: the updated file if it is (still) live, else the new one.
          sql: `INSERT INTO lifecycle_events (kind, subject_id, user_id, project_id, detail, created_at)
                SELECT 'skill.upserted', id, user_id, project_id,
                  json_object('path', path, 'created', json(CASE WHEN id = ? THEN 'true' ELSE 'false' END), 'source', ?), ?
                FROM skill_files WHERE id IN (?, ?) AND deleted_at IS NULL`,
          args: [newId, fields.source ?? 'upsert', timestamp, live?.id ?? null, newId],
        },
      ]);
      if ((updated ?? 0) > 0 && live !== undefined) {
        return { row: { ...live, ...written, metadata, updated_at: timestamp }, created: false };
      }
      if ((inserted ?? 0) > 0) {
        const row: SkillFileRow = {
          id: newId,
          ...written,
          user_id: scope.userId,
          project_id: scope.projectId,
          scope_key: key,
          use_count: 0,
          last_used_at: null,
          metadata,
          created_at: timestamp,
          updated_at: timestamp,
          deleted_at: null,
        };
        return { row, created: true };
      }
    }
    return undefined;
  }

  /**
   * One page of the live files visible to the scope, by path (at one path the request's own file first, then the
   * more specific shared ones), after the key `after`: at most `limit` files, whole, while their text (UTF-8 bytes of
   * path, title, content and metadata) adds up to at most `maxBytes`; the page stops before the first file that does
   * not fit, so the next page starts with it. The first file is always returned, so pages move on whatever the sizes
   * (`LIMITS.skillListBytes` holds the largest file anyway). `omitted` counts the files of the `limit` after `after`
   * that the budget left out; `next` is the key to resume from when a visible file follows the page.
   *
   * One statement, so sizes and content are read in one snapshot: SQLite measures every candidate with
   * `octet_length`, which reads a row's header and not its content, and the content of a file is read only when it is
   * returned. A page holds about `maxBytes` in memory however many or large the files in scope are (500 whole files
   * used to be read and sent, 360 MB at the largest).
   */
  async listPage(
    scope: ResolvedScope,
    page: { limit: number; maxBytes: number; after?: SkillListKey },
  ): Promise<{ rows: SkillFileRow[]; omitted: number; next: SkillListKey | null }> {
    const visible = visibleTo(scope);
    const after = page.after;
    const resume =
      after === undefined
        ? { sql: '', args: [] }
        : {
            sql: 'AND (path, user_id IS NULL, project_id IS NULL, id) > (?, ?, ?, ?)',
            args: [after.path, after.userShared, after.projectShared, after.id],
          };
    // One row per candidate (one more than `limit`, to know whether a file follows); the file's columns are NULL
    // for a candidate past the limit or the budget, whose content is therefore never read.
    const candidates = await this.database.all<
      Partial<SkillFileRow> & { key_path: string; user_shared: number; project_shared: number; key_id: string }
    >(
      `SELECT page.path AS key_path, page.user_shared, page.project_shared, page.id AS key_id, ${SKILL_COLUMNS_OF_S}
       FROM (
         SELECT path, user_shared, project_shared, id, row_number() OVER listed AS ordinal,
           sum(bytes) OVER (listed ROWS UNBOUNDED PRECEDING) AS running
         FROM (
           SELECT path, user_id IS NULL AS user_shared, project_id IS NULL AS project_shared, id,
             octet_length(path) + coalesce(octet_length(title), 0) + octet_length(content) + octet_length(metadata)
               AS bytes
           FROM skill_files WHERE deleted_at IS NULL AND ${visible.sql} ${resume.sql}
           ORDER BY ${LIST_ORDER} LIMIT ?
         )
         WINDOW listed AS (ORDER BY ${LIST_ORDER})
       ) page
       LEFT JOIN skill_files s ON s.id = page.id AND page.ordinal <= ? AND (page.ordinal = 1 OR page.running <= ?)
       ORDER BY page.ordinal`,
      [...visible.args, ...resume.args, page.limit + 1, page.limit, page.maxBytes],
    );
    const rows = candidates.filter((row): row is SkillFileRow & (typeof candidates)[number] => row.id != null);
    const last = candidates[rows.length - 1];
    const more = candidates.length > rows.length;
    return {
      rows,
      omitted: Math.min(candidates.length, page.limit) - rows.length,
      next:
        more && last !== undefined
          ? {
              path: last.key_path,
              userShared: Number(last.user_shared) === 1 ? 1 : 0,
              projectShared: Number(last.project_shared) === 1 ? 1 : 0,
              id: last.key_id,
            }
          : null,
    };
  }

  /**
   * Soft-deletes the live file at `path` that the scope owns (`ownedBy`: the request's exact-scope file first, then
   * its user's file of every project), with a `skill.deleted` lifecycle event. Says what it found: the file deleted
   * (its user and project, where its mirror lives), only a shared file a user-scoped request may read but not delete
   * (it is every user's: one user must not delete it for all), or none visible.
   */
  async softDelete(
    path: string,
    scope: ResolvedScope,
    now: Date,
  ): Promise<
    | { outcome: 'deleted'; row: Pick<SkillFileRow, 'user_id' | 'project_id'> }
    | { outcome: 'shared' }
    | { outcome: 'not-found' }
  > {
    const visible = visibleTo(scope);
    // Owned files sort before shared ones (user_id IS NULL last), so the first is shared only when none is owned.
    const target = await this.database.get<Pick<SkillFileRow, 'id' | 'user_id' | 'project_id'>>(
      `SELECT id, user_id, project_id FROM skill_files WHERE path = ? AND deleted_at IS NULL AND ${visible.sql}
       ORDER BY scope_key = ? DESC, user_id IS NULL, project_id IS NULL LIMIT 1`,
      [path, ...visible.args, scopeKey(scope)],
    );
    if (target === undefined) return { outcome: 'not-found' };
    if (sharedReadOnly(target, scope)) return { outcome: 'shared' };
    const owned = ownedBy(scope);
    const timestamp = now.toISOString();
    const [changed] = await this.database.transaction([
      {
        sql: `UPDATE skill_files SET deleted_at = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL AND ${owned.sql}`,
        args: [timestamp, timestamp, target.id, ...owned.args],
      },
      {
        sql: `INSERT INTO lifecycle_events (kind, subject_id, user_id, project_id, detail, created_at)
              SELECT 'skill.deleted', id, user_id, project_id, json_object('path', path), ?
              FROM skill_files WHERE id = ? AND changes() > 0`,
        args: [timestamp, target.id],
      },
    ]);
    if ((changed ?? 0) === 0) return { outcome: 'not-found' };
    return { outcome: 'deleted', row: { user_id: target.user_id, project_id: target.project_id } };
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
      files: rows.map((row) => {
        const useCount = Number(row.use_count) + 1;
        return { ...toSkillFile(row), useCount, usageCount: useCount, lastUsedAt: timestamp };
      }),
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
