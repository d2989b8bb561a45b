import type { InStatement, InValue } from '@libsql/client';
import type { ResolvedScope } from '@memory-service/contract';
import type { Database } from './database.js';
import type { StatementResult } from './database-messages.js';
import { enqueueIndexJobStatement } from './index-jobs.js';
import { createdEventStatement, duplicateExists, findDuplicate } from './memories-duplicates.js';
import type { MemoryListKey } from './memory-cursors.js';
import {
  contentHash,
  MEMORY_COLUMNS,
  type MemoryPatch,
  type MemoryRow,
  memoryInsertStatement,
  type NewMemory,
  newMemoryId,
  prefixed,
} from './memory-rows.js';
import {
  deleteVersionsOfDeletedStatement,
  deleteVersionsOfPurgedStatement,
  versionBeforeEditStatement,
} from './memory-versions.js';
import { allOf, type Condition, ownedById, sharedReadOnly, visibleById, visibleTo } from './scope-filter.js';

/** Filters of list and bulk operations. */
export interface MemoryFilters {
  types?: readonly string[];
  layer?: string;
  tagsAny?: readonly string[];
  createdBefore?: string;
  /** The whole content matches this pattern, case-insensitively: `*` stands for any text, `?` for one character. */
  contentWildcard?: string;
  projectIdExact?: string;
}

/** Escapes LIKE's own wildcards (`%`, `_`) and its escape character, so the text matches literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** `*` and `?` wildcards as a LIKE pattern (ASCII case-insensitive, as LIKE is). */
export function wildcardToLike(pattern: string): string {
  return [...pattern]
    .map((character) => (character === '*' ? '%' : character === '?' ? '_' : escapeLike(character)))
    .join('');
}

function filterConditions(filters: MemoryFilters, alias = 'm'): Condition[] {
  const conditions: Condition[] = [];
  if (filters.types && filters.types.length > 0) {
    conditions.push({ sql: `${alias}.type IN (${filters.types.map(() => '?').join(', ')})`, args: [...filters.types] });
  }
  if (filters.layer !== undefined) conditions.push({ sql: `${alias}.layer = ?`, args: [filters.layer] });
  if (filters.tagsAny && filters.tagsAny.length > 0) {
    conditions.push({
      sql: `EXISTS (SELECT 1 FROM json_each(${alias}.tags) WHERE json_each.value IN (${filters.tagsAny.map(() => '?').join(', ')}))`,
      args: [...filters.tagsAny],
    });
  }
  if (filters.createdBefore !== undefined)
    conditions.push({ sql: `${alias}.created_at < ?`, args: [filters.createdBefore] });
  if (filters.contentWildcard !== undefined) {
    conditions.push({ sql: `${alias}.content LIKE ? ESCAPE '\\'`, args: [wildcardToLike(filters.contentWildcard)] });
  }
  if (filters.projectIdExact !== undefined)
    conditions.push({ sql: `${alias}.project_id = ?`, args: [filters.projectIdExact] });
  return conditions;
}

/** A memory to insert, with the scope and time of the request that wrote it. */
export interface NewMemoryEntry {
  memory: NewMemory;
  scope: ResolvedScope;
  now: Date;
}

/** Memories of one tenant database. */
export class MemoryStore {
  constructor(readonly database: Database) {}

  /**
   * Inserts memories in one transaction and returns their rows, in order; `alsoCommit` adds statements about each new
   * memory (by id) to that transaction. Duplicates are stored too: `memories/add` writes with `insertUnlessDuplicate`.
   */
  async insertMany(
    entries: readonly NewMemoryEntry[],
    alsoCommit: (id: string, entry: NewMemoryEntry) => InStatement[] = () => [],
  ): Promise<MemoryRow[]> {
    const rows = await this.writeBatch(entries, alsoCommit, false);
    return rows.map((row) => {
      if (row === undefined) throw new Error('inserted memory not found');
      return row;
    });
  }

  /**
   * Inserts memories in one transaction (the group commit of concurrent adds), except those whose duplicate is live
   * and visible to their scope (`duplicateCondition`): null in the result, and `findDuplicate` finds it. Whether one
   * exists is checked by each INSERT inside the write transaction, so adds racing in one batch, in batches one after
   * the other or in other processes sharing the database still store one row. `alsoCommit` statements must write
   * nothing for an id whose row was not inserted (the index job's does not).
   */
  async insertUnlessDuplicate(
    entries: readonly NewMemoryEntry[],
    alsoCommit: (id: string, entry: NewMemoryEntry) => InStatement[] = () => [],
  ): Promise<Array<MemoryRow | null>> {
    const rows = await this.writeBatch(entries, alsoCommit, true);
    return rows.map((row) => row ?? null);
  }

  /** The live memory an add of `entry` duplicates, if any (see `findDuplicate`). */
  findDuplicate(entry: NewMemoryEntry): Promise<MemoryRow | undefined> {
    return findDuplicate(this.database, entry);
  }

  /**
   * One transaction of new memories, each with its `memory.created` event and `alsoCommit`; with `unlessDuplicate`,
   * a memory whose duplicate is stored is not written (undefined in the result). Each INSERT returns the row it wrote
   * (`RETURNING`), so the rows come back with the commit: no read after it, which under read load would queue behind
   * other requests' reads (a hybrid search holds a database worker ~10 ms). Ids are random; the rare collision with a
   * stored id retries the whole batch with fresh ids.
   */
  private async writeBatch(
    entries: readonly NewMemoryEntry[],
    alsoCommit: (id: string, entry: NewMemoryEntry) => InStatement[],
    unlessDuplicate: boolean,
  ): Promise<Array<MemoryRow | undefined>> {
    if (entries.length === 0) return [];
    for (let attempt = 0; ; attempt += 1) {
      const statements: InStatement[] = [];
      const insertAt: number[] = [];
      for (const entry of entries) {
        const id = newMemoryId();
        const timestamp = entry.now.toISOString();
        insertAt.push(statements.length);
        statements.push(
          memoryInsertStatement(id, entry.memory, entry.scope, timestamp, {
            unlessExists: unlessDuplicate ? duplicateExists(entry) : undefined,
            returning: true,
          }),
          createdEventStatement(id, entry, timestamp),
          ...alsoCommit(id, entry),
        );
      }
      let results: StatementResult[];
      try {
        results = await this.database.transactionResults(statements);
      } catch (error) {
        if (attempt < 3 && String(error).includes('UNIQUE')) continue;
        throw error;
      }
      return insertAt.map((at) => results[at]?.rows[0] as MemoryRow | undefined);
    }
  }

  async findById(id: string): Promise<MemoryRow | undefined> {
    return this.database.get<MemoryRow>(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE id = ?`, [id]);
  }

  /** A live memory the scope sees, named by id (`visibleById`: a request without a projectId reaches any project). */
  async findVisible(id: string, scope: ResolvedScope): Promise<MemoryRow | undefined> {
    const visible = visibleById(scope);
    return this.database.get<MemoryRow>(
      `SELECT ${MEMORY_COLUMNS} FROM memories WHERE id = ? AND deleted_at IS NULL AND ${visible.sql}`,
      [id, ...visible.args],
    );
  }

  /**
   * A memory as memories/list would show it to the scope (`visibleById`: a request without a projectId reaches any
   * project), not forgotten, not expired at `now` (superseded ones included). What `GET /memories/{id}` and its history read; anything else is 404 there.
   */
  async findReadable(id: string, scope: ResolvedScope, now: Date): Promise<MemoryRow | undefined> {
    const visible = visibleById(scope);
    return this.database.get<MemoryRow>(
      `SELECT ${MEMORY_COLUMNS} FROM memories
        WHERE id = ? AND deleted_at IS NULL AND (expires_at IS NULL OR expires_at > ?) AND ${visible.sql}`,
      [id, now.toISOString(), ...visible.args],
    );
  }

  /** Memories by `seq` (any order, deleted and superseded ones included): an index batch's rows. */
  async findBySeqs(seqs: readonly number[]): Promise<MemoryRow[]> {
    if (seqs.length === 0) return [];
    return this.database.all<MemoryRow>(
      `SELECT ${MEMORY_COLUMNS} FROM memories WHERE seq IN (${seqs.map(() => '?').join(', ')})`,
      [...seqs],
    );
  }

  /**
   * The newest live, current rules visible to the scope (not expired at `now`), at most `limit`: a superseded rule is
   * never served as current truth, so it takes no place under the limit.
   */
  async liveRules(scope: ResolvedScope, now: Date, limit: number): Promise<MemoryRow[]> {
    const where = allOf(
      {
        sql: `m.layer = 'rule' AND m.deleted_at IS NULL AND m.superseded_by IS NULL
              AND (m.expires_at IS NULL OR m.expires_at > ?)`,
        args: [now.toISOString()],
      },
      visibleTo(scope, 'm'),
    );
    return this.database.all<MemoryRow>(
      `SELECT ${prefixed('m')} FROM memories m WHERE ${where.sql} ORDER BY m.created_at DESC, m.seq DESC LIMIT ?`,
      [...where.args, limit],
    );
  }

  /** Live memories by id (any order), visible to the scope. */
  async findManyVisible(ids: readonly string[], scope: ResolvedScope): Promise<MemoryRow[]> {
    if (ids.length === 0) return [];
    const visible = visibleTo(scope);
    return this.database.all<MemoryRow>(
      `SELECT ${MEMORY_COLUMNS} FROM memories WHERE id IN (${ids.map(() => '?').join(', ')}) AND deleted_at IS NULL AND ${visible.sql}`,
      [...ids, ...visible.args],
    );
  }

  /**
   * Applies a patch to a live memory the scope owns (`ownedById`: never a shared one from a user-scoped request), with
   * `alsoCommit` in the same transaction; returns the updated row, or undefined when not found.
   */
  async update(
    id: string,
    patch: MemoryPatch,
    scope: ResolvedScope,
    now: Date,
    alsoCommit: InStatement[] = [],
  ): Promise<MemoryRow | undefined> {
    const sets: string[] = [];
    const args: InValue[] = [];
    const set = (column: string, value: InValue) => {
      sets.push(`${column} = ?`);
      args.push(value);
    };
    if (patch.content !== undefined) {
      set('content', patch.content);
      set('content_hash', contentHash(patch.content));
    }
    if (patch.type !== undefined) set('type', patch.type);
    if (patch.layer !== undefined) set('layer', patch.layer);
    if (patch.tags !== undefined) set('tags', JSON.stringify(patch.tags));
    if (patch.paths !== undefined) set('paths', JSON.stringify(patch.paths));
    if (patch.category !== undefined) set('category', patch.category);
    if (patch.metadata !== undefined) set('metadata', JSON.stringify(patch.metadata));
    if (patch.embeddingModel !== undefined) set('embedding_model', patch.embeddingModel);
    if (patch.occurredAt !== undefined) set('occurred_at', patch.occurredAt);
    const timestamp = now.toISOString();
    set('updated_at', timestamp);
    const owned = ownedById(scope);
    // The wording the edit replaces becomes a version, in the edit's transaction (before its UPDATE reads it away).
    const version = versionBeforeEditStatement(
      id,
      patch,
      allOf({ sql: 'deleted_at IS NULL', args: [] }, owned),
      timestamp,
    );
    const results = await this.database.transaction([
      ...(version === undefined ? [] : [version]),
      {
        sql: `UPDATE memories SET ${sets.join(', ')} WHERE id = ? AND deleted_at IS NULL AND ${owned.sql}`,
        args: [...args, id, ...owned.args],
      },
      {
        sql: `INSERT INTO lifecycle_events (kind, subject_id, user_id, project_id, detail, created_at)
              SELECT 'memory.updated', id, user_id, project_id, ?, ? FROM memories WHERE id = ? AND changes() > 0`,
        args: [JSON.stringify({ fields: Object.keys(patch) }), timestamp, id],
      },
      ...alsoCommit,
    ]);
    const changed = results[version === undefined ? 0 : 1];
    if (!changed) return undefined;
    return this.findById(id);
  }

  /** Soft-deletes a live memory the scope owns (`ownedById`); returns whether it did. */
  async softDelete(id: string, scope: ResolvedScope, now: Date): Promise<boolean> {
    const owned = ownedById(scope);
    const timestamp = now.toISOString();
    const [changed] = await this.database.transaction([
      {
        sql: `UPDATE memories SET deleted_at = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL AND ${owned.sql}`,
        args: [timestamp, timestamp, id, ...owned.args],
      },
      {
        sql: `INSERT INTO lifecycle_events (kind, subject_id, user_id, project_id, detail, created_at)
              SELECT 'memory.deleted', id, user_id, project_id, '{}', ? FROM memories WHERE id = ? AND changes() > 0`,
        args: [timestamp, id],
      },
      // Forgetting a memory forgets its earlier wordings too (a restore brings back the memory as it last read).
      deleteVersionsOfDeletedStatement([id]),
    ]);
    return (changed ?? 0) > 0;
  }

  /**
   * Undoes a soft delete of a memory the scope owns (`ownedById`), in one transaction with its lifecycle event and an
   * index job, as `memories/add` writes them: its FTS entry was never removed (the triggers drop it only when the row
   * is purged), the job re-embeds it if its vector is stale and rewrites its graph edges. Says what it found: the
   * restored row, a memory that is not deleted, a deleted shared memory a user-scoped request may not restore, or
   * none (absent, purged, or not visible).
   */
  async restore(
    id: string,
    scope: ResolvedScope,
    now: Date,
  ): Promise<
    | { outcome: 'restored'; row: MemoryRow }
    | { outcome: 'not-deleted' }
    | { outcome: 'shared' }
    | { outcome: 'not-found' }
  > {
    const owned = ownedById(scope);
    const visible = visibleById(scope);
    const timestamp = now.toISOString();
    const [changed] = await this.database.transaction([
      {
        sql: `UPDATE memories SET deleted_at = NULL, updated_at = ? WHERE id = ? AND deleted_at IS NOT NULL AND ${owned.sql}`,
        args: [timestamp, id, ...owned.args],
      },
      {
        sql: `INSERT INTO lifecycle_events (kind, subject_id, user_id, project_id, detail, created_at)
              SELECT 'memory.restored', id, user_id, project_id, '{}', ? FROM memories WHERE id = ? AND changes() > 0`,
        args: [timestamp, id],
      },
      // Only a live memory is queued; a memory already live (nothing changed) is at worst indexed once more.
      enqueueIndexJobStatement(id, 'add', now),
    ]);
    const row = await this.database.get<MemoryRow>(
      `SELECT ${MEMORY_COLUMNS} FROM memories WHERE id = ? AND ${visible.sql}`,
      [id, ...visible.args],
    );
    if (row === undefined) return { outcome: 'not-found' };
    if ((changed ?? 0) > 0) return { outcome: 'restored', row };
    return row.deleted_at !== null && sharedReadOnly(row, scope) ? { outcome: 'shared' } : { outcome: 'not-deleted' };
  }

  /**
   * Live memories visible to the scope, newest first (`created_at`, then `seq`: both fixed when a memory is stored),
   * after the key `after` when given: a page of a keyset walk, which no add, edit or forget can shift.
   */
  async list(
    scope: ResolvedScope,
    filters: MemoryFilters,
    limit: number,
    now: Date = new Date(),
    after?: MemoryListKey,
  ): Promise<MemoryRow[]> {
    const where = allOf(
      { sql: 'm.deleted_at IS NULL AND (m.expires_at IS NULL OR m.expires_at > ?)', args: [now.toISOString()] },
      visibleTo(scope, 'm'),
      ...filterConditions(filters),
      ...(after === undefined ? [] : [{ sql: '(m.created_at, m.seq) < (?, ?)', args: [after.createdAt, after.seq] }]),
    );
    return this.database.all<MemoryRow>(
      `SELECT ${prefixed('m')} FROM memories m WHERE ${where.sql} ORDER BY m.created_at DESC, m.seq DESC LIMIT ?`,
      [...where.args, limit],
    );
  }

  /**
   * How many live shared memories (no user) match the filters within the named project (any project when none is named): what a user-scoped bulk
   * forget sees but leaves alone.
   */
  async countShared(scope: ResolvedScope, filters: MemoryFilters): Promise<number> {
    const where = allOf(
      { sql: 'm.deleted_at IS NULL', args: [] },
      ownedById({ ...scope, userId: null }, 'm'),
      ...filterConditions(filters),
    );
    const row = await this.database.get<{ count: number }>(
      `SELECT count(*) AS count FROM memories m WHERE ${where.sql}`,
      where.args,
    );
    return Number(row?.count ?? 0);
  }

  /** Live memories a bulk forget may touch (`ownedById`: any project when the request names none), newest first. */
  async listOwned(scope: ResolvedScope, filters: MemoryFilters): Promise<MemoryRow[]> {
    const where = allOf({ sql: 'm.deleted_at IS NULL', args: [] }, ownedById(scope, 'm'), ...filterConditions(filters));
    return this.database.all<MemoryRow>(
      `SELECT ${prefixed('m')} FROM memories m WHERE ${where.sql} ORDER BY m.created_at DESC, m.seq DESC`,
      where.args,
    );
  }

  /** Soft-deletes many memories by id in one transaction; returns how many changed. */
  async softDeleteMany(ids: readonly string[], now: Date, kind = 'memory.deleted'): Promise<number> {
    if (ids.length === 0) return 0;
    const timestamp = now.toISOString();
    let total = 0;
    for (let start = 0; start < ids.length; start += 500) {
      const chunk = ids.slice(start, start + 500);
      const marks = chunk.map(() => '?').join(', ');
      const [changed] = await this.database.transaction([
        {
          sql: `UPDATE memories SET deleted_at = ?, updated_at = ? WHERE deleted_at IS NULL AND id IN (${marks})`,
          args: [timestamp, timestamp, ...chunk],
        },
        {
          sql: `INSERT INTO lifecycle_events (kind, subject_id, user_id, project_id, detail, created_at)
                SELECT ?, id, user_id, project_id, '{}', ? FROM memories WHERE id IN (${marks}) AND deleted_at = ?`,
          args: [kind, timestamp, ...chunk, timestamp],
        },
        deleteVersionsOfDeletedStatement(chunk),
      ]);
      total += changed ?? 0;
    }
    return total;
  }

  /**
   * Permanently removes soft-deleted memories the scope owns (`ownedById`: what a forget without a projectId reached,
   * a vacuum without one purges; a user-scoped vacuum leaves forgotten shared memories for the app to restore or
   * purge); returns how many.
   */
  async purgeDeleted(scope: ResolvedScope, now: Date): Promise<number> {
    const owned = ownedById(scope);
    const [, purged] = await this.database.transaction([
      deleteVersionsOfPurgedStatement(owned),
      { sql: `DELETE FROM memories WHERE deleted_at IS NOT NULL AND ${owned.sql}`, args: owned.args },
      {
        sql: `INSERT INTO lifecycle_events (kind, subject_id, user_id, project_id, detail, created_at)
              VALUES ('memory.purged', NULL, ?, ?, json_object('count', changes()), ?)`,
        args: [scope.userId, scope.projectId, now.toISOString()],
      },
    ]);
    return purged ?? 0;
  }

  /**
   * Soft-deletes working memories past their TTL (at most 1,000 a call); returns how many. Reads only the partial
   * expiry index; the tenant database object decides how often it runs (`TenantDatabase.expireWorkingMemories`).
   */
  async expireWorking(now: Date): Promise<number> {
    const rows = await this.database.all<{ id: string }>(
      `SELECT id FROM memories INDEXED BY memories_expiry
        WHERE expires_at IS NOT NULL AND deleted_at IS NULL AND expires_at <= ? LIMIT 1000`,
      [now.toISOString()],
    );
    return this.softDeleteMany(
      rows.map((row) => row.id),
      now,
      'memory.expired',
    );
  }
}
