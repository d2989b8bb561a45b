/** The outcome of one rate-limit check, with what the `X-RateLimit-*` headers say. */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window resets. */
  resetSeconds: number;
  /** Seconds to wait before retrying (0 when allowed). */
  retryAfterSeconds: number;
}

const WINDOW_MS = 60_000;

/**
 * Sliding-window counter per key: the previous minute's count weighted by how much of it still overlaps
 * the sliding window, plus the current minute's count. Memory is two numbers per active key.
 */
export class SlidingWindowRateLimiter {
  private readonly windows = new Map<string, { start: number; current: number; previous: number }>();
  private lastSweep = 0;

  constructor(private readonly limitPerMinute: number) {}

  get enabled(): boolean {
    return this.limitPerMinute > 0;
  }

  /** Counts one request for `key` at `nowMs` unless it is over the limit. */
  take(key: string, nowMs: number): RateLimitDecision {
    const limit = this.limitPerMinute;
    const windowStart = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
    let state = this.windows.get(key);
    if (state === undefined || state.start < windowStart - WINDOW_MS) {
      state = { start: windowStart, current: 0, previous: 0 };
    } else if (state.start < windowStart) {
      state = { start: windowStart, current: 0, previous: state.current };
    }
    this.windows.set(key, state);
    const overlap = 1 - (nowMs - windowStart) / WINDOW_MS;
    const estimated = state.previous * overlap + state.current;
    const resetSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - nowMs) / 1000));
    if (estimated + 1 > limit) {
      // Time until the weighted previous window has decayed enough for one more request.
      const needed = estimated + 1 - limit;
      const waitMs = state.previous > 0 ? (needed / state.previous) * WINDOW_MS : windowStart + WINDOW_MS - nowMs;
      const retryAfterSeconds = Math.max(1, Math.ceil(Math.min(waitMs, windowStart + WINDOW_MS - nowMs) / 1000));
      return { allowed: false, limit, remaining: 0, resetSeconds, retryAfterSeconds };
    }
    state.current += 1;
    this.sweep(nowMs);
    return {
      allowed: true,
      limit,
      remaining: Math.max(0, Math.floor(limit - estimated - 1)),
      resetSeconds,
      retryAfterSeconds: 0,
    };
  }

  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweep < WINDOW_MS) return;
    this.lastSweep = nowMs;
    for (const [key, state] of this.windows) {
      if (state.start < nowMs - 2 * WINDOW_MS) this.windows.delete(key);
    }
  }
}
