import type { RunEnvironment, Scope } from '../environment.js';
import { assert, CheckSkipped, expectError, expectShape, expectSuccess, need } from '../expect.js';
import type { HttpResponse } from '../http.js';
import { CheckpointShape, SessionShape, SessionStartShape, SnapshotDataShape } from '../shapes.js';
import type { CheckGroup } from './group.js';

const START = 'Endpoints › POST /sessions/start';
const CHECKPOINT = 'Endpoints › POST /sessions/checkpoint';
const END = 'Endpoints › POST /sessions/end';
const SNAPSHOT = 'Endpoints › GET /sessions/{sessionId}/snapshot';
const STATES = 'States and transitions › Session';

/** Skips when the server answers 403 MEMORY_SESSION_DISABLED (the feature flag is off), after checking that error. */
export function skipWhenSessionsDisabled(response: HttpResponse): void {
  if (response.status !== 403) return;
  expectError(response, { status: 403, code: 'MEMORY_SESSION_DISABLED' });
  throw new CheckSkipped('sessions are disabled on this server (403 MEMORY_SESSION_DISABLED)');
}

/** Starts a session, checkpoints it once and ends it: what snapshot and promote checks need. Returns the session id. */
export async function endedSession(env: RunEnvironment, scope: Scope, status = 'closed'): Promise<string> {
  const started = await env.post('/sessions/start', {
    title: 'Conformance: release checklist',
    client: 'conformance',
    scope,
  });
  skipWhenSessionsDisabled(started);
  const { sessionId } = expectShape(SessionStartShape, expectSuccess(started, 201), 'start data');
  const steps = ['Run the test suite', 'Build the packages', 'Tag the release', 'Publish the packages'];
  for (const [turnIndex, content] of steps.entries()) {
    const body = {
      sessionId,
      content,
      role: 'assistant',
      kind: 'summary',
      tokenCount: 6,
      turnIndex,
      isMeaningful: true,
      scope,
    };
    expectSuccess(await env.post('/sessions/checkpoint', body));
  }
  expectSuccess(await env.post('/sessions/end', { sessionId, status, scope }));
  return sessionId;
}

/** The session lifecycle: start, checkpoint, end (closed, compacted), snapshot, and every session error code. */
export const sessionsGroup: CheckGroup = {
  id: 'sessions',
  title: 'Sessions',
  summary:
    'sessions/start (201), checkpoint, end closed and compacted, the latest snapshot, SESSION_NOT_ACTIVE after end, and the codes SESSION_ID_REQUIRED, SESSION_CONTENT_REQUIRED, INVALID_SESSION_STATUS, SESSION_NOT_FOUND, SESSION_SNAPSHOT_NOT_FOUND.',
  async run(t, env) {
    const scope = env.scope({ userId: env.namespace.userId });
    const sessionId = await t.check(
      'start',
      'sessions/start answers 201 with sessionId, message, session (status active and the named fields)',
      `${START}; Resources › Session; ${STATES}`,
      async () => {
        const response = await env.post('/sessions/start', {
          title: 'Conformance session',
          client: 'conformance',
          metadata: { run: env.namespace.runId },
          scope,
        });
        skipWhenSessionsDisabled(response);
        const data = expectShape(SessionStartShape, expectSuccess(response, 201), 'start data');
        assert(
          data.session.id === data.sessionId,
          `session.id ${data.session.id} differs from sessionId ${data.sessionId}`,
        );
        assert(data.session.status === 'active', `a new session has status ${data.session.status}`);
        assert(
          data.session.title === 'Conformance session' && data.session.client === 'conformance',
          'session.title or session.client is not what was sent',
        );
        return data.sessionId;
      },
    );

    await t.check(
      'checkpoint',
      'sessions/checkpoint appends an event: sessionId, eventId, message, event (the named fields)',
      `${CHECKPOINT}; Resources › Session event (checkpoint)`,
      async () => {
        const id = need(sessionId, 'sessions/start');
        const body = {
          sessionId: id,
          content: 'Summary: the deploy checklist was agreed',
          role: 'assistant',
          kind: 'summary',
          tokenCount: 9,
          turnIndex: 1,
          isMeaningful: true,
          scope,
        };
        const data = expectShape(
          CheckpointShape,
          expectSuccess(await env.post('/sessions/checkpoint', body)),
          'checkpoint data',
        );
        assert(data.sessionId === id && data.event.sessionId === id, 'the event belongs to another session');
        assert(data.event.id === data.eventId, `event.id ${data.event.id} differs from eventId ${data.eventId}`);
        const { event } = data;
        assert(event.content === body.content, 'event.content is not the content sent');
        const sent = {
          role: body.role,
          kind: body.kind,
          tokenCount: body.tokenCount,
          turnIndex: body.turnIndex,
          isMeaningful: body.isMeaningful,
        };
        const echoed = {
          role: event.role,
          kind: event.kind,
          tokenCount: event.tokenCount,
          turnIndex: event.turnIndex,
          isMeaningful: event.isMeaningful,
        };
        assert(
          JSON.stringify(echoed) === JSON.stringify(sent),
          `the event holds ${JSON.stringify(echoed)}, sent ${JSON.stringify(sent)}`,
        );
      },
    );

    await t.check(
      'checkpoint-session-id-required',
      'checkpoint without sessionId answers 400 SESSION_ID_REQUIRED',
      `${CHECKPOINT}; Errors`,
      async () => {
        need(sessionId, 'sessions/start');
        expectError(await env.post('/sessions/checkpoint', { content: 'orphan', scope }), {
          status: 400,
          code: 'SESSION_ID_REQUIRED',
        });
      },
    );

    await t.check(
      'checkpoint-content-required',
      'checkpoint without content answers 400 SESSION_CONTENT_REQUIRED',
      `${CHECKPOINT}; Errors`,
      async () => {
        const id = need(sessionId, 'sessions/start');
        expectError(await env.post('/sessions/checkpoint', { sessionId: id, scope }), {
          status: 400,
          code: 'SESSION_CONTENT_REQUIRED',
        });
      },
    );

    await t.check(
      'checkpoint-not-found',
      'checkpoint of an unknown session answers 404 SESSION_NOT_FOUND',
      `${CHECKPOINT}; Errors`,
      async () => {
        need(sessionId, 'sessions/start');
        expectError(await env.post('/sessions/checkpoint', { sessionId: crypto.randomUUID(), content: 'x', scope }), {
          status: 404,
          code: 'SESSION_NOT_FOUND',
        });
      },
    );

    await t.check(
      'end-invalid-status',
      'end with a status other than closed or compacted answers 400 INVALID_SESSION_STATUS',
      `${END}; Errors`,
      async () => {
        const id = need(sessionId, 'sessions/start');
        expectError(await env.post('/sessions/end', { sessionId: id, status: 'finished', scope }), {
          status: 400,
          code: 'INVALID_SESSION_STATUS',
        });
      },
    );

    await t.check(
      'end-session-id-required',
      'end without sessionId answers 400 SESSION_ID_REQUIRED',
      `${END}; Errors`,
      async () => {
        need(sessionId, 'sessions/start');
        expectError(await env.post('/sessions/end', { status: 'closed', scope }), {
          status: 400,
          code: 'SESSION_ID_REQUIRED',
        });
      },
    );

    await t.check(
      'end-not-found',
      'end of an unknown session answers 404 SESSION_NOT_FOUND',
      `${END}; Errors`,
      async () => {
        need(sessionId, 'sessions/start');
        expectError(await env.post('/sessions/end', { sessionId: crypto.randomUUID(), status: 'closed', scope }), {
          status: 404,
          code: 'SESSION_NOT_FOUND',
        });
      },
    );

    const ended = await t.check(
      'end-closed',
      'end with status closed answers sessionId, message, session with status closed and endedAt set',
      `${END}; ${STATES}`,
      async () => {
        const id = need(sessionId, 'sessions/start');
        const data = expectSuccess(await env.post('/sessions/end', { sessionId: id, status: 'closed', scope }));
        const session = expectShape(SessionShape, data.session, 'session');
        assert(data.sessionId === id && typeof data.message === 'string', 'sessionId or message is missing');
        assert(session.status === 'closed', `status is ${session.status}`);
        assert(
          typeof session.endedAt === 'string' && !Number.isNaN(Date.parse(session.endedAt)),
          `endedAt is ${JSON.stringify(session.endedAt)}`,
        );
        return id;
      },
    );

    await t.check(
      'not-active',
      'checkpoint and end of a closed session answer 409 SESSION_NOT_ACTIVE',
      `${STATES}; Errors`,
      async () => {
        const id = need(ended, 'sessions/end');
        expectError(await env.post('/sessions/checkpoint', { sessionId: id, content: 'late', scope }), {
          status: 409,
          code: 'SESSION_NOT_ACTIVE',
        });
        expectError(await env.post('/sessions/end', { sessionId: id, status: 'compacted', scope }), {
          status: 409,
          code: 'SESSION_NOT_ACTIVE',
        });
      },
    );

    await t.check(
      'end-compacted',
      'end with status compacted moves an active session to compacted (then not active: 409 on checkpoint)',
      `${END}; ${STATES}`,
      async () => {
        const response = await env.post('/sessions/start', { title: 'Conformance compaction', scope });
        skipWhenSessionsDisabled(response);
        const id = expectShape(SessionStartShape, expectSuccess(response, 201), 'start data').sessionId;
        expectSuccess(await env.post('/sessions/checkpoint', { sessionId: id, content: 'A turn to compact', scope }));
        const data = expectSuccess(await env.post('/sessions/end', { sessionId: id, status: 'compacted', scope }));
        assert(
          expectShape(SessionShape, data.session, 'session').status === 'compacted',
          'the session is not compacted',
        );
        expectError(await env.post('/sessions/checkpoint', { sessionId: id, content: 'late', scope }), {
          status: 409,
          code: 'SESSION_NOT_ACTIVE',
        });
      },
    );

    await t.check(
      'snapshot',
      'GET sessions/{id}/snapshot answers sessionId, message, snapshot (id, sessionId, slug, sourceTrigger, transcriptMd with the checkpoints, messageCount, createdAt)',
      `${SNAPSHOT}; Resources › Session snapshot`,
      async () => {
        const id = need(ended, 'sessions/end');
        const response = await env.get(
          `/sessions/${encodeURIComponent(id)}/snapshot`,
          env.query({ userId: env.namespace.userId }),
        );
        const data = expectShape(SnapshotDataShape, expectSuccess(response), 'snapshot data');
        assert(data.sessionId === id && data.snapshot.sessionId === id, 'the snapshot belongs to another session');
        assert(
          data.snapshot.transcriptMd.includes('the deploy checklist was agreed'),
          'transcriptMd does not hold the checkpointed content',
        );
      },
    );

    await t.check(
      'snapshot-not-found',
      'GET snapshot of an unknown session answers 404 SESSION_NOT_FOUND',
      `${SNAPSHOT}; Errors`,
      async () => {
        need(sessionId, 'sessions/start');
        const response = await env.get(
          `/sessions/${crypto.randomUUID()}/snapshot`,
          env.query({ userId: env.namespace.userId }),
        );
        expectError(response, { status: 404, code: 'SESSION_NOT_FOUND' });
      },
    );

    await t.check(
      'snapshot-missing',
      'GET snapshot of an active session without a snapshot answers 404 SESSION_SNAPSHOT_NOT_FOUND',
      `${SNAPSHOT}; Errors`,
      async () => {
        const response = await env.post('/sessions/start', { title: 'Conformance: no snapshot yet', scope });
        skipWhenSessionsDisabled(response);
        const id = expectShape(SessionStartShape, expectSuccess(response, 201), 'start data').sessionId;
        const snapshot = await env.get(
          `/sessions/${encodeURIComponent(id)}/snapshot`,
          env.query({ userId: env.namespace.userId }),
        );
        expectError(snapshot, { status: 404, code: 'SESSION_SNAPSHOT_NOT_FOUND' });
        expectSuccess(await env.post('/sessions/end', { sessionId: id, status: 'closed', scope }));
      },
    );
  },
};
