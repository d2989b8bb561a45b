import type { RequestOptions } from '../request-options.js';
import type { CallInput, OperationCaller, QueryInput } from '../types.js';

/** `client.sessions`: working sessions, their checkpoints and snapshots. */
export function createSessionsResource(call: OperationCaller) {
  return {
    /** Starts a session (201). */
    start: (input: CallInput<'sessions.start'> = {}, options?: RequestOptions) =>
      call('sessions.start', input, options),
    /** Appends an event to an active session. */
    checkpoint: (input: CallInput<'sessions.checkpoint'>, options?: RequestOptions) =>
      call('sessions.checkpoint', input, options),
    /** Ends a session as closed or compacted and writes its snapshot. */
    end: (input: CallInput<'sessions.end'>, options?: RequestOptions) => call('sessions.end', input, options),
    /** Reads a session's latest snapshot. */
    snapshot: (sessionId: string, query: QueryInput<'sessions.snapshot', 'sessionId'> = {}, options?: RequestOptions) =>
      call('sessions.snapshot', { ...query, sessionId }, options),
    /** Lists the scope's sessions, newest activity first, with their totals (an extension beyond the contract). */
    list: (input: QueryInput<'sessions.list'> = {}, options?: RequestOptions) => call('sessions.list', input, options),
    /** Reads a session's events, oldest first (an extension beyond the contract). */
    events: (input: QueryInput<'sessions.events', 'sessionId'> & { sessionId: string }, options?: RequestOptions) =>
      call('sessions.events', input, options),
  };
}

/** The `client.sessions` resource. */
export type SessionsResource = ReturnType<typeof createSessionsResource>;
