import type { InStatement } from '@libsql/client';
import type { ResolvedScope } from '@memory-service/contract';
import type { Database } from './database.js';
import { contentHash, type MemoryRow, type NewMemory, prefixed } from './memory-rows.js';
import { allOf, type Condition, visibleTo } from './scope-filter.js';

/**
 * The partial index `memories/add` finds duplicates by (tenant migration 6): live memories by content hash. A hash
 * matches a handful of rows at most, so the lookup costs the same at 100 memories or 100,000.
 */
const LIVE_CONTENT_INDEX = 'memories_live_content';

/** A memory about to be added, with the scope and time of its request. */
export interface DuplicateProbe {
  memory: NewMemory;
  scope: ResolvedScope;
  now: Date;
}

/**
 * The live memories (`alias`) an add deduplicates against: the same normalised content (`contentHash`), visible to
 * the add's scope (its own and shared records, `visibleTo`), not forgotten, superseded or expired, and of the same
 * kind: the same layer (it decides how a memory is served: rules in every prompt, working memories for 24 hours,
 * long-term ones when relevant) and both or neither of type `rule`. The other types (fact, decision, note, skill)
 * label the same text alike, so an equal note and fact are one memory.
 */
export function duplicateCondition(probe: DuplicateProbe, alias: string): Condition {
  const { memory, scope, now } = probe;
  return allOf(
    {
      sql: `${alias}.content_hash = ? AND ${alias}.deleted_at IS NULL AND ${alias}.superseded_by IS NULL
            AND (${alias}.expires_at IS NULL OR ${alias}.expires_at > ?)
            AND ${alias}.layer = ? AND (${alias}.type = 'rule') = ?`,
      args: [contentHash(memory.content), now.toISOString(), memory.layer, memory.type === 'rule' ? 1 : 0],
    },
    visibleTo(scope, alias),
  );
}

/** The query an add's INSERT checks, in its own transaction, before it writes a row (`memoryInsertStatement`). */
export function duplicateExists(probe: DuplicateProbe): Condition {
  const where = duplicateCondition(probe, 'd');
  return { sql: `SELECT 1 FROM memories d INDEXED BY ${LIVE_CONTENT_INDEX} WHERE ${where.sql}`, args: where.args };
}

/**
 * The `memory.created` event of an add, for the statement right after its INSERT: written only when that INSERT wrote
 * the row (`changes()`), not when it found a duplicate.
 */
export function createdEventStatement(id: string, { memory, scope }: DuplicateProbe, timestamp: string): InStatement {
  return {
    sql: `INSERT INTO lifecycle_events (kind, subject_id, user_id, project_id, detail, created_at)
          SELECT 'memory.created', ?, ?, ?, ?, ? WHERE changes() > 0`,
    args: [id, scope.userId, scope.projectId, JSON.stringify({ type: memory.type, layer: memory.layer }), timestamp],
  };
}

/**
 * The stored memory an add that wrote nothing deduplicated to. When several are visible (stored before duplicates
 * were refused, or a user's own copy beside a shared one), the closest to the scope wins (the user's before a
 * shared one, the project's before a global one), then the oldest. Undefined when it was forgotten meanwhile.
 */
export async function findDuplicate(database: Database, probe: DuplicateProbe): Promise<MemoryRow | undefined> {
  const where = duplicateCondition(probe, 'm');
  return database.get<MemoryRow>(
    `SELECT ${prefixed('m')} FROM memories m INDEXED BY ${LIVE_CONTENT_INDEX} WHERE ${where.sql}
      ORDER BY m.user_id IS NULL, m.project_id IS NULL, m.created_at, m.seq LIMIT 1`,
    where.args,
  );
}
