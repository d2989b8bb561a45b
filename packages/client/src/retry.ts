import { type OperationId, operations } from '@memory-service/contract';
import { abortableDelay, type Deadline } from './abort.js';
import { ConnectionError, MemoryApiError, type MemoryErrorCode } from './errors.js';

/** How the client waits between attempts; every field has a default. */
export interface RetryOptions {
  /** The first backoff delay; it doubles on every retry. */
  initialDelayMs?: number | undefined;
  /** The backoff cap. */
  maxDelayMs?: number | undefined;
  /** The longest server-requested wait (`Retry-After`, `details.retryAfterSeconds`) the client honours. */
  maxRetryAfterMs?: number | undefined;
  /** Returns a number in [0, 1) for the jitter. */
  random?: (() => number) | undefined;
}

/** The retry settings with every default filled in. */
export type RetryPolicy = { [Key in keyof RetryOptions]-?: Exclude<RetryOptions[Key], undefined> };

/** Builds a retry policy: 500 ms doubling backoff capped at 8 s, `Retry-After` honoured up to 60 s. */
export function createRetryPolicy({
  initialDelayMs = 500,
  maxDelayMs = 8_000,
  maxRetryAfterMs = 60_000,
  random = Math.random,
}: RetryOptions = {}): RetryPolicy {
  return { initialDelayMs, maxDelayMs, maxRetryAfterMs, random };
}

/** Whether repeating an operation cannot change state twice: every GET route plus the read-only POST routes. */
export function isReadOperation(operationId: OperationId): boolean {
  return operations[operationId].readOnly;
}

// Refusals the contract makes before any work starts: the request was not processed, so a write may be repeated.
const REFUSED_BEFORE_WORK: ReadonlySet<MemoryErrorCode> = new Set<MemoryErrorCode>([
  'RATE_LIMITED',
  'SERVER_BUSY',
  'TENANT_DATABASE_NOT_READY',
]);

// System errors that mean the connection was never made, so the request never left the client.
const NEVER_SENT: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function neverSent(error: ConnectionError): boolean {
  let current: unknown = error.cause;
  for (let depth = 0; depth < 8 && current instanceof Error; depth += 1) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === 'string' && NEVER_SENT.has(code)) return true;
    current = current.cause;
  }
  return false;
}

/** Whether a failure proves the server did no work: a 429, a refusal before work, or a connection never made. */
export function requestNotProcessed(error: MemoryApiError): boolean {
  if (error.status === 429 || REFUSED_BEFORE_WORK.has(error.code)) return true;
  return ConnectionError.isInstance(error) && neverSent(error);
}

/**
 * The one retry decision of both transports: the error must say it is `retryable`, and repeating the operation must
 * be safe: a read, a write the server provably did not process, or a write sent with an `Idempotency-Key`
 * (`idempotent`: the server answers its repeat with the first answer and stores nothing twice). Without a key, a
 * 5xx, a timeout or a reset after a write was sent may have been applied, so it is not repeated.
 */
export function shouldRetry(error: unknown, operationId: OperationId, { idempotent = false } = {}): boolean {
  if (!MemoryApiError.isInstance(error) || !error.retryable) return false;
  return isReadOperation(operationId) || idempotent || requestNotProcessed(error);
}

/** Parses a `Retry-After` header (seconds or an HTTP date) into seconds; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, (date - now) / 1000);
}

/** Exponential backoff before retry number `retryNumber` (1-based), capped, before the jitter. */
export function backoffMs(retryNumber: number, policy: RetryPolicy): number {
  return Math.min(policy.initialDelayMs * 2 ** (retryNumber - 1), policy.maxDelayMs);
}

/** Up to 25% less than the backoff, so clients that failed together do not retry together. */
export function jitterMs(delay: number, policy: RetryPolicy): number {
  return delay * (1 - policy.random() * 0.25);
}

/** The wait before retry number `retryNumber` (1-based): the server's request if any, else jittered capped backoff. */
export function retryDelayMs(error: unknown, retryNumber: number, policy: RetryPolicy): number {
  const retryAfterSeconds = MemoryApiError.isInstance(error) ? error.retryAfterSeconds : null;
  if (retryAfterSeconds !== null) return Math.min(retryAfterSeconds * 1000, policy.maxRetryAfterMs);
  return jitterMs(backoffMs(retryNumber, policy), policy);
}

/**
 * Runs attempts until one succeeds, `shouldRetry` says no, or `maxRetries` retries are spent, waiting `retryDelayMs`
 * between them. A wait that would end past the call's `deadline` is not started: the error is thrown at once, as no
 * attempt could follow it. The MCP transport's loop: its failures arrive inside JSON-RPC results, where ky cannot see
 * them.
 */
export async function withRetries<Result>(
  operationId: OperationId,
  attempt: () => Promise<Result>,
  policy: RetryPolicy,
  { maxRetries, signal, deadline }: { maxRetries: number; signal: AbortSignal | undefined; deadline?: Deadline },
): Promise<Result> {
  for (let retryNumber = 1; ; retryNumber += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (retryNumber > maxRetries || signal?.aborted || !shouldRetry(error, operationId)) throw error;
      const wait = retryDelayMs(error, retryNumber, policy);
      if (deadline !== undefined && !deadline.fits(wait)) throw error;
      await abortableDelay(wait, signal);
    }
  }
}
