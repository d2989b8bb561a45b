import { type OperationId, operations } from '@memory-service/contract';
import { ConnectionError, MemoryApiError, TimeoutError } from './errors.js';

/** How the client waits between attempts; every field has a default, tests inject tiny delays and a fake sleep. */
export interface RetryOptions {
  /** Retries after the first attempt. */
  maxRetries?: number;
  /** The first backoff delay; it doubles on every retry. */
  initialDelayMs?: number;
  /** The backoff cap. */
  maxDelayMs?: number;
  /** The longest server-requested wait (`Retry-After`, `details.retryAfterSeconds`) the client honours. */
  maxRetryAfterMs?: number;
  /** Returns a number in [0, 1) for the jitter. */
  random?: () => number;
  /** Waits; replaced in tests to record the delays instead of sleeping. */
  sleep?: (milliseconds: number) => Promise<void>;
}

/** The retry settings with every default filled in. */
export type RetryPolicy = Required<RetryOptions>;

/** Builds a retry policy: 2 retries, 500 ms doubling backoff capped at 8 s, `Retry-After` honoured up to 60 s. */
export function createRetryPolicy({
  maxRetries = 2,
  initialDelayMs = 500,
  maxDelayMs = 8_000,
  maxRetryAfterMs = 60_000,
  random = Math.random,
  sleep = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds)),
}: RetryOptions = {}): RetryPolicy {
  return { maxRetries, initialDelayMs, maxDelayMs, maxRetryAfterMs, random, sleep };
}

/** Whether repeating an operation cannot change state twice: every GET route plus the read-only POST routes. */
export function isReadOperation(operationId: OperationId): boolean {
  return operations[operationId].readOnly;
}

/** 429 always; 408, 5xx, timeouts and connection failures only for read operations. */
export function shouldRetry(error: unknown, operationId: OperationId): boolean {
  if (!MemoryApiError.isInstance(error)) return false;
  const { status } = error;
  if (status === 429) return true;
  if (!isReadOperation(operationId)) return false;
  if (status === null) return ConnectionError.isInstance(error) || TimeoutError.isInstance(error);
  return status === 408 || status >= 500;
}

/** Parses a `Retry-After` header (seconds or an HTTP date) into seconds; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, (date - now) / 1000);
}

/** The wait before retry number `retryIndex` (0-based): the server's request if any, else jittered exponential backoff. */
export function retryDelayMs(error: unknown, retryIndex: number, policy: RetryPolicy): number {
  const retryAfterSeconds = MemoryApiError.isInstance(error) ? error.retryAfterSeconds : null;
  if (retryAfterSeconds !== null) return Math.min(retryAfterSeconds * 1000, policy.maxRetryAfterMs);
  const backoff = Math.min(policy.initialDelayMs * 2 ** retryIndex, policy.maxDelayMs);
  // Up to 25% less than the backoff, so clients that failed together do not retry together.
  return backoff * (1 - policy.random() * 0.25);
}

/** Runs one operation attempt after another until it succeeds, fails for good, or runs out of retries. */
export async function withRetries<Result>(
  operationId: OperationId,
  attempt: () => Promise<Result>,
  policy: RetryPolicy,
): Promise<Result> {
  for (let retryIndex = 0; ; retryIndex += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (retryIndex >= policy.maxRetries || !shouldRetry(error, operationId)) throw error;
      await policy.sleep(retryDelayMs(error, retryIndex, policy));
    }
  }
}
