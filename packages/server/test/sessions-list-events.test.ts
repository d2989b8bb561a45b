import { DEFAULTS, LIMITS } from '@memory-service/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestResponse, type TestServer } from './harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});

/** Lets the clock move on, so the next write's activity timestamp is strictly later. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

async function start(scope: Record<string, string>, title: string): Promise<string> {
  const data = await server.post<{ sessionId: string }>('/sessions/start', { title, scope });
  await tick();
  return data.sessionId;
}

async function checkpoint(sessionId: string, scope: Record<string, string>, content: string, role = 'user') {
  await server.post('/sessions/checkpoint', { sessionId, content, role, tokenCount: 7, scope });
  await tick();
}

function query(values: Record<string, string | number>): string {
  return new URLSearchParams(Object.entries(values).map(([key, value]) => [key, String(value)])).toString();
}

function expectError(response: TestResponse, status: number, code: string): void {
  expect(response.status).toBe(status);
  expect(response.body.ok).toBe(false);
  expect(response.body.error?.code).toBe(code);
}

describe('GET /sessions (an extension)', () => {
  it('lists visible sessions newest activity first, with totals, filtered by status and bounded', async () => {
    const alice = { userId: 'list-alice', projectId: 'list-repo' };
    const bob = { userId: 'list-bob', projectId: 'list-repo' };
    const first = await start(alice, 'first');
    const second = await start(alice, 'second');
    const bobs = await start(bob, 'bob');
    const shared = await start({ projectId: 'list-repo' }, 'shared');
    await checkpoint(first, alice, 'hello');
    await checkpoint(first, alice, 'a reply', 'assistant');
    await server.post('/sessions/end', { sessionId: second, scope: alice });
    await tick();

    const response = await server.call('GET', `/sessions?${query(alice)}`);
    expect(response.status).toBe(200);
    const listed = response.body.data as { sessions: Array<Record<string, any>>; count: number };
    // Alice sees her own sessions and the shared one, never Bob's; the one just ended is the newest activity.
    expect(listed.sessions.map((session) => session.id)).toEqual([second, first, shared]);
    expect(listed.count).toBe(3);
    expect(listed.sessions.some((session) => session.id === bobs)).toBe(false);
    expect(listed.sessions[1]).toMatchObject({
      id: first,
      status: 'active',
      title: 'first',
      userId: 'list-alice',
      scope: { tenantId: null, userId: 'list-alice', projectId: 'list-repo' },
      totals: { turnCount: 1, tokenCount: 14, eventCount: 2 },
    });
    expect(listed.sessions[2]?.totals).toEqual({ turnCount: 0, tokenCount: 0, eventCount: 0 });

    const closed = await server.call('GET', `/sessions?${query({ ...alice, status: 'closed' })}`);
    expect(closed.body.data?.sessions.map((session: { id: string }) => session.id)).toEqual([second]);
    const active = await server.call('GET', `/sessions?${query({ ...alice, status: 'active' })}`);
    expect(active.body.data?.sessions.map((session: { id: string }) => session.id)).toEqual([first, shared]);
    const limited = await server.call('GET', `/sessions?${query({ ...alice, limit: 1 })}`);
    expect(limited.body.data).toMatchObject({ count: 1, sessions: [{ id: second }] });

    // Without a userId only shared sessions are visible.
    const anonymous = await server.call('GET', `/sessions?${query({ projectId: 'list-repo' })}`);
    expect(anonymous.body.data?.sessions.map((session: { id: string }) => session.id)).toEqual([shared]);
  });

  it('refuses a limit out of bounds, an unknown status and unknown fields', async () => {
    expect(DEFAULTS.sessionListLimit).toBeLessThanOrEqual(LIMITS.sessionListLimit.max);
    expect((await server.call('GET', `/sessions?limit=${LIMITS.sessionListLimit.max}`)).status).toBe(200);
    for (const limit of [0, LIMITS.sessionListLimit.max + 1, 'many']) {
      expectError(await server.call('GET', `/sessions?limit=${limit}`), 400, 'INVALID_REQUEST');
    }
    expectError(await server.call('GET', '/sessions?status=open'), 400, 'INVALID_REQUEST');
    expectError(await server.call('GET', '/sessions?owner=x'), 400, 'INVALID_REQUEST');
  });

  it('answers an unknown tenant with no sessions and does not create it', async () => {
    const response = await server.call('GET', '/sessions?tenantId=never-written');
    expect(response.body.data).toEqual({ sessions: [], count: 0 });
    const tenants = await server.call('GET', '/management/tenant-overrides');
    expect(JSON.stringify(tenants.body.data)).not.toContain('never-written');
  });
});

describe('GET /sessions/{sessionId}/events (an extension)', () => {
  it("returns a visible session's events in order, bounded by limit", async () => {
    const scope = { userId: 'events-alice' };
    const sessionId = await start(scope, 'events');
    await checkpoint(sessionId, scope, 'one');
    await checkpoint(sessionId, scope, 'two', 'assistant');
    await checkpoint(sessionId, scope, 'three');

    const response = await server.call('GET', `/sessions/${sessionId}/events?${query(scope)}`);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ sessionId, count: 3 });
    const events = response.body.data?.events as Array<Record<string, unknown>>;
    expect(events.map((event) => event.content)).toEqual(['one', 'two', 'three']);
    expect(events[1]).toMatchObject({ sessionId, role: 'assistant', kind: 'message', tokenCount: 7, turnIndex: 1 });

    const limited = await server.call('GET', `/sessions/${sessionId}/events?${query({ ...scope, limit: 2 })}`);
    const limitedEvents = (limited.body.data?.events ?? []) as Array<{ content: string }>;
    expect(limitedEvents.map((event) => event.content)).toEqual(['one', 'two']);
    expectError(
      await server.call('GET', `/sessions/${sessionId}/events?limit=${LIMITS.sessionEventsLimit.max + 1}`),
      400,
      'INVALID_REQUEST',
    );

    // Still readable once the session is closed.
    await server.post('/sessions/end', { sessionId, scope });
    const closed = await server.call('GET', `/sessions/${sessionId}/events?${query(scope)}`);
    expect(closed.body.data?.count).toBe(3);
  });

  it('answers 404 SESSION_NOT_FOUND for an unknown session or one another user owns', async () => {
    const sessionId = await start({ userId: 'events-owner' }, 'private');
    expectError(
      await server.call('GET', `/sessions/${sessionId}/events?userId=events-intruder`),
      404,
      'SESSION_NOT_FOUND',
    );
    expectError(await server.call('GET', `/sessions/${sessionId}/events`), 404, 'SESSION_NOT_FOUND');
    expectError(await server.call('GET', '/sessions/no-such-session/events'), 404, 'SESSION_NOT_FOUND');
  });
});
