import type { Database } from '../database.js';
import type { ErasedIds } from './erase-database.js';

/**
 * Deletes the stored answers of idempotent writes (control table `idempotency_keys`) of one workspace that mention
 * the erased person: an answer with a `userId` field equal to theirs, or any string value equal to one of the erased
 * ids (memories, sessions, their events and snapshots, skill files). Values are compared whole, through `json_tree`,
 * so another record whose text merely contains the id is not matched. Returns how many keys went; a retry with one of
 * them runs its request again instead of replaying it. The control database holds no other per-user rows.
 */
export async function eraseIdempotentAnswers(
  control: Database,
  ownerId: string,
  userId: string,
  ids: ErasedIds,
): Promise<number> {
  const erased = JSON.stringify([...ids.memoryIds, ...ids.otherIds]);
  return control.run(
    `DELETE FROM idempotency_keys
      WHERE owner_id = ? AND answer IS NOT NULL AND json_valid(answer)
        AND EXISTS (SELECT 1 FROM json_tree(idempotency_keys.answer) node
                     WHERE node.type = 'text'
                       AND ((node.key = 'userId' AND node.atom = ?)
                            OR node.atom IN (SELECT value FROM json_each(?))))`,
    [ownerId, userId, erased],
  );
}
