import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../src/config.js';
import { Database } from '../src/store/database.js';
import { migrate } from '../src/store/migrate.js';
import { tenantMigrations } from '../src/store/migrations/tenant.js';
import type { SessionEventRow } from '../src/store/session-rows.js';
import { SessionStore } from '../src/store/sessions.js';
import { createTestServer, type TestResponse, type TestServer } from './harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});

async function start(body: Record<string, unknown> = {}): Promise<string> {
  const response = await server.call('POST', '/sessions/start', body);
  expect(response.status).toBe(201);
  return response.body.data?.sessionId as string;
}

/** Reads rows of the workspace database directly (state the HTTP API does not expose). */
async function readWorkspace<T>(sql: string, args: (string | number)[]): Promise<T[]> {
  const database = await Database.open({ url: server.services.config.defaultDbUrl });
  try {
    return (await database.all<T>(sql, args)).map((row) => ({ ...row }));
  } finally {
    database.close();
  }
}

function expectError(response: TestResponse, status: number, code: string): void {
  expect(response.status).toBe(status);
  expect(response.body.ok).toBe(false);
  expect(response.body.data).toBeNull();
  expect(response.body.error?.code).toBe(code);
  expect(response.body.error?.status).toBe(status);
}

describe('session state table', () => {
  it('(none) -> active: start answers 201 with the session record', async () => {
    const scope = { userId: 'user-1', projectId: 'repo-1' };
    const response = await server.call('POST', '/sessions/start', {
      title: 'Fix the build',
      client: 'cli',
      metadata: { branch: 'main' },
      scope,
    });
    expect(response.status).toBe(201);
    const data = response.body.data!;
    expect(data.sessionId).toMatch(UUID);
    expect(data.message).toEqual(expect.any(String));
    expect(data.session).toEqual({
      id: data.sessionId,
      scope: { tenantId: null, userId: 'user-1', projectId: 'repo-1' },
      userId: 'user-1',
      projectId: 'repo-1',
      client: 'cli',
      status: 'active',
      title: 'Fix the build',
      startedAt: expect.any(String),
      lastActivityAt: data.session.startedAt,
      endedAt: null,
      metadata: { branch: 'main' },
    });
  });

  it('starts with an empty body: title, client and scope are null, metadata empty', async () => {
    const response = await server.call('POST', '/sessions/start', {});
    expect(response.status).toBe(201);
    expect(response.body.data?.session).toMatchObject({
      title: null,
      client: null,
      userId: null,
      projectId: null,
      metadata: {},
    });
  });

  it('active -> active: checkpoint appends an event with defaults and bumps lastActivityAt', async () => {
    const startedAt = new Date('2030-01-01T00:00:00.000Z');
    server.services.now = () => startedAt;
    const sessionId = await start();
    server.services.now = () => new Date('2030-01-01T00:05:00.000Z');
    const response = await server.call('POST', '/sessions/checkpoint', { sessionId, content: 'hello world' });
    server.services.now = () => new Date();
    expect(response.status).toBe(200);
    const data = response.body.data!;
    expect(data.eventId).toMatch(UUID);
    expect(data.event).toEqual({
      id: data.eventId,
      sessionId,
      role: 'user',
      kind: 'message',
      content: 'hello world',
      tokenCount: 3,
      turnIndex: 1,
      isMeaningful: true,
      createdAt: '2030-01-01T00:05:00.000Z',
    });
    const [row] = await readWorkspace<{ started_at: string; last_activity_at: string }>(
      'SELECT started_at, last_activity_at FROM sessions WHERE id = ?',
      [sessionId],
    );
    expect(row).toEqual({ started_at: startedAt.toISOString(), last_activity_at: '2030-01-01T00:05:00.000Z' });
  });

  it('takes role, kind, tokenCount, turnIndex and isMeaningful from the input', async () => {
    const sessionId = await start();
    const data = await server.post<{ event: Record<string, unknown> }>('/sessions/checkpoint', {
      sessionId,
      content: 'Chose libSQL',
      role: 'assistant',
      kind: 'decision',
      tokenCount: 42,
      turnIndex: 7,
      isMeaningful: false,
    });
    expect(data.event).toMatchObject({
      role: 'assistant',
      kind: 'decision',
      tokenCount: 42,
      turnIndex: 7,
      isMeaningful: false,
    });
  });

  it('derives turnIndex from the user events so far, counting the current one', async () => {
    const sessionId = await start();
    const turns: number[] = [];
    for (const role of ['system', 'user', 'assistant', 'tool', 'user', 'assistant']) {
      const data = await server.post<{ event: { turnIndex: number } }>('/sessions/checkpoint', {
        sessionId,
        content: role,
        role,
      });
      turns.push(data.event.turnIndex);
    }
    expect(turns).toEqual([0, 1, 1, 1, 2, 2]);
  });

  it('estimates tokenCount as ceil(chars / 4)', async () => {
    const sessionId = await start();
    const data = await server.post<{ event: { tokenCount: number } }>('/sessions/checkpoint', {
      sessionId,
      content: 'x'.repeat(9),
    });
    expect(data.event.tokenCount).toBe(3);
  });

  it('answers each checkpoint with the session totals: turns, tokens, events, the activity before, the summary', async () => {
    const sessionId = await start();
    type Totals = { turnCount: number; tokenCount: number; eventCount: number; previousActivityAt: string };
    const write = (event: Record<string, unknown>) =>
      server.post<{ event: { createdAt: string }; totals: Totals & { summary: string | null } }>(
        '/sessions/checkpoint',
        { sessionId, ...event },
      );
    const first = await write({ content: 'first question', role: 'user', tokenCount: 10 });
    expect(first.totals).toMatchObject({ turnCount: 1, tokenCount: 10, eventCount: 1, summary: null });
    await write({ content: 'an answer', role: 'assistant', tokenCount: 5 });
    await write({ content: 'Summary: we planned the release.', role: 'system', kind: 'summary', tokenCount: 7 });
    const last = await write({ content: 'second question', role: 'user', tokenCount: 3 });
    expect(last.totals).toMatchObject({
      turnCount: 2,
      tokenCount: 25,
      eventCount: 4,
      summary: 'Summary: we planned the release.',
    });
    // The activity before this checkpoint: the previous event's time, not this one's.
    expect(Date.parse(last.totals.previousActivityAt)).toBeLessThanOrEqual(Date.parse(last.event.createdAt));
    expect(first.totals.previousActivityAt).toEqual(expect.any(String));
  });

  it('active -> closed: end sets status, endedAt and writes an `end` snapshot (status defaults to closed)', async () => {
    const sessionId = await start({ title: 'Closing' });
    await server.post('/sessions/checkpoint', { sessionId, content: 'one' });
    const response = await server.call('POST', '/sessions/end', { sessionId });
    expect(response.status).toBe(200);
    const data = response.body.data!;
    expect(data.session.status).toBe('closed');
    expect(data.session.endedAt).toEqual(expect.any(String));
    expect(data.session.lastActivityAt).toBe(data.session.endedAt);
    expect(data.snapshot).toMatchObject({ sessionId, sourceTrigger: 'end', messageCount: 1, summary: null });
    expect(data.snapshot.id).toMatch(UUID);
    expect(data.snapshot.slug).toBe(`closing-${sessionId.slice(0, 8)}`);
  });

  it('active -> compacted: end with status compacted writes a `compacted` snapshot', async () => {
    const sessionId = await start();
    const data = await server.post<{ session: Record<string, unknown>; snapshot: Record<string, unknown> }>(
      '/sessions/end',
      {
        sessionId,
        status: 'compacted',
      },
    );
    expect(data.session.status).toBe('compacted');
    expect(data.session.endedAt).toEqual(expect.any(String));
    expect(data.snapshot).toMatchObject({
      sourceTrigger: 'compacted',
      messageCount: 0,
      slug: `session-${sessionId.slice(0, 8)}`,
    });
  });

  for (const status of ['closed', 'compacted'] as const) {
    it(`${status}: checkpoint and end answer 409 SESSION_NOT_ACTIVE and change nothing`, async () => {
      const sessionId = await start();
      await server.post('/sessions/end', { sessionId, status });
      expectError(
        await server.call('POST', '/sessions/checkpoint', { sessionId, content: 'late' }),
        409,
        'SESSION_NOT_ACTIVE',
      );
      for (const next of ['closed', 'compacted']) {
        expectError(await server.call('POST', '/sessions/end', { sessionId, status: next }), 409, 'SESSION_NOT_ACTIVE');
      }
      const snapshot = await server.call('GET', `/sessions/${sessionId}/snapshot`);
      expect(snapshot.body.data?.snapshot.messageCount).toBe(0);
      expect(snapshot.body.data?.snapshot.sourceTrigger).toBe(status === 'closed' ? 'end' : 'compacted');
    });
  }

  it('unknown session id: 404 SESSION_NOT_FOUND on checkpoint, end and snapshot', async () => {
    const sessionId = '00000000-0000-4000-8000-000000000000';
    expectError(
      await server.call('POST', '/sessions/checkpoint', { sessionId, content: 'x' }),
      404,
      'SESSION_NOT_FOUND',
    );
    expectError(await server.call('POST', '/sessions/end', { sessionId }), 404, 'SESSION_NOT_FOUND');
    expectError(await server.call('GET', `/sessions/${sessionId}/snapshot`), 404, 'SESSION_NOT_FOUND');
  });
});

describe('snapshot', () => {
  it('404 SESSION_SNAPSHOT_NOT_FOUND while the session is active', async () => {
    const sessionId = await start();
    expectError(await server.call('GET', `/sessions/${sessionId}/snapshot`), 404, 'SESSION_SNAPSHOT_NOT_FOUND');
  });

  it('renders the transcript: heading, metadata, latest summary, every event in order', async () => {
    const scope = { userId: 'writer', projectId: 'repo-x' };
    const sessionId = await start({ title: 'Ship release 2', client: 'ide', scope });
    const events = [
      { content: 'Please ship release 2', role: 'user' },
      { content: 'Old summary', role: 'assistant', kind: 'summary' },
      { content: 'Running the release script', role: 'assistant', kind: 'tool_call' },
      { content: 'Release 2 shipped; tags pushed', role: 'assistant', kind: 'summary' },
    ];
    for (const event of events) await server.post('/sessions/checkpoint', { sessionId, scope, ...event });
    const ended = await server.post<{ snapshot: { id: string } }>('/sessions/end', { sessionId, scope });
    const response = await server.call('GET', `/sessions/${sessionId}/snapshot?userId=writer&projectId=repo-x`);
    expect(response.status).toBe(200);
    const snapshot = response.body.data?.snapshot;
    expect(response.body.data?.sessionId).toBe(sessionId);
    expect(snapshot.id).toBe(ended.snapshot.id);
    expect(snapshot.messageCount).toBe(4);
    expect(snapshot.summary).toBe('Release 2 shipped; tags pushed');
    const markdown: string = snapshot.transcriptMd;
    expect(markdown.startsWith('# Ship release 2\n')).toBe(true);
    for (const line of [
      `- Session: ${sessionId}`,
      '- Status: closed',
      '- Client: ide',
      '- User: writer',
      '- Project: repo-x',
    ]) {
      expect(markdown).toContain(line);
    }
    expect(markdown).toMatch(/- Started: \S+/);
    expect(markdown).toMatch(/- Ended: \S+/);
    expect(markdown).toContain('## Summary\n\nRelease 2 shipped; tags pushed\n\n## Transcript');
    const headings = [...markdown.matchAll(/^### (\d+)\. (\w+) · (\w+)$/gm)].map((match) => match.slice(1).join(' '));
    expect(headings).toEqual(['1 user message', '2 assistant summary', '3 assistant tool_call', '4 assistant summary']);
    expect(markdown.indexOf('Please ship release 2')).toBeLessThan(markdown.indexOf('Running the release script'));
  });

  it('has no Summary section when there is no summary event, and omits unset user and project', async () => {
    const sessionId = await start();
    await server.post('/sessions/checkpoint', { sessionId, content: 'only a message' });
    const data = await server.post<{ snapshot: { transcriptMd: string } }>('/sessions/end', { sessionId });
    expect(data.snapshot.transcriptMd).not.toContain('## Summary');
    expect(data.snapshot.transcriptMd).not.toContain('- User:');
    expect(data.snapshot.transcriptMd).toContain('## Transcript\n\n### 1. user · message\n\nonly a message');
  });
});

describe('lifecycle events', () => {
  it('records session.started, session.checkpoint and session.ended', async () => {
    const sessionId = await start();
    await server.post('/sessions/checkpoint', {
      sessionId,
      content: 'x',
      role: 'assistant',
      kind: 'note',
      isMeaningful: false,
    });
    await server.post('/sessions/end', { sessionId, status: 'compacted' });
    const rows = await readWorkspace<{ kind: string; detail: string }>(
      'SELECT kind, detail FROM lifecycle_events WHERE subject_id = ? ORDER BY id',
      [sessionId],
    );
    expect(rows.map((row) => [row.kind, JSON.parse(row.detail)])).toEqual([
      ['session.started', { client: null }],
      ['session.checkpoint', { kind: 'note', role: 'assistant', isMeaningful: false }],
      ['session.ended', { status: 'compacted' }],
    ]);
  });
});

describe('errors', () => {
  it('SESSION_ID_REQUIRED when sessionId is missing or blank (checkpoint, end)', async () => {
    for (const sessionId of [undefined, '']) {
      const checkpoint = await server.call('POST', '/sessions/checkpoint', { sessionId, content: 'x' });
      expectError(checkpoint, 400, 'SESSION_ID_REQUIRED');
      expect(checkpoint.body.error?.details?.field).toBe('sessionId');
      expectError(await server.call('POST', '/sessions/end', { sessionId }), 400, 'SESSION_ID_REQUIRED');
    }
  });

  it('SESSION_CONTENT_REQUIRED when checkpoint content is missing or empty', async () => {
    const sessionId = await start();
    for (const content of [undefined, '']) {
      const response = await server.call('POST', '/sessions/checkpoint', { sessionId, content });
      expectError(response, 400, 'SESSION_CONTENT_REQUIRED');
      expect(response.body.error?.details?.field).toBe('content');
    }
  });

  it('INVALID_SESSION_STATUS when end status is not closed or compacted', async () => {
    const sessionId = await start();
    for (const status of ['active', 'done', 3]) {
      const response = await server.call('POST', '/sessions/end', { sessionId, status });
      expectError(response, 400, 'INVALID_SESSION_STATUS');
      expect(response.body.error?.details?.field).toBe('status');
    }
  });

  it('INVALID_REQUEST for an unknown role or kind', async () => {
    const sessionId = await start();
    expectError(
      await server.call('POST', '/sessions/checkpoint', { sessionId, content: 'x', role: 'robot' }),
      400,
      'INVALID_REQUEST',
    );
    expectError(
      await server.call('POST', '/sessions/checkpoint', { sessionId, content: 'x', kind: 'poem' }),
      400,
      'INVALID_REQUEST',
    );
  });

  it('MEMORY_SESSION_DISABLED (403) on all four session routes when the flag is off', async () => {
    const disabled = await createTestServer({ flags: { MEMORY_SESSION_ENABLED: false } as ServerConfig['flags'] });
    try {
      const sessionId = '00000000-0000-4000-8000-000000000000';
      expectError(await disabled.call('POST', '/sessions/start', {}), 403, 'MEMORY_SESSION_DISABLED');
      expectError(
        await disabled.call('POST', '/sessions/checkpoint', { sessionId, content: 'x' }),
        403,
        'MEMORY_SESSION_DISABLED',
      );
      expectError(await disabled.call('POST', '/sessions/end', { sessionId }), 403, 'MEMORY_SESSION_DISABLED');
      expectError(await disabled.call('GET', `/sessions/${sessionId}/snapshot`), 403, 'MEMORY_SESSION_DISABLED');
      expect((await disabled.call('POST', '/sessions/end', { sessionId })).body.error?.type).toBe('auth_error');
    } finally {
      await disabled.close();
    }
  });

  it('MEMORY_COMPACTION_DISABLED (403) on end with status compacted when compaction is off; closed still works', async () => {
    const noCompaction = await createTestServer({
      flags: { MEMORY_COMPACTION_ENABLED: false } as ServerConfig['flags'],
    });
    try {
      const { sessionId } = await noCompaction.post<{ sessionId: string }>('/sessions/start', {});
      expectError(
        await noCompaction.call('POST', '/sessions/end', { sessionId, status: 'compacted' }),
        403,
        'MEMORY_COMPACTION_DISABLED',
      );
      const closed = await noCompaction.call('POST', '/sessions/end', { sessionId, status: 'closed' });
      expect(closed.status).toBe(200);
      expect(closed.body.data?.session.status).toBe('closed');
    } finally {
      await noCompaction.close();
    }
  });
});

describe('limits', () => {
  it('title 240 is accepted, 241 is INVALID_REQUEST on field title', async () => {
    expect((await server.call('POST', '/sessions/start', { title: 't'.repeat(240) })).status).toBe(201);
    const response = await server.call('POST', '/sessions/start', { title: 't'.repeat(241) });
    expectError(response, 400, 'INVALID_REQUEST');
    expect(response.body.error?.details?.field).toBe('title');
  });

  it('client 120 is accepted, 121 is INVALID_REQUEST on field client', async () => {
    expect((await server.call('POST', '/sessions/start', { client: 'c'.repeat(120) })).status).toBe(201);
    const response = await server.call('POST', '/sessions/start', { client: 'c'.repeat(121) });
    expectError(response, 400, 'INVALID_REQUEST');
    expect(response.body.error?.details?.field).toBe('client');
  });

  it('checkpoint content 16000 is accepted, 16001 is INVALID_REQUEST on field content', async () => {
    const sessionId = await start();
    const accepted = await server.call('POST', '/sessions/checkpoint', { sessionId, content: 'c'.repeat(16000) });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data?.event.tokenCount).toBe(4000);
    const response = await server.call('POST', '/sessions/checkpoint', { sessionId, content: 'c'.repeat(16001) });
    expectError(response, 400, 'INVALID_REQUEST');
    expect(response.body.error?.details?.field).toBe('content');
  });

  it('sessionId 120 passes validation (unknown: 404), 121 is INVALID_REQUEST on every session route', async () => {
    const valid = 's'.repeat(120);
    const tooLong = 's'.repeat(121);
    expectError(
      await server.call('POST', '/sessions/checkpoint', { sessionId: valid, content: 'x' }),
      404,
      'SESSION_NOT_FOUND',
    );
    expectError(await server.call('POST', '/sessions/end', { sessionId: valid }), 404, 'SESSION_NOT_FOUND');
    expectError(await server.call('GET', `/sessions/${valid}/snapshot`), 404, 'SESSION_NOT_FOUND');
    for (const response of [
      await server.call('POST', '/sessions/checkpoint', { sessionId: tooLong, content: 'x' }),
      await server.call('POST', '/sessions/end', { sessionId: tooLong }),
      await server.call('GET', `/sessions/${tooLong}/snapshot`),
    ]) {
      expectError(response, 400, 'INVALID_REQUEST');
      expect(response.body.error?.details?.field).toBe('sessionId');
    }
  });
});

describe('isolation', () => {
  it("a user's session is invisible to another user and to a request without a userId", async () => {
    const owner = { userId: 'alice' };
    const sessionId = await start({ scope: owner });
    await server.post('/sessions/checkpoint', { sessionId, content: 'mine', scope: owner });
    for (const scope of [{ userId: 'bob' }, undefined]) {
      expectError(
        await server.call('POST', '/sessions/checkpoint', { sessionId, content: 'x', scope }),
        404,
        'SESSION_NOT_FOUND',
      );
      expectError(await server.call('POST', '/sessions/end', { sessionId, scope }), 404, 'SESSION_NOT_FOUND');
    }
    expectError(await server.call('GET', `/sessions/${sessionId}/snapshot?userId=bob`), 404, 'SESSION_NOT_FOUND');
    expect((await server.call('POST', '/sessions/end', { sessionId, scope: owner })).status).toBe(200);
    expectError(await server.call('GET', `/sessions/${sessionId}/snapshot`), 404, 'SESSION_NOT_FOUND');
    expect((await server.call('GET', `/sessions/${sessionId}/snapshot?userId=alice`)).status).toBe(200);
  });

  it('a shared session (no userId) is visible to a user', async () => {
    const sessionId = await start();
    expect(
      (await server.call('POST', '/sessions/checkpoint', { sessionId, content: 'x', scope: { userId: 'carol' } }))
        .status,
    ).toBe(200);
  });

  it("a project's session is invisible to a request for another project", async () => {
    const sessionId = await start({ scope: { projectId: 'repo-a' } });
    const response = await server.call('POST', '/sessions/checkpoint', {
      sessionId,
      content: 'x',
      scope: { projectId: 'repo-b' },
    });
    expectError(response, 404, 'SESSION_NOT_FOUND');
  });

  it('a session in tenant-a does not exist in tenant-b or the workspace database', async () => {
    const sessionId = await start({ scope: { tenantId: 'tenant-a' } });
    const created = await server.call('POST', '/sessions/checkpoint', {
      sessionId,
      content: 'x',
      scope: { tenantId: 'tenant-a' },
    });
    expect(created.status).toBe(200);
    expectError(
      await server.call('POST', '/sessions/checkpoint', { sessionId, content: 'x', scope: { tenantId: 'tenant-b' } }),
      404,
      'SESSION_NOT_FOUND',
    );
    expectError(await server.call('POST', '/sessions/end', { sessionId }), 404, 'SESSION_NOT_FOUND');
    const ended = await server.call('POST', '/sessions/end', { sessionId, scope: { tenantId: 'tenant-a' } });
    expect(ended.body.data?.session.scope).toEqual({ tenantId: 'tenant-a', userId: null, projectId: null });
    expectError(
      await server.call('GET', `/sessions/${sessionId}/snapshot?tenantId=tenant-b`),
      404,
      'SESSION_NOT_FOUND',
    );
    expect((await server.call('GET', `/sessions/${sessionId}/snapshot?tenantId=tenant-a`)).status).toBe(200);
  });
});

describe('SessionStore.end under a concurrent checkpoint', () => {
  it('redoes the snapshot so it covers the checkpoint that landed while ending', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'session-store-test-'));
    const database = await Database.open({ url: `file:${path.join(directory, 'tenant.db')}` });
    try {
      await migrate(database, tenantMigrations);
      const scope = { tenantId: null, userId: null, projectId: null };
      const now = new Date('2030-01-01T00:00:00.000Z');
      /** Lands a checkpoint right after `end` first reads the events, as a concurrent request would. */
      class RacingStore extends SessionStore {
        raced = false;
        override async events(sessionId: string, lastSeq?: number): Promise<SessionEventRow[]> {
          const rows = await super.events(sessionId, lastSeq);
          if (!this.raced) {
            this.raced = true;
            const session = await this.findVisible(sessionId, scope);
            if (session !== undefined) {
              await this.appendEvent(
                session,
                { role: 'user', kind: 'message', content: 'late', isMeaningful: true },
                now,
              );
            }
          }
          return rows;
        }
      }
      const store = new RacingStore(database);
      const session = await store.start({ title: null, client: null, metadata: {} }, scope, now);
      await store.appendEvent(session, { role: 'user', kind: 'message', content: 'early', isMeaningful: true }, now);
      const renderedCounts: number[] = [];
      const written = await store.end(session, 'closed', now, (events) => {
        renderedCounts.push(events.length);
        return { slug: 'slug', transcriptMd: events.map((event) => event.content).join(','), summary: null };
      });
      expect(renderedCounts).toEqual([1, 2]);
      expect(written?.snapshot).toMatchObject({ message_count: 2, last_event_seq: 2, transcript_md: 'early,late' });
      expect(written?.session.status).toBe('closed');
    } finally {
      database.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
