/** The outcome of one rate-limit check, with what the `X-RateLimit-*` headers say. */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window resets. */
  resetSeconds: number;
  /** Whole seconds to wait before retrying (0 when allowed): a retry after exactly this long is admitted. */
  retryAfterSeconds: number;
}

const WINDOW_MS = 60_000;

/** One key's counts: requests admitted in the fixed minute starting at `start`, and in the minute before it. */
interface WindowState {
  start: number;
  current: number;
  previous: number;
}

/** The state as it stands at `nowMs`: rolled over into the minute `nowMs` falls in (counts move or expire). */
function rolledOver(state: WindowState | undefined, nowMs: number): WindowState {
  const windowStart = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
  if (state === undefined || state.start < windowStart - WINDOW_MS)
    return { start: windowStart, current: 0, previous: 0 };
  if (state.start < windowStart) return { start: windowStart, current: 0, previous: state.current };
  return state;
}

/** The sliding window's count at `nowMs`: the previous minute weighted by how much of it still overlaps, plus this one. */
function estimatedCount(state: WindowState, nowMs: number): number {
  const overlap = 1 - (nowMs - state.start) / WINDOW_MS;
  return state.previous * overlap + state.current;
}

/**
 * When the window first admits one more request, if no other request is counted meanwhile (refused ones are not).
 * In the current minute the previous minute's weight decays; if that is not enough (or this minute alone is full),
 * the answer lies in the next minute, where this minute's count becomes the decaying one. Each piece is linear in
 * time, so each is solved exactly; the caller checks the rounded answer against the same estimate `take` uses.
 */
function admittedAtMs(state: WindowState, limit: number): number {
  const room = limit - 1;
  const windowEnd = state.start + WINDOW_MS;
  if (state.current <= room && state.previous > 0) {
    const at = state.start + WINDOW_MS * (1 - (room - state.current) / state.previous);
    if (at < windowEnd) return at;
  }
  if (state.current <= room) return windowEnd;
  return windowEnd + WINDOW_MS * (1 - room / state.current);
}

/**
 * Sliding-window counter per key: the previous minute's count weighted by how much of it still overlaps
 * the sliding window, plus the current minute's count. Memory is two numbers per active key.
 */
export class SlidingWindowRateLimiter {
  private readonly windows = new Map<string, WindowState>();
  private lastSweep = 0;

  constructor(private readonly limitPerMinute: number) {}

  get enabled(): boolean {
    return this.limitPerMinute > 0;
  }

  /** Counts one request for `key` at `nowMs` unless it is over the limit. */
  take(key: string, nowMs: number): RateLimitDecision {
    const limit = this.limitPerMinute;
    const state = rolledOver(this.windows.get(key), nowMs);
    this.windows.set(key, state);
    const estimated = estimatedCount(state, nowMs);
    const resetSeconds = Math.max(1, Math.ceil((state.start + WINDOW_MS - nowMs) / 1000));
    if (estimated + 1 > limit) {
      return { allowed: false, limit, remaining: 0, resetSeconds, retryAfterSeconds: this.retryAfter(state, nowMs) };
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

  /**
   * Whole seconds, rounded up, until the window admits the next request: a client that waits exactly this long is
   * admitted. Checked with the estimate `take` itself uses, so floating-point rounding can only lengthen the wait.
   */
  private retryAfter(state: WindowState, nowMs: number): number {
    let seconds = Math.max(1, Math.ceil((admittedAtMs(state, this.limitPerMinute) - nowMs) / 1000));
    const admits = (atMs: number) => estimatedCount(rolledOver(state, atMs), atMs) + 1 <= this.limitPerMinute;
    while (!admits(nowMs + seconds * 1000)) seconds += 1;
    return seconds;
  }

  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweep < WINDOW_MS) return;
    this.lastSweep = nowMs;
    for (const [key, state] of this.windows) {
      if (state.start < nowMs - 2 * WINDOW_MS) this.windows.delete(key);
    }
  }
}
