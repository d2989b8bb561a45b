import { ApiError } from '../api-error.js';
import type { Handler, HandlerContext } from '../pipeline/handler-types.js';
import { latestSummary, renderTranscript, snapshotSlug } from '../sessions/transcript.js';
import { type SessionRow, toListedSession, toSession, toSessionEvent, toSnapshot } from '../store/session-rows.js';
import type { SessionStore } from '../store/sessions.js';

/** The session store of the request's tenant database. */
export async function sessionStoreOf(context: HandlerContext): Promise<SessionStore> {
  return (await context.tenant()).sessions;
}

/** The session with this id among those visible to the request's scope, else 404 SESSION_NOT_FOUND. */
export async function requireVisibleSession(
  store: SessionStore,
  sessionId: string,
  context: HandlerContext,
): Promise<SessionRow> {
  const session = await store.findVisible(sessionId, context.scope);
  if (session === undefined) {
    throw new ApiError('SESSION_NOT_FOUND', `No session with id ${sessionId} is visible in this scope`);
  }
  return session;
}

function notActive(session: SessionRow): ApiError {
  return new ApiError('SESSION_NOT_ACTIVE', `Session ${session.id} is ${session.status}, not active`, {
    status: session.status,
  });
}

/** `POST /sessions/start`: opens an active session in the request's scope (201). */
export const startSession: Handler<'sessions.start'> = async (input, context) => {
  const store = await sessionStoreOf(context);
  const row = await store.start(
    { title: input.title ?? null, client: input.client ?? null, metadata: input.metadata ?? {} },
    context.scope,
    context.now,
  );
  return { sessionId: row.id, message: 'Session started', session: toSession(row, context.scope.tenantId) };
};

/** `POST /sessions/checkpoint`: appends an event to an active session. */
export const checkpointSession: Handler<'sessions.checkpoint'> = async (input, context) => {
  const store = await sessionStoreOf(context);
  const session = await requireVisibleSession(store, input.sessionId, context);
  if (session.status !== 'active') throw notActive(session);
  const row = await store.appendEvent(session, input, context.now);
  if (row === undefined) throw notActive((await store.findVisible(session.id, context.scope)) ?? session);
  const totals = { ...(await store.totals(session.id)), previousActivityAt: session.last_activity_at };
  return { sessionId: session.id, eventId: row.id, message: 'Checkpoint recorded', event: toSessionEvent(row), totals };
};

/** `POST /sessions/end`: closes or compacts an active session and writes its snapshot in the same transaction. */
export const endSession: Handler<'sessions.end'> = async (input, context) => {
  if (input.status === 'compacted' && !context.services.config.flags.MEMORY_COMPACTION_ENABLED) {
    throw new ApiError(
      'MEMORY_COMPACTION_DISABLED',
      'Compacting sessions is disabled (MEMORY_COMPACTION_ENABLED=false)',
    );
  }
  const store = await sessionStoreOf(context);
  const session = await requireVisibleSession(store, input.sessionId, context);
  if (session.status !== 'active') throw notActive(session);
  const endedAt = context.now.toISOString();
  // The transcript shows the session as it will be once ended; the store writes these same values.
  const ending = {
    ...toSession(session, context.scope.tenantId),
    status: input.status,
    endedAt,
    lastActivityAt: endedAt,
  };
  const written = await store.end(session, input.status, context.now, (rows) => {
    const events = rows.map(toSessionEvent);
    return {
      slug: snapshotSlug(session.title, session.id),
      transcriptMd: renderTranscript(ending, events),
      summary: latestSummary(events),
    };
  });
  if (written === undefined) throw notActive((await store.findVisible(session.id, context.scope)) ?? session);
  return {
    sessionId: session.id,
    message: input.status === 'compacted' ? 'Session compacted' : 'Session closed',
    session: toSession(written.session, context.scope.tenantId),
    snapshot: toSnapshot(written.snapshot),
  };
};

/** `GET /sessions/{sessionId}/snapshot`: the session's latest snapshot. */
export const sessionSnapshot: Handler<'sessions.snapshot'> = async (input, context) => {
  const store = await sessionStoreOf(context);
  const session = await requireVisibleSession(store, input.sessionId, context);
  const snapshot = await store.snapshot(session.id);
  if (snapshot === undefined) {
    throw new ApiError(
      'SESSION_SNAPSHOT_NOT_FOUND',
      `Session ${session.id} has no snapshot yet; it is written when the session ends`,
    );
  }
  return { sessionId: session.id, message: 'Latest snapshot', snapshot: toSnapshot(snapshot) };
};

/** `GET /sessions` (an extension): the scope's visible sessions, newest activity first, with their totals. */
export const listSessions: Handler<'sessions.list'> = async (input, context) => {
  const rows = await (await sessionStoreOf(context)).listVisible(context.scope, input.status, input.limit);
  const sessions = rows.map((row) => toListedSession(row, context.scope.tenantId));
  return { sessions, count: sessions.length };
};

/** `GET /sessions/{sessionId}/events` (an extension): a visible session's events, oldest first. */
export const sessionEvents: Handler<'sessions.events'> = async (input, context) => {
  const store = await sessionStoreOf(context);
  const session = await requireVisibleSession(store, input.sessionId, context);
  const events = (await store.events(session.id, undefined, input.limit)).map(toSessionEvent);
  return { sessionId: session.id, events, count: events.length };
};
