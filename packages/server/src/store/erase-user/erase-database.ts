import { ERASED_KINDS, type ErasedCounts } from '@memory-service/contract';
import type { Database } from '../database.js';
import { eraseStatements } from './erase-statements.js';

/** The ids an erasure removed: the late-write sweep and the idempotency ledger look for them afterwards. */
export interface ErasedIds {
  memoryIds: string[];
  memorySeqs: number[];
  /** Sessions, their events and snapshots, and skill files. */
  otherIds: string[];
}

/** What erasing one person from one database did. */
export interface DatabaseErasure {
  counts: ErasedCounts;
  supersedesCleared: number;
  ids: ErasedIds;
}

/** A receipt with every count at zero. */
export function zeroCounts(): ErasedCounts {
  return Object.fromEntries(ERASED_KINDS.map((kind) => [kind, 0])) as ErasedCounts;
}

async function idsOf(database: Database, userId: string): Promise<ErasedIds> {
  const memories = await database.all<{ id: string; seq: number }>('SELECT id, seq FROM memories WHERE user_id = ?', [
    userId,
  ]);
  const others = await database.all<{ id: string }>(
    `SELECT id FROM sessions WHERE user_id = ?
     UNION ALL SELECT e.id FROM session_events e JOIN sessions s ON s.id = e.session_id WHERE s.user_id = ?
     UNION ALL SELECT p.id FROM session_snapshots p JOIN sessions s ON s.id = p.session_id WHERE s.user_id = ?
     UNION ALL SELECT id FROM skill_files WHERE user_id = ?`,
    [userId, userId, userId, userId],
  );
  return {
    memoryIds: memories.map((row) => row.id),
    memorySeqs: memories.map((row) => Number(row.seq)),
    otherIds: others.map((row) => row.id),
  };
}

/**
 * Erases every row of `userId` from one tenant (or workspace) database, and what derives from or names those rows,
 * in one transaction (vector tables included): a failure leaves the database as it was. Rows without a userId
 * (shared records) and other users' rows are never deleted; see `eraseStatements` for the list.
 */
export async function eraseFromDatabase(database: Database, userId: string, now: Date): Promise<DatabaseErasure> {
  // Retrieval metrics and events wait in the log buffer to be written in batches: written now, before the erasure's
  // transaction, so that a row naming the person that was logged before the erasure never lands after it.
  await database.logs.flush();
  const ids = await idsOf(database, userId);
  const vectorTables = await database.all<{ table_name: string }>('SELECT table_name FROM embedding_vector_tables');
  const statements = eraseStatements(
    userId,
    vectorTables.map((table) => table.table_name),
    now,
  );
  const changed = await database.transaction(statements.map((each) => each.statement));
  const counts = zeroCounts();
  let supersedesCleared = 0;
  statements.forEach((each, index) => {
    const rows = changed[index] ?? 0;
    if (each.counts === 'supersedesCleared') supersedesCleared += rows;
    else if (each.counts !== null) counts[each.counts] += rows;
  });
  return { counts, supersedesCleared, ids };
}
