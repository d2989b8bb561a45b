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
