import { IDEMPOTENCY, isIdempotencyKey } from '@memory-service/contract';

/** Options of one call, the last argument of every method; each one overrides the client's for that call only. */
export interface RequestOptions {
  /** Aborts the call: the attempt in flight and any wait before a retry. The call rejects with `RequestAbortedError`. */
  signal?: AbortSignal | undefined;
  /** Per-attempt timeout in milliseconds. */
  timeoutMs?: number | undefined;
  /**
   * The whole call in milliseconds, every attempt and wait included (`false`: no limit). Past it the attempt in flight
   * is aborted and the call rejects with `TimeoutError`; a retry whose wait would end past it is not made (the call
   * rejects at once with the error that would have been retried).
   */
  totalTimeoutMs?: number | false | undefined;
  /** Retries after the first attempt. */
  maxRetries?: number | undefined;
  /** Headers of this call, set over the client's headers (and over `Authorization`, if given). */
  headers?: Record<string, string> | undefined;
  /**
   * The `Idempotency-Key` of a write over HTTP. By default every write gets a new random key, sent with each of its
   * attempts, so a retry is answered with the first attempt's answer and never stores twice. Give your own to make
   * a repeat of the whole call (after a crash, from a queue) idempotent too. Reads and the MCP transport ignore it.
   */
  idempotencyKey?: string | undefined;
}

/** What a transport is given for one call: the request options with the client's defaults filled in. */
export interface CallSettings {
  signal: AbortSignal | undefined;
  timeoutMs: number;
  totalTimeoutMs: number | false;
  maxRetries: number;
  /** This call's own headers only; the transport adds the client's headers and the key. */
  headers: Record<string, string>;
  /** The caller's idempotency key for a write, if any (the HTTP transport makes one otherwise). */
  idempotencyKey: string | undefined;
}

/** The client's defaults of the per-call limits. */
export interface CallLimits {
  timeoutMs: number;
  totalTimeoutMs: number | false;
  maxRetries: number;
}

/** Per-attempt timeout of a client that was given none: a healthy server answers well within it (see the README). */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** Whole-call limit of a client that was given none: a hung server costs at most this, retries included. */
export const DEFAULT_TOTAL_TIMEOUT_MS = 15_000;
/** Retries after the first attempt of a client that was given none. */
export const DEFAULT_MAX_RETRIES = 2;

// The longest timer `setTimeout` (and ky) accepts.
const MAX_TIMEOUT_MS = 2_147_483_647;

function checkMilliseconds(name: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0 || value > MAX_TIMEOUT_MS) {
    throw new TypeError(`${name} must be a positive number of milliseconds up to ${MAX_TIMEOUT_MS}`);
  }
}

/** Throws a TypeError naming the option when a timeout or retry count makes no sense. */
export function checkLimits({ timeoutMs, totalTimeoutMs, maxRetries }: CallLimits): void {
  checkMilliseconds('timeoutMs', timeoutMs);
  if (totalTimeoutMs !== false) checkMilliseconds('totalTimeoutMs', totalTimeoutMs);
  if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new TypeError('maxRetries must be a whole number >= 0');
}

/** Fills a call's options from the client's defaults, and checks them. */
export function callSettings(
  defaults: CallLimits,
  {
    signal,
    timeoutMs = defaults.timeoutMs,
    totalTimeoutMs = defaults.totalTimeoutMs,
    maxRetries = defaults.maxRetries,
    headers = {},
    idempotencyKey,
  }: RequestOptions = {},
): CallSettings {
  const limits = { timeoutMs, totalTimeoutMs, maxRetries };
  checkLimits(limits);
  if (idempotencyKey !== undefined && !isIdempotencyKey(idempotencyKey)) {
    throw new TypeError(`idempotencyKey must be 1 to ${IDEMPOTENCY.maxKeyLength} printable ASCII characters`);
  }
  return { signal, ...limits, headers, idempotencyKey };
}
