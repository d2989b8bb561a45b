import type { PendingAdd } from '../store/add-batch.js';
import type { MemoryRow } from '../store/memory-rows.js';
import type { TenantDatabase } from '../tenancy/tenant-database.js';

/** What an add answers: the row it stored, or the live duplicate it found instead (`deduplicated`). */
export interface AddedMemory {
  row: MemoryRow;
  deduplicated: boolean;
}

/** Writes of an add whose duplicate is forgotten between its write and its lookup before it gives up (never, in practice). */
const MAX_ADD_ATTEMPTS = 3;

/**
 * Stores a memory as one member of its tenant database's group commit (adds that arrive while a batch is being
 * written go together in the next one): the row, its FTS entry and its index job commit in one transaction, so the
 * memory is durable and lexically findable when this resolves. Its vector and graph edges follow from the job, in
 * the background (see `indexing/`). An add equal to a live memory its scope sees (`memories-duplicates.ts`) resolves
 * to that memory, read after the batch (the group commit does not wait for the read).
 */
export async function addMemoryRow(tenant: TenantDatabase, add: PendingAdd): Promise<AddedMemory> {
  for (let attempt = 1; ; attempt += 1) {
    const row = await tenant.adds.submit(add);
    if (row !== null) return { row, deduplicated: false };
    const duplicate = await tenant.memories.findDuplicate(add);
    if (duplicate !== undefined) return { row: duplicate, deduplicated: true };
    // Forgotten between the write and the read: written afresh.
    if (attempt >= MAX_ADD_ATTEMPTS) throw new Error('the duplicate of an added memory vanished repeatedly');
  }
}
