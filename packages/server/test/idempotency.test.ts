import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { IDEMPOTENCY, operations } from '@memory-service/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Admission, type FirstRun, IdempotencyLedger } from '../src/admission/idempotency.js';
import { ApiError } from '../src/api-error.js';
import { createLogger } from '../src/logger.js';
import { Database } from '../src/store/database.js';
import { IdempotencyKeys } from '../src/store/idempotency-keys.js';
import { migrate } from '../src/store/migrate.js';
import { controlMigrations } from '../src/store/migrations/control.js';
import { createTestServer, type TestServer } from './harness.js';

/*
 * Idempotent writes (issue 25, part 5): a write whose connection dropped before its answer is stored anyway, so a
 * client that retries it stored it twice. With an Idempotency-Key the retry gets the first answer and stores nothing.
 */

let clock = new Date('2026-11-26T10:00:00.000Z');
let server: TestServer;

beforeAll(async () => {
  server = await createTestServer({}, undefined, { now: () => clock });
});
afterAll(async () => {
  await server.close();
});

const withKey = (key: string) => ({ headers: { [IDEMPOTENCY.header]: key } });

async function sessionCount(tenantId: string): Promise<number> {
  const response = await server.call('GET', `/sessions?tenantId=${tenantId}`);
  return (response.body.data?.sessions as unknown[] | undefined)?.length ?? -1;
}

describe('a write with an Idempotency-Key', () => {
  it('runs once: the retry gets the first answer, marked replayed, and stores nothing', async () => {
    const body = { title: 'Planning', scope: { tenantId: 'idem-once' } };
    const first = await server.call('POST', '/sessions/start', body, withKey('retry-1'));
    const retry = await server.call('POST', '/sessions/start', body, withKey('retry-1'));
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body.data).toEqual(first.body.data);
    expect(retry.headers.get(IDEMPOTENCY.replayedHeader)).toBe('true');
    expect(first.headers.get(IDEMPOTENCY.replayedHeader)).toBeNull();
    expect(retry.body.meta.requestId).not.toBe(first.body.meta.requestId);
    expect(await sessionCount('idem-once')).toBe(1);
    // Without a key, the same body starts another session.
    await server.call('POST', '/sessions/start', body);
    expect(await sessionCount('idem-once')).toBe(2);
  });

  it('replays an add as it was answered, not as a duplicate of itself', async () => {
    const body = { content: 'The staging database is refreshed nightly', scope: { tenantId: 'idem-add' } };
    const first = await server.call('POST', '/memories/add', body, withKey('add-1'));
    const retry = await server.call('POST', '/memories/add', body, withKey('add-1'));
    expect(retry.body.data).toEqual(first.body.data);
    expect(retry.body.data?.deduplicated).toBeUndefined();
  });

  it('runs concurrent requests with one key once, and gives each the one answer', async () => {
    const body = { title: 'Concurrent', scope: { tenantId: 'idem-concurrent' } };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => server.call('POST', '/sessions/start', body, withKey('concurrent-1'))),
    );
    expect(answers.map((answer) => answer.status)).toEqual(new Array(8).fill(201));
    expect(new Set(answers.map((answer) => answer.body.data?.sessionId)).size).toBe(1);
    expect(answers.filter((answer) => answer.headers.get(IDEMPOTENCY.replayedHeader) === 'true')).toHaveLength(7);
    expect(await sessionCount('idem-concurrent')).toBe(1);
  });

  it('refuses the key with another body or on another route (409 IDEMPOTENCY_KEY_REUSED), storing nothing', async () => {
    const scope = { tenantId: 'idem-reused' };
    await server.call('POST', '/sessions/start', { title: 'One', scope }, withKey('reused-1'));
    const otherBody = await server.call('POST', '/sessions/start', { title: 'Two', scope }, withKey('reused-1'));
    expect(otherBody.status).toBe(409);
    expect(otherBody.body.error).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
      retryable: false,
      details: { field: IDEMPOTENCY.header },
    });
    const otherRoute = await server.call('POST', '/memories/add', { content: 'x y z', scope }, withKey('reused-1'));
    expect(otherRoute.body.error?.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await sessionCount('idem-reused')).toBe(1);
    const listed = await server.post<{ memories: unknown[] }>('/memories/list', { scope });
    expect(listed.memories).toHaveLength(0);
  });

  it('takes a body in another key order as the same body', async () => {
    const a = { scope: { tenantId: 'idem-order' }, title: 'Order' };
    const b = { title: 'Order', scope: { tenantId: 'idem-order' } };
    const first = await server.call('POST', '/sessions/start', a, withKey('order-1'));
    const retry = await server.call('POST', '/sessions/start', b, withKey('order-1'));
    expect(retry.body.data?.sessionId).toBe(first.body.data?.sessionId);
  });

  it('replays an error a retry would get again', async () => {
    const body = { id: 'mem_missing', content: 'new text', scope: { tenantId: 'idem-errors' } };
    const first = await server.call('POST', '/memories/edit', body, withKey('edit-missing'));
    const retry = await server.call('POST', '/memories/edit', body, withKey('edit-missing'));
    expect(first.status).toBe(404);
    expect(retry.status).toBe(404);
    expect(retry.body.error).toEqual(first.body.error);
    expect(retry.headers.get(IDEMPOTENCY.replayedHeader)).toBe('true');
  });

  it('does not hold a key for a request its body failed validation for', async () => {
    const scope = { tenantId: 'idem-invalid' };
    const invalid = await server.call('POST', '/sessions/start', { title: 7, scope }, withKey('invalid-1'));
    expect(invalid.status).toBe(400);
    const valid = await server.call('POST', '/sessions/start', { title: 'Seven', scope }, withKey('invalid-1'));
    expect(valid.status).toBe(201);
  });

  it('refuses a malformed key with details.field naming the header', async () => {
    for (const key of ['x'.repeat(IDEMPOTENCY.maxKeyLength + 1), 'two words']) {
      const response = await server.call('POST', '/sessions/start', { title: 'Bad key' }, withKey(key));
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: IDEMPOTENCY.header } });
    }
  });

  it('is ignored on read-only routes', async () => {
    const scope = { tenantId: 'idem-reads' };
    const one = await server.call('POST', '/memories/list', { scope, limit: 5 }, withKey('read-1'));
    const two = await server.call('POST', '/memories/list', { scope, limit: 6 }, withKey('read-1'));
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(two.headers.get(IDEMPOTENCY.replayedHeader)).toBeNull();
  });

  it('is kept per workspace, and may be used again once it has expired', async () => {
    const scope = { tenantId: 'idem-expiry' };
    await server.call('POST', '/sessions/start', { title: 'Day one', scope }, withKey('daily'));
    const owner = await server.services.control.createOwner('idempotency-other', () => null, clock);
    const { apiKey } = await server.services.control.createKey(owner.id, clock, null);
    const elsewhere = await server.call(
      'POST',
      '/sessions/start',
      { title: 'Other workspace', scope },
      { key: apiKey, headers: { [IDEMPOTENCY.header]: 'daily' } },
    );
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.headers.get(IDEMPOTENCY.replayedHeader)).toBeNull();

    clock = new Date(clock.getTime() + (IDEMPOTENCY.retentionHours + 1) * 3_600_000);
    const later = await server.call('POST', '/sessions/start', { title: 'Day two', scope }, withKey('daily'));
    expect(later.status).toBe(201);
    expect(later.headers.get(IDEMPOTENCY.replayedHeader)).toBeNull();
    expect(await sessionCount('idem-expiry')).toBe(2);
  });
});

describe('the idempotency ledger', () => {
  let directory = '';
  let database: Database;
  let now = new Date('2026-11-26T10:00:00.000Z');
  const operation = operations['memories.add'];
  const logger = createLogger('silent');

  const ledger = (waitMs = 5_000) =>
    new IdempotencyLedger(new IdempotencyKeys(database), { waitMs, abandonedAfterMs: 60_000, now: () => now, logger });

  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'memory-idempotency-'));
    database = await Database.open({ url: `file:${path.join(directory, 'control.db')}` });
    await migrate(database, controlMigrations);
  });
  afterEach(async () => {
    await database.run('DELETE FROM idempotency_keys');
  });
  afterAll(async () => {
    await database.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const firstRun = (admission: Admission): FirstRun => {
    if (admission.kind !== 'first') throw new Error(`expected a first run, got ${admission.kind}`);
    return admission;
  };

  it('records what the work answers after its request stopped waiting (a passed deadline), for the retry', async () => {
    const keys = ledger();
    const first = firstRun(await keys.admit('owner', 'late', operation, { content: 'a' }));
    let finish: (value: unknown) => void = () => undefined;
    first.settle(new Promise((resolve) => (finish = resolve)), () => 201);
    // The request answered REQUEST_DEADLINE_EXCEEDED; its work commits later, while the retry waits for it.
    const retry = keys.admit('owner', 'late', operation, { content: 'a' });
    finish({ memory: { id: 'mem_1' } });
    expect(await retry).toEqual({ kind: 'replay', answer: { status: 201, data: { memory: { id: 'mem_1' } } } });
  });

  it('forgets the key when the work failed in a way a retry may fix, so the retry runs', async () => {
    const keys = ledger();
    const first = firstRun(await keys.admit('owner', 'busy', operation, { content: 'b' }));
    const busy = Promise.reject(new ApiError('SERVER_BUSY', 'busy', { retryAfterSeconds: 1 }));
    first.settle(busy, () => 201);
    await busy.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await keys.admit('owner', 'busy', operation, { content: 'b' })).kind).toBe('first');
  });

  it('tells a retry to come back while another process runs the key, and takes over an abandoned run', async () => {
    firstRun(await ledger().admit('owner', 'elsewhere', operation, { content: 'c' }));
    // Another ledger is another process: it cannot wait for the first run.
    const other = ledger();
    await expect(other.admit('owner', 'elsewhere', operation, { content: 'c' })).rejects.toMatchObject({
      code: 'IDEMPOTENCY_KEY_IN_USE',
    });
    now = new Date(now.getTime() + 61_000);
    expect((await other.admit('owner', 'elsewhere', operation, { content: 'c' })).kind).toBe('first');
  });
});
