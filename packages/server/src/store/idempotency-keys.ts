import type { Database } from './database.js';

/** A key's row: who used it, on what, and (once the first request has run) what it answered. */
export interface IdempotencyRow {
  operation_id: string;
  fingerprint: string;
  /** Null while the first request runs. */
  status: number | null;
  /** The answer as JSON (`{ data }` or `{ error }`), null while the first request runs. */
  answer: string | null;
  created_at: string;
}

/** How many expired keys one purge deletes, so a purge is one short statement. */
const PURGE_BATCH = 500;

/** Idempotency keys of write requests (admission/idempotency.ts), in the control database. */
export class IdempotencyKeys {
  constructor(private readonly database: Database) {}

  /**
   * Claims a key for a request that is about to run: true when this request is the key's first (or the key's earlier
   * use has expired), false when the key is taken.
   */
  async claim(ownerId: string, key: string, operationId: string, fingerprint: string, now: Date, expiresAt: Date) {
    const changed = await this.database.run(
      `INSERT INTO idempotency_keys (owner_id, idempotency_key, operation_id, fingerprint, status, answer, created_at,
         expires_at)
       VALUES (?, ?, ?, ?, NULL, NULL, ?, ?)
       ON CONFLICT (owner_id, idempotency_key) DO UPDATE SET
         operation_id = excluded.operation_id, fingerprint = excluded.fingerprint, status = NULL, answer = NULL,
         created_at = excluded.created_at, expires_at = excluded.expires_at
       WHERE idempotency_keys.expires_at <= excluded.created_at`,
      [ownerId, key, operationId, fingerprint, now.toISOString(), expiresAt.toISOString()],
    );
    return changed > 0;
  }

  async find(ownerId: string, key: string): Promise<IdempotencyRow | undefined> {
    return this.database.get<IdempotencyRow>(
      `SELECT operation_id, fingerprint, status, answer, created_at FROM idempotency_keys
       WHERE owner_id = ? AND idempotency_key = ?`,
      [ownerId, key],
    );
  }

  /**
   * Takes over a key whose first request was abandoned (its process ended while it ran): true when this request won
   * the key (the row still shows the run it saw).
   */
  async takeOver(ownerId: string, key: string, seenCreatedAt: string, now: Date): Promise<boolean> {
    const changed = await this.database.run(
      `UPDATE idempotency_keys SET created_at = ?
       WHERE owner_id = ? AND idempotency_key = ? AND status IS NULL AND created_at = ?`,
      [now.toISOString(), ownerId, key, seenCreatedAt],
    );
    return changed > 0;
  }

  /** Records the answer of the key's first request. */
  async complete(ownerId: string, key: string, status: number, answer: string): Promise<void> {
    await this.database.run(
      'UPDATE idempotency_keys SET status = ?, answer = ? WHERE owner_id = ? AND idempotency_key = ?',
      [status, answer, ownerId, key],
    );
  }

  /** Forgets a key whose request did no work a retry could repeat (it failed in a way a retry may fix). */
  async release(ownerId: string, key: string): Promise<void> {
    await this.database.run('DELETE FROM idempotency_keys WHERE owner_id = ? AND idempotency_key = ?', [ownerId, key]);
  }

  /** Deletes up to PURGE_BATCH expired keys; returns how many. */
  async purgeExpired(now: Date): Promise<number> {
    return this.database.run(
      `DELETE FROM idempotency_keys WHERE rowid IN (
         SELECT rowid FROM idempotency_keys WHERE expires_at <= ? LIMIT ${PURGE_BATCH})`,
      [now.toISOString()],
    );
  }
}
