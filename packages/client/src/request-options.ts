/** Options of one call, the last argument of every method; each one overrides the client's for that call only. */
export interface RequestOptions {
  /** Aborts the call: the attempt in flight and any wait before a retry. The call rejects with `RequestAbortedError`. */
  signal?: AbortSignal | undefined;
  /** Per-attempt timeout in milliseconds. */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt. */
  maxRetries?: number | undefined;
  /** Headers of this call, set over the client's headers (and over `Authorization`, if given). */
  headers?: Record<string, string> | undefined;
}

/** What a transport is given for one call: the request options with the client's defaults filled in. */
export interface CallSettings {
  signal: AbortSignal | undefined;
  timeoutMs: number;
  maxRetries: number;
  /** This call's own headers only; the transport adds the client's headers and the key. */
  headers: Record<string, string>;
}

// The longest timer `setTimeout` (and ky) accepts.
const MAX_TIMEOUT_MS = 2_147_483_647;

/** Throws a TypeError naming the option when a timeout or retry count makes no sense. */
export function checkLimits(timeoutMs: number, maxRetries: number): void {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_TIMEOUT_MS) {
    throw new TypeError(`timeoutMs must be a positive number of milliseconds up to ${MAX_TIMEOUT_MS}`);
  }
  if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new TypeError('maxRetries must be a whole number >= 0');
}

/** Fills a call's options from the client's defaults, and checks them. */
export function callSettings(
  defaults: { timeoutMs: number; maxRetries: number },
  { signal, timeoutMs = defaults.timeoutMs, maxRetries = defaults.maxRetries, headers = {} }: RequestOptions = {},
): CallSettings {
  checkLimits(timeoutMs, maxRetries);
  return { signal, timeoutMs, maxRetries, headers };
}
