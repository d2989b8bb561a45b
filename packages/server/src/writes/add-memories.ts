import type { ResolvedScope } from '@memory-service/contract';
import { enqueueIndexJobStatement } from '../indexing/index-jobs.js';
import type { Services } from '../services.js';
import type { Database } from '../store/database.js';
import { MemoryStore } from '../store/memories.js';
import type { MemoryRow, NewMemory } from '../store/memory-rows.js';
import { GroupCommit } from './group-commit.js';

/** A `memories/add` waiting for its group commit. */
export interface PendingAdd {
  memory: NewMemory;
  scope: ResolvedScope;
  now: Date;
  requestId: string;
}

/**
 * The most adds one group commit takes: enough to amortise a transaction over a burst of concurrent writers, small
 * enough that one batch's transaction stays a few milliseconds.
 */
const MAX_ADD_BATCH = 64;

const committers = new WeakMap<Database, GroupCommit<PendingAdd, MemoryRow>>();

async function runAdds(services: Services, database: Database, adds: PendingAdd[]): Promise<MemoryRow[]> {
  const rows = await new MemoryStore(database).insertMany(adds, (id, add) => [
    enqueueIndexJobStatement(id, 'add', add.now),
  ]);
  services.indexing.wake(database);
  return rows;
}

/**
 * Stores a memory as one member of its tenant database's group commit (adds that arrive while a batch is being
 * written go together in the next one): the row, its FTS entry and its index job commit in one transaction, so the
 * memory is durable and lexically findable when this resolves. Its vector and graph edges follow from the job, in
 * the background (see `indexing/`).
 */
export function addMemoryRow(services: Services, database: Database, add: PendingAdd): Promise<MemoryRow> {
  let committer = committers.get(database);
  if (committer === undefined) {
    committer = new GroupCommit((adds) => runAdds(services, database, adds), MAX_ADD_BATCH);
    committers.set(database, committer);
  }
  return committer.submit(add);
}
