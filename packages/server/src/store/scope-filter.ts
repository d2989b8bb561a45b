import type { InValue } from '@libsql/client';
import type { ResolvedScope } from '@memory-service/contract';

/** A SQL condition and its arguments. */
export interface Condition {
  sql: string;
  args: InValue[];
}

function column(alias: string, name: string): string {
  return alias === '' ? name : `${alias}.${name}`;
}

/** Records of this value plus shared records (NULL); only shared records when the value is absent. */
function ownOrShared(name: string, value: string | null): Condition {
  return value === null
    ? { sql: `${name} IS NULL`, args: [] }
    : { sql: `(${name} IS NULL OR ${name} = ?)`, args: [value] };
}

/** Joins conditions with AND. */
export function allOf(...conditions: Condition[]): Condition {
  return { sql: conditions.map((each) => each.sql).join(' AND '), args: conditions.flatMap((each) => each.args) };
}

/** Records written with exactly this user, or shared records (no user) when the value is absent. */
function exactly(name: string, value: string | null): Condition {
  return value === null ? { sql: `${name} IS NULL`, args: [] } : { sql: `${name} = ?`, args: [value] };
}

/**
 * The project condition of a request that names one record by id (get, history, edit, forget, restore) or selects a
 * user's records for a bulk forget or a vacuum: the named project and project-less records when a projectId is
 * given, and no condition when none is. projectId is not an authentication boundary, it narrows
 * (docs/architecture.md#tenancy-and-visibility): a client that stored a memory in a project and forgets it by id
 * without one (the memories.sh client sends no projectId on edit, forget and bulk forget) reaches it, as the user it
 * belongs to and no one else.
 */
function projectIfNamed(name: string, value: string | null): Condition {
  return value === null ? { sql: '1', args: [] } : ownOrShared(name, value);
}

/** A scope's user condition and project condition, over the columns of `alias`. */
function scopeCondition(
  scope: ResolvedScope,
  alias: string,
  user: (name: string, value: string | null) => Condition,
  project: (name: string, value: string | null) => Condition,
): Condition {
  return allOf(user(column(alias, 'user_id'), scope.userId), project(column(alias, 'project_id'), scope.projectId));
}

/**
 * Visibility inside a database (docs/architecture.md#tenancy-and-visibility): with a userId, that user's records plus
 * shared ones (no userId); without, shared records only. projectId works the same way.
 */
export function visibleTo(scope: ResolvedScope, alias = ''): Condition {
  return scopeCondition(scope, alias, ownOrShared, ownOrShared);
}

/**
 * What writes to existing records may touch (edit, forget, restore, bulk forget, vacuum, consolidation): records
 * written with exactly this scope's user (or shared records when the request names no user), within the visible
 * projects. A user reads shared records but never changes them: they are every other user's too.
 */
export function ownedBy(scope: ResolvedScope, alias = ''): Condition {
  return scopeCondition(scope, alias, exactly, ownOrShared);
}

/** `visibleTo` for one record named by id: the projectId narrows only when the request gives one. */
export function visibleById(scope: ResolvedScope, alias = ''): Condition {
  return scopeCondition(scope, alias, ownOrShared, projectIfNamed);
}

/**
 * `ownedBy` for writes that name records by id (edit, forget, restore) or select a user's records (bulk forget, and
 * vacuum, which purges what those forgot): the projectId narrows only when the request gives one. Consolidation keeps
 * `ownedBy`: a merge never joins two projects' records.
 */
export function ownedById(scope: ResolvedScope, alias = ''): Condition {
  return scopeCondition(scope, alias, exactly, projectIfNamed);
}

/** Whether a record the scope sees is one it may only read: shared (no user) while the request names a user. */
export function sharedReadOnly(row: { user_id: string | null }, scope: ResolvedScope): boolean {
  return scope.userId !== null && row.user_id === null;
}

/** The (user, project) pairs a scope sees, as `visibleTo` reads them: its own and the shared (NULL) ones. */
function visiblePairs(scope: ResolvedScope): Array<readonly [string | null, string | null]> {
  const users = scope.userId === null ? [null] : [scope.userId, null];
  const projects = scope.projectId === null ? [null] : [scope.projectId, null];
  return users.flatMap((user) => projects.map((project) => [user, project] as const));
}

const LIVE_OF_PAIR = 'SELECT seq FROM memories WHERE user_id IS ? AND project_id IS ? AND deleted_at IS NULL';

/**
 * `visibleTo` as a condition on `seq` that SQLite answers through the scope index (`memories_scope`: user, project,
 * deleted_at): one equality lookup per (user, project) pair the scope sees, at most four. Left to itself the planner
 * reads `(user_id IS NULL OR user_id = ?)` by scanning every live memory, which is what a narrow scope must not pay
 * in a tenant of many users. Live memories only (the index's `deleted_at IS NULL`). The list is built whole before
 * it is read (an IN subquery), so it is for scopes known to be small: `countVisibleLive` says.
 */
export function visibleLiveSeqs(scope: ResolvedScope, alias = ''): Condition {
  return visibleLiveIn(scope, column(alias, 'seq'));
}

/** `visibleLiveSeqs` on any expression holding a memory's `seq` (a full-text row's `rowid`, say). */
export function visibleLiveIn(scope: ResolvedScope, expression: string): Condition {
  const pairs = visiblePairs(scope);
  return {
    sql: `${expression} IN (${pairs.map(() => LIVE_OF_PAIR).join(' UNION ALL ')})`,
    args: pairs.flat(),
  };
}

/**
 * A statement counting the live memories a scope sees, through the scope index and no further than `atMost + 1` per
 * (user, project) pair: its answer is above `atMost` as soon as the scope is, at a bounded cost however large the
 * scope (column `count`).
 */
export function countVisibleLive(scope: ResolvedScope, atMost: number): Condition {
  const pairs = visiblePairs(scope);
  return {
    sql: `SELECT count(*) AS count FROM (${pairs.map(() => `SELECT 1 FROM (${LIVE_OF_PAIR} LIMIT ?)`).join(' UNION ALL ')})`,
    args: pairs.flatMap((pair) => [...pair, atMost + 1]),
  };
}

/** A statement counting the tenant's live memories, whoever sees them, no further than `atMost + 1` (`count`). */
export function countLive(atMost: number): Condition {
  return {
    sql: 'SELECT count(*) AS count FROM (SELECT 1 FROM memories WHERE deleted_at IS NULL LIMIT ?)',
    args: [atMost + 1],
  };
}
