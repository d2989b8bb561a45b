/**
 * Work that runs after the model has answered (checkpoints of its output, capture), so it never delays or fails the
 * response. Each task is handed to `waitUntil` when the app gives one (a serverless platform's way of keeping the
 * function alive for it); `flush()` waits for everything started so far.
 */
export function createBackgroundTasks(waitUntil: ((promise: Promise<unknown>) => void) | undefined) {
  const pending = new Set<Promise<void>>();
  return {
    /** Starts a task; it must report its own failures (a rejection is swallowed here). */
    run(task: () => Promise<void>): void {
      const promise: Promise<void> = Promise.resolve()
        .then(task)
        .catch(() => undefined)
        .finally(() => pending.delete(promise));
      pending.add(promise);
      waitUntil?.(promise);
    },
    /** Resolves once every task started so far (and any they started) has settled. */
    async flush(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}

/** The background tasks of one middleware. */
export type BackgroundTasks = ReturnType<typeof createBackgroundTasks>;
