import { createHash } from 'node:crypto';
import { type ApiErrorObject, IDEMPOTENCY, isIdempotencyKey, type OperationDefinition } from '@memory-service/contract';
import { ApiError } from '../api-error.js';
import type { Logger } from '../logger.js';
import type { IdempotencyKeys } from '../store/idempotency-keys.js';

/** What a write answered, kept under its idempotency key and replayed to a retry. */
export type Answer = { status: number; data: unknown } | { status: number; error: ApiErrorObject };

/** A request that holds its key: it runs, and `settle` records what its work answers. */
export interface FirstRun {
  kind: 'first';
  /** Records the work's outcome once it settles (also after the request's deadline answered for it). */
  settle(work: Promise<unknown>, status: () => number): void;
}

export type Admission = FirstRun | { kind: 'replay'; answer: Answer };

/** How often expired keys are purged, at most. */
const PURGE_INTERVAL_MS = 60_000;

/** JSON with object keys sorted, so one body written twice in another key order is one fingerprint. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What identifies a request's body for its key: the operation and the body (or query) as sent. */
export function fingerprintOf(operation: OperationDefinition, input: unknown): string {
  return createHash('sha256').update(operation.id).update('\u0000').update(canonicalJson(input)).digest('hex');
}

/** The idempotency key a write names, or undefined; a malformed one is refused before anything runs. */
export function idempotencyKeyOf(operation: OperationDefinition, header: string | null | undefined) {
  if (header === undefined || header === null || operation.readOnly) return undefined;
  if (!isIdempotencyKey(header)) {
    throw new ApiError(
      'INVALID_REQUEST',
      `${IDEMPOTENCY.header} must be 1 to ${IDEMPOTENCY.maxKeyLength} printable ASCII characters (a UUID will do)`,
      { field: IDEMPOTENCY.header },
    );
  }
  return header;
}

/**
 * Idempotent writes with Stripe's semantics (contract idempotency.ts): the first request with a key runs and its
 * answer is kept; a retry with the same key and body gets that answer back; the same key with another body is
 * refused. A retry that arrives while the first still runs in this process waits for it (at most `waitMs`); one that
 * finds it running in another process is told to come back. A run whose process ended before it answered is taken
 * over once it is older than `abandonedAfterMs` (longer than any request may run).
 *
 * What is kept: a success, and an error a retry would get again (not retryable: not found, refused...). A failure a
 * retry may fix (busy, a deadline, a database unavailable, a bug) forgets the key, so the retry runs again.
 */
export class IdempotencyLedger {
  private readonly running = new Map<string, Promise<void>>();
  private lastPurge = 0;

  constructor(
    private readonly keys: IdempotencyKeys,
    private readonly options: { waitMs: number; abandonedAfterMs: number; now: () => Date; logger: Logger },
  ) {}

  async admit(ownerId: string, key: string, operation: OperationDefinition, input: unknown): Promise<Admission> {
    this.purgeNowAndThen();
    const fingerprint = fingerprintOf(operation, input);
    const id = `${ownerId}\u0000${key}`;
    // A key released or expired between two reads is claimed on the next turn; three turns cover any such race.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const now = this.options.now();
      const expiresAt = new Date(now.getTime() + IDEMPOTENCY.retentionHours * 3_600_000);
      if (await this.keys.claim(ownerId, key, operation.id, fingerprint, now, expiresAt))
        return this.first(id, ownerId, key);
      const row = await this.keys.find(ownerId, key);
      if (row === undefined) continue;
      if (row.operation_id !== operation.id || row.fingerprint !== fingerprint) {
        throw new ApiError(
          'IDEMPOTENCY_KEY_REUSED',
          `This ${IDEMPOTENCY.header} was first used with another request body or route; use a new key for a new request`,
          { field: IDEMPOTENCY.header },
        );
      }
      if (row.status !== null && row.answer !== null)
        return { kind: 'replay', answer: JSON.parse(row.answer) as Answer };
      const local = this.running.get(id);
      if (local !== undefined) {
        await waitAtMost(local, this.options.waitMs);
        if (this.running.get(id) === local) break;
        continue;
      }
      const age = now.getTime() - Date.parse(row.created_at);
      if (age > this.options.abandonedAfterMs && (await this.keys.takeOver(ownerId, key, row.created_at, now)))
        return this.first(id, ownerId, key);
      break;
    }
    throw new ApiError(
      'IDEMPOTENCY_KEY_IN_USE',
      `The first request with this ${IDEMPOTENCY.header} is still running; retry shortly to get its answer`,
      { field: IDEMPOTENCY.header, retryAfterSeconds: 1 },
    );
  }

  private first(id: string, ownerId: string, key: string): FirstRun {
    let done: () => void = () => undefined;
    const settled = new Promise<void>((resolve) => {
      done = resolve;
    });
    this.running.set(id, settled);
    const record = async (answer: Answer | null) => {
      try {
        if (answer === null) await this.keys.release(ownerId, key);
        else await this.keys.complete(ownerId, key, answer.status, JSON.stringify(answer));
      } catch (error) {
        // The key stays running until it is taken over as abandoned; a retry meanwhile is told to come back.
        this.options.logger.warn('idempotency key not recorded', {
          error: error instanceof Error ? error.name : 'error',
        });
      } finally {
        this.running.delete(id);
        done();
      }
    };
    return {
      kind: 'first',
      settle: (work, status) => {
        work.then(
          (data) => record({ status: status(), data }),
          (error: unknown) => {
            const object = error instanceof ApiError ? error.toObject() : null;
            return record(object === null || object.retryable ? null : { status: object.status, error: object });
          },
        );
      },
    };
  }

  private purgeNowAndThen(): void {
    const now = this.options.now();
    if (now.getTime() - this.lastPurge < PURGE_INTERVAL_MS) return;
    this.lastPurge = now.getTime();
    this.keys.purgeExpired(now).catch(() => undefined);
  }
}

async function waitAtMost(promise: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
