import type { CallInput, OperationCaller, QueryInput } from '../types.js';

/** `client.sessions`: working sessions, their checkpoints and snapshots. */
export function createSessionsResource(call: OperationCaller) {
  return {
    /** Starts a session (201). */
    start: (input: CallInput<'sessions.start'> = {}) => call('sessions.start', input),
    /** Appends an event to an active session. */
    checkpoint: (input: CallInput<'sessions.checkpoint'>) => call('sessions.checkpoint', input),
    /** Ends a session as closed or compacted and writes its snapshot. */
    end: (input: CallInput<'sessions.end'>) => call('sessions.end', input),
    /** Reads a session's latest snapshot. */
    snapshot: (sessionId: string, query: QueryInput<'sessions.snapshot', 'sessionId'> = {}) =>
      call('sessions.snapshot', { ...query, sessionId }),
  };
}

/** The `client.sessions` resource. */
export type SessionsResource = ReturnType<typeof createSessionsResource>;
