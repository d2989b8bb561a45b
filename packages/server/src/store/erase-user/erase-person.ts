import { ERASED_KINDS, type EraseUserData } from '@memory-service/contract';
import type { Database } from '../database.js';
import { eraseFromDatabase } from './erase-database.js';
import { eraseIdempotentAnswers } from './erase-idempotency.js';
import { eraseSkillMirrors } from './erase-mirror.js';
import { sweepLateWrites } from './sweep-late-writes.js';

/** Where a person is erased from, and what the erasure may wait for. */
export interface ErasureTarget {
  /** The tenant (or workspace) database. */
  database: Database;
  /** The control database (its idempotency ledger). */
  control: Database;
  /** The data dir (skill file mirrors). */
  dataDir: string;
  ownerId: string;
  tenantId: string | null;
  userId: string;
  now: Date;
  /** Resolves once an indexer pass begun before the erasure has stored what it computed (a server's); optional. */
  settled?: () => Promise<void>;
}

/**
 * Erases a person (`userId`) from one database of a workspace: the database's rows in one transaction
 * (`eraseFromDatabase`), then what an indexer pass in flight wrote about them meanwhile (`sweepLateWrites`), the
 * idempotency ledger's answers naming them, and their skill file mirrors on disk. Answers the receipt.
 * @example const receipt = await erasePerson({ database, control, dataDir, ownerId, tenantId: 'acme', userId: 'ada', now });
 */
export async function erasePerson(target: ErasureTarget): Promise<EraseUserData> {
  const { database, userId, now } = target;
  const erasure = await eraseFromDatabase(database, userId, now);
  await target.settled?.();
  const swept = await sweepLateWrites(database, erasure.ids);
  const counts = { ...erasure.counts };
  for (const [kind, rows] of Object.entries(swept) as Array<[keyof typeof swept, number]>) counts[kind] += rows;
  counts.idempotencyKeys = await eraseIdempotentAnswers(target.control, target.ownerId, userId, erasure.ids);
  counts.skillMirrorFiles = await eraseSkillMirrors(target.dataDir, target.ownerId, target.tenantId, userId);
  const total = ERASED_KINDS.reduce((sum, kind) => sum + counts[kind], 0);
  const where = target.tenantId === null ? 'the workspace database' : `tenant ${target.tenantId}`;
  return {
    userId,
    tenantId: target.tenantId,
    erased: counts,
    total,
    supersedesCleared: erasure.supersedesCleared,
    message:
      total === 0
        ? `Nothing of user ${userId} was found in ${where}`
        : `Erased ${total} records of user ${userId} from ${where}`,
  };
}
