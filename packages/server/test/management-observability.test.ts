import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './harness.js';

const HOUR = 3_600_000;
const T0 = Date.parse('2030-03-10T12:00:00.000Z');
/** The UTC dates a 168 h window ending at T0 touches. */
const WEEK_DAYS = ['03', '04', '05', '06', '07', '08', '09', '10'].map((day) => `2030-03-${day}`);
const zeroDays = (days: readonly string[]) => days.map((date) => ({ date, count: 0 }));

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

async function consolidate(tenantId: string, dryRun = false) {
  return server.post('/memories/consolidate', { dryRun, scope: { tenantId } });
}

async function report(query: string) {
  const response = await server.call('GET', `/management/memory/observability?${query}`);
  expect(response.status).toBe(200);
  return response.body.data as Record<string, any>;
}

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
    // 30 h ago: inside 168 h, outside 24 h. The working memory expires 24 h later, at -6 h.
    await at(-30 * HOUR, () => add(tenant, 'working note', { layer: 'working' }));
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
      runs: 0,
      dryRuns: 0,
      inputCount: 0,
      mergedCount: 0,
      supersededCount: 0,
      conflictedCount: 0,
      conflictRate: 0,
    });
    expect(data.contradictions).toEqual({ windowTotal: 0, dailyTrend: zeroDays(WEEK_DAYS) });
    // Coverage 0.6667 >= 0.5; 5 created is under the 10 the churn alarm needs; no consolidation input.
    expect(data.alarms).toEqual([]);
    expect(data.health).toBe('healthy');
  });

  it('keeps the window’s history in buckets, from the stored events, however recently the report was read', async () => {
    const day = await report('tenantId=observed&windowHours=24');
    // A day in 48 half-hour buckets, the last ending now.
    expect(day.history.bucketMinutes).toBe(30);
    expect(day.history.points).toHaveLength(48);
    expect(day.history.points[0].at).toBe(new Date(T0 - 24 * HOUR).toISOString());
    expect(day.history.points[47].at).toBe(new Date(T0 - 30 * 60_000).toISOString());
    const busy = day.history.points.flatMap((point: any, index: number) =>
      point.created + point.updated + point.deleted > 0 ? [[index, point.created, point.updated, point.deleted]] : [],
    );
    // 2 h ago: 4 added, 3 edits, 1 forgotten; 1 h ago: the working memory expired.
    expect(busy).toEqual([
      [44, 4, 3, 1],
      [46, 0, 0, 1],
    ]);
    const sum = (points: any[], key: string) => points.reduce((total, point) => total + point[key], 0);
    const week = await report('tenantId=observed');
    expect(week.history.bucketMinutes).toBe(360);
    expect(week.history.points).toHaveLength(28);
    for (const data of [day, week]) {
      for (const key of ['created', 'updated', 'deleted'])
        expect(sum(data.history.points, key)).toBe(data.lifecycle[key]);
    }
    // The working note, 30 h ago, is in the week's history only.
    expect(week.history.points[23]).toMatchObject({ created: 1, updated: 0, deleted: 0 });
  });

  it('narrows to a 24 h window', async () => {
    const data = await report('tenantId=observed&windowHours=24');
    expect(data.lifecycle).toEqual({ created: 4, updated: 3, deleted: 2, active: 4, total: 7 });
    expect(data.compaction.sessionsStarted).toBe(4);
    expect(data.contradictions).toEqual({ windowTotal: 0, dailyTrend: zeroDays(['2030-03-09', '2030-03-10']) });
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

describe('consolidation and contradictions from real runs', () => {
  const tenant = 'consolidated';
  beforeAll(async () => {
    // Outside the window: color red is superseded by color blue (input 2).
    await at(-200 * HOUR, async () => {
      await add(tenant, 'color: red');
      await add(tenant, 'color: blue');
      await consolidate(tenant);
    });
    // -30 h: candidates are color blue plus five new ones (input 6): deploy fridays is superseded by deploy
    // mondays (1 superseded, 1 conflicted subject), the older `db: postgres` merges into its duplicate (1 merged),
    // which an edit made (adds refuse duplicates).
    await at(-30 * HOUR, async () => {
      const ids: string[] = [];
      for (const content of [
        'deploy: on fridays',
        'deploy: on mondays',
        'db: postgres',
        'db: postgresql',
        'misc note one',
      ]) {
        ids.push(await add(tenant, content));
      }
      await server.post('/memories/edit', { id: ids[3], content: 'db: postgres', scope: { tenantId: tenant } });
      await consolidate(tenant);
    });
    // -1 h: deploy wednesdays joins (input 5: blue, mondays, postgres, misc, wednesdays); a dry run, then the real one.
    await at(-1 * HOUR, async () => {
      await add(tenant, 'deploy: on wednesdays');
      await consolidate(tenant, true);
      await consolidate(tenant);
    });
  });

  it('counts applied runs, dry runs, merged duplicates and superseded statements', async () => {
    const data = await report(`tenantId=${tenant}`);
    // Created: 6 in the window; updated: the edit that made the duplicate; deleted: the merged duplicate; live: blue,
    // postgres, misc, wednesdays of 8 stored.
    expect(data.lifecycle).toEqual({ created: 6, updated: 1, deleted: 1, active: 4, total: 8 });
    expect(data.consolidation).toEqual({
      runs: 2,
      dryRuns: 1,
      inputCount: 11,
      mergedCount: 1,
      supersededCount: 2,
      conflictedCount: 2,
      conflictRate: 0.1818,
    });
    const trend = zeroDays(WEEK_DAYS);
    trend[6] = { date: '2030-03-09', count: 1 };
    trend[7] = { date: '2030-03-10', count: 1 };
    expect(data.contradictions).toEqual({ windowTotal: 2, dailyTrend: trend });
    expect(data.alarms).toEqual([]);
  });

  it('keeps only the last run in a 24 h window', async () => {
    const data = await report(`tenantId=${tenant}&windowHours=24`);
    expect(data.lifecycle).toEqual({ created: 1, updated: 0, deleted: 0, active: 4, total: 8 });
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
});

describe('alarms and health', () => {
  it('raises each alarm at its threshold and turns critical', async () => {
    const tenant = 'alarming';
    await at(-1 * HOUR, async () => {
      for (let index = 0; index < 3; index += 1) await (await session(tenant)).end('closed');
      // Three subjects stated twice (3 conflicts) and four single statements: 10 memories in one run.
      const contents = ['alpha: one', 'alpha: two', 'beta: one', 'beta: two', 'gamma: one', 'gamma: two'];
      contents.push('first single statement', 'second single statement', 'third single statement', 'fourth one');
      const ids: string[] = [];
      for (const content of contents) ids.push(await add(tenant, content));
      await consolidate(tenant);
      for (const id of ids.slice(0, 9)) await server.post('/memories/forget', { id, scope: { tenantId: tenant } });
    });
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
