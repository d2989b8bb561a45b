/** Resolves after `milliseconds`, or rejects with the signal's reason as soon as it aborts. */
export function abortableDelay(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Settles like `promise`, or rejects with the signal's reason as soon as it aborts (the work itself goes on). */
export function untilAborted<Value>(promise: Promise<Value>, signal: AbortSignal | undefined): Promise<Value> {
  if (signal === undefined) return promise;
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    // The listener goes with the promise, so one signal reused for many calls does not collect them.
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The end of a call's time (its `totalTimeoutMs`), measured from when it was made; `false` never ends. */
export interface Deadline {
  /** Milliseconds left (Infinity without a limit; 0 once past). */
  remainingMs(): number;
  /** Whether a wait of `milliseconds` would end before the deadline. */
  fits(milliseconds: number): boolean;
  /** Whether the time is up. */
  passed(): boolean;
}

/** Starts the clock of a call limited to `totalTimeoutMs` (or not at all, with `false`). */
export function startDeadline(totalTimeoutMs: number | false, now: () => number = () => performance.now()): Deadline {
  const endsAt = totalTimeoutMs === false ? Number.POSITIVE_INFINITY : now() + totalTimeoutMs;
  const remainingMs = () => Math.max(0, endsAt - now());
  // Node's timers may fire a millisecond before `performance.now()` says the time is up.
  return { remainingMs, fits: (milliseconds) => milliseconds < remainingMs(), passed: () => remainingMs() <= 2 };
}

/** A signal that aborts when any of the given ones does (undefined when none is given). */
export function anySignal(signals: ReadonlyArray<AbortSignal | undefined>): AbortSignal | undefined {
  const present = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  if (present.length <= 1) return present[0];
  return AbortSignal.any(present);
}
