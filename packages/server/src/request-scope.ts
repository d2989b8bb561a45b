import { AsyncLocalStorage } from 'node:async_hooks';
import { ApiError } from './api-error.js';

/**
 * What work started by a request can see of it without being handed it: the signal its deadline aborts. Background
 * work (`inBackground`) has no request and says so (the database pool serves requests' statements first).
 */
type RequestScope = { signal: AbortSignal; background?: never } | { signal?: never; background: true };

const storage = new AsyncLocalStorage<RequestScope>();

/** Runs a request's work with its signal visible to everything the work starts (database calls, inference). */
export function runInRequestScope<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  return storage.run({ signal }, work);
}

/**
 * Runs work that outlives the request that started it (a group commit serving other requests, a log flush, the
 * indexer) outside that request's scope, so that request's deadline never aborts it.
 */
export function outsideRequestScope<T>(work: () => T): T {
  return storage.exit(work);
}

/**
 * Runs work that serves no request (indexing, flushing buffered log rows, planner statistics) outside any request's
 * scope, marked as background: in the database pool its writes keep their turn (a request's writes go ahead of held
 * reads), and a worker running it holds no request's read behind it.
 */
export function inBackground<T>(work: () => T): T {
  return storage.run({ background: true }, work);
}

/** Whether the caller runs as background work (`inBackground`). */
export function isBackgroundWork(): boolean {
  return storage.getStore()?.background === true;
}

/** The signal of the request the caller runs for, if any. */
export function currentRequestSignal(): AbortSignal | undefined {
  return storage.getStore()?.signal;
}

/** The error a request past its deadline answers with. */
export function deadlineExceeded(deadlineMs: number): ApiError {
  return new ApiError(
    'REQUEST_DEADLINE_EXCEEDED',
    `The request did not finish within its ${deadlineMs} ms deadline and was abandoned; retry later`,
    { deadlineMs, retryAfterSeconds: 1 },
  );
}

/** Throws when the caller's request has passed its deadline: work not yet started is abandoned, not run. */
export function throwIfRequestAborted(): void {
  const signal = currentRequestSignal();
  if (signal?.aborted) throw signal.reason instanceof ApiError ? signal.reason : deadlineExceeded(0);
}
