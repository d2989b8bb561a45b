import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './harness.js';

const HOUR = 3_600_000;
const T0 = Date.parse('2030-03-10T12:00:00.000Z');

let server: TestServer;
let clock = T0;
beforeAll(async () => {
  server = await createTestServer();
  server.services.now = () => new Date(clock);
});
afterAll(async () => {
  await server.close();
});

/** Runs `step` with the clock at T0 + `offset`. */
async function at<T>(offset: number, step: () => Promise<T>): Promise<T> {
  clock = T0 + offset;
  try {
    return await step();
  } finally {
    clock = T0;
  }
}

async function add(tenantId: string, content: string, extra: Record<string, unknown> = {}): Promise<string> {
  const scope = { tenantId, ...((extra.scope as object) ?? {}) };
  return (await server.post<{ id: string }>('/memories/add', { content, ...extra, scope })).id;
}

async function session(tenantId: string, options: { metadata?: object; userId?: string } = {}) {
  const scope = { tenantId, ...(options.userId ? { userId: options.userId } : {}) };
  const started = await server.post<{ sessionId: string }>('/sessions/start', { metadata: options.metadata, scope });
  const sessionId = started.sessionId;
  return {
    checkpoint: (content: string) => server.post('/sessions/checkpoint', { sessionId, content, scope }),
    end: (status: 'closed' | 'compacted') => server.post('/sessions/end', { sessionId, status, scope }),
  };
}

/** Records a consolidation run the way the consolidation handler does: a `consolidation.run` lifecycle event. */
async function consolidationRun(tenantId: string, offset: number, detail: Record<string, unknown>): Promise<void> {
  const { database } = await server.services.resolver.resolve('default', tenantId, new Date(T0));
  await database.run(
    `INSERT INTO lifecycle_events (kind, subject_id, user_id, project_id, detail, created_at)
     VALUES ('consolidation.run', ?, NULL, NULL, ?, ?)`,
    [`run-${offset}`, JSON.stringify(detail), new Date(T0 + offset).toISOString()],
  );
}

async function report(query: string) {
  const response = await server.call('GET', `/management/memory/observability?${query}`);
  expect(response.status).toBe(200);
  return response.body.data as Record<string, any>;
}

const run = (inputCount: number, mergedCount: number, supersededCount: number, conflictedCount: number) => ({
  inputCount,
  mergedCount,
  supersededCount,
  conflictedCount,
});

describe('memory observability from seeded activity', () => {
  beforeAll(async () => {
    const tenant = 'observed';
    // Outside the default 168 h window.
    await at(-200 * HOUR, async () => {
      await add(tenant, 'old kept');
      const gone = await add(tenant, 'old forgotten');
      await server.post('/memories/forget', { id: gone, scope: { tenantId: tenant } });
      const old = await session(tenant);
      await old.checkpoint('old checkpoint');
      await old.end('closed');
    });
    await consolidationRun(tenant, -200 * HOUR, run(8, 0, 4, 4));
    // 30 h ago: inside 168 h, outside 24 h. The working memory expires 24 h later, at -6 h.
    await at(-30 * HOUR, () => add(tenant, 'working note', { layer: 'working' }));
    await consolidationRun(tenant, -30 * HOUR, run(10, 2, 3, 2));
    await at(-2 * HOUR, async () => {
      const first = await add(tenant, 'first');
      const second = await add(tenant, 'second');
      const third = await add(tenant, 'alice third', { scope: { userId: 'alice' } });
      await add(tenant, 'alice fourth', { scope: { userId: 'alice', projectId: 'repo-a' } });
      await server.post('/memories/edit', { id: first, content: 'first, edited', scope: { tenantId: tenant } });
      await server.post('/memories/edit', { id: first, content: 'first, edited twice', scope: { tenantId: tenant } });
      await server.post('/memories/edit', {
        id: third,
        content: 'alice third, edited',
        scope: { tenantId: tenant, userId: 'alice' },
      });
      await server.post('/memories/forget', { id: second, scope: { tenantId: tenant } });
      const counted = await session(tenant, { metadata: { trigger: 'count' } });
      const timed = await session(tenant, { metadata: { trigger: 'time' } });
      const alices = await session(tenant, { userId: 'alice' });
      await session(tenant);
      await counted.checkpoint('one');
      await counted.checkpoint('two');
      await timed.checkpoint('three');
      await counted.end('compacted');
      await timed.end('closed');
      await alices.end('compacted');
    });
    // context/get expires the working memory (past its TTL at -6 h).
    await at(-1 * HOUR, () => server.post('/context/get', { query: 'note', scope: { tenantId: tenant } }));
    await consolidationRun(tenant, -1 * HOUR, run(5, 0, 1, 1));
    await consolidationRun(tenant, -1 * HOUR, { ...run(5, 1, 1, 1), metadata: { dryRun: true } });
  });

  it('computes every figure of the default 168 h window', async () => {
    const data = await report('tenantId=observed');
    expect(data.scope).toEqual({ tenantId: 'observed', userId: null, projectId: null });
    expect(data.windowHours).toBe(168);
    expect(data.lifecycle).toEqual({ created: 5, updated: 3, deleted: 2, active: 4, total: 7 });
    expect(data.compaction).toEqual({
      sessionsStarted: 4,
      sessionsClosed: 1,
      sessionsCompacted: 2,
      triggerMix: { count: 1, time: 1, semantic: 0, closed: 0, compacted: 1 },
      checkpoints: 3,
      checkpointCoverage: 0.6667,
    });
    expect(data.consolidation).toEqual({
      runs: 2,
      dryRuns: 1,
      inputCount: 15,
      mergedCount: 2,
      supersededCount: 4,
      conflictedCount: 3,
      conflictRate: 0.2,
    });
    expect(data.contradictions).toEqual({
      windowTotal: 3,
      dailyTrend: [
        { date: '2030-03-03', count: 0 },
        { date: '2030-03-04', count: 0 },
        { date: '2030-03-05', count: 0 },
        { date: '2030-03-06', count: 0 },
        { date: '2030-03-07', count: 0 },
        { date: '2030-03-08', count: 0 },
        { date: '2030-03-09', count: 2 },
        { date: '2030-03-10', count: 1 },
      ],
    });
    // Coverage 0.6667 >= 0.5, conflict rate 0.2 is not above 0.2, 5 created is under the 10 the churn alarm needs.
    expect(data.alarms).toEqual([]);
    expect(data.health).toBe('healthy');
  });

  it('narrows to a 24 h window', async () => {
    const data = await report('tenantId=observed&windowHours=24');
    expect(data.lifecycle).toEqual({ created: 4, updated: 3, deleted: 2, active: 4, total: 7 });
    expect(data.compaction.sessionsStarted).toBe(4);
    expect(data.consolidation).toEqual({
      runs: 1,
      dryRuns: 1,
      inputCount: 5,
      mergedCount: 0,
      supersededCount: 1,
      conflictedCount: 1,
      conflictRate: 0.2,
    });
    expect(data.contradictions).toEqual({
      windowTotal: 1,
      dailyTrend: [
        { date: '2030-03-09', count: 0 },
        { date: '2030-03-10', count: 1 },
      ],
    });
  });

  it('filters exactly by userId and projectId', async () => {
    const alice = await report('tenantId=observed&userId=alice');
    expect(alice.lifecycle).toEqual({ created: 2, updated: 1, deleted: 0, active: 2, total: 2 });
    expect(alice.compaction).toEqual({
      sessionsStarted: 1,
      sessionsClosed: 0,
      sessionsCompacted: 1,
      triggerMix: { count: 0, time: 0, semantic: 0, closed: 0, compacted: 1 },
      checkpoints: 0,
      checkpointCoverage: 0,
    });
    expect(alice.consolidation.runs).toBe(0);
    expect(alice.contradictions.windowTotal).toBe(0);
    expect(alice.alarms).toEqual([]);
    const project = await report('tenantId=observed&projectId=repo-a');
    expect(project.lifecycle).toEqual({ created: 1, updated: 0, deleted: 0, active: 1, total: 1 });
    expect(project.compaction.sessionsStarted).toBe(0);
  });

  it('reports the workspace database when no tenantId is given', async () => {
    const data = await report('windowHours=1');
    expect(data.lifecycle).toEqual({ created: 0, updated: 0, deleted: 0, active: 0, total: 0 });
    expect(data.contradictions.dailyTrend).toEqual([{ date: '2030-03-10', count: 0 }]);
  });
});

describe('alarms and health', () => {
  it('raises each alarm at its threshold and turns critical', async () => {
    const tenant = 'alarming';
    await at(-1 * HOUR, async () => {
      for (let index = 0; index < 3; index += 1) await (await session(tenant)).end('closed');
      const ids: string[] = [];
      for (let index = 0; index < 10; index += 1) ids.push(await add(tenant, `memory number ${index}`));
      for (const id of ids.slice(0, 9)) await server.post('/memories/forget', { id, scope: { tenantId: tenant } });
    });
    await consolidationRun(tenant, -1 * HOUR, run(10, 0, 3, 3));
    const data = await report(`tenantId=${tenant}`);
    expect(
      data.alarms.map(({ code, severity, value, threshold }: Record<string, unknown>) => ({
        code,
        severity,
        value,
        threshold,
      })),
    ).toEqual([
      { code: 'CHECKPOINT_COVERAGE_LOW', severity: 'critical', value: 0, threshold: 0.2 },
      { code: 'CONSOLIDATION_CONFLICT_RATE_HIGH', severity: 'warning', value: 0.3, threshold: 0.2 },
      { code: 'MEMORY_DELETION_RATE_HIGH', severity: 'warning', value: 0.9, threshold: 0.8 },
    ]);
    expect(data.health).toBe('critical');
  });
});

describe('windowHours limits', () => {
  it.each([
    ['0', 400],
    ['337', 400],
    ['1.5', 400],
    ['336', 200],
    ['1', 200],
  ])('windowHours=%s answers %i', async (value, status) => {
    const response = await server.call('GET', `/management/memory/observability?windowHours=${value}`);
    expect(response.status).toBe(status);
    if (status === 400)
      expect(response.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'windowHours' } });
  });
});
