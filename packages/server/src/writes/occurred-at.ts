import { LIMITS } from '@memory-service/contract';
import { ApiError } from '../api-error.js';

/**
 * A request's `occurredAt` as the stored ISO 8601 UTC text, or undefined when the request names none. The schema
 * checked its form; a time more than `LIMITS.occurredAtFutureMs` past the request's clock is refused (400 naming
 * `occurredAt`): what a memory says cannot have happened yet, beyond clock skew.
 */
export function occurredAtOf(value: string | undefined, now: Date): string | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  if (!Number.isFinite(time)) {
    throw new ApiError('INVALID_REQUEST', 'occurredAt: must be an ISO 8601 datetime', { field: 'occurredAt' });
  }
  if (time - now.getTime() > LIMITS.occurredAtFutureMs) {
    throw new ApiError('INVALID_REQUEST', 'occurredAt: must not be in the future', { field: 'occurredAt' });
  }
  return new Date(time).toISOString();
}
