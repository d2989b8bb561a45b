import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../src/auth/keys.js';
import { createTestServer, TEST_KEY, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('health', () => {
  it('answers without auth with the contract version', async () => {
    const response = await server.call('GET', '/health', undefined, { key: null });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      ok: true,
      error: null,
      data: { status: 'ok', service: 'memory-service', schemaVersion: '2026-02-11' },
      meta: { version: '2026-02-11', endpoint: '/api/sdk/v1/health' },
    });
    expect(response.body.meta.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isNaN(Date.parse(response.body.meta.timestamp))).toBe(false);
    expect(response.headers.get('x-request-id')).toBe(response.body.meta.requestId);
  });

  it('echoes a caller UUID request id', async () => {
    const requestId = '6f1c2a4e-1b2c-4d3e-8f90-123456789abc';
    const response = await server.call('GET', '/health', undefined, {
      key: null,
      headers: { 'x-request-id': requestId },
    });
    expect(response.body.meta.requestId).toBe(requestId);
  });
});

describe('authentication', () => {
  it('answers each key failure with its code', async () => {
    const missing = await server.call('POST', '/memories/list', {}, { key: null });
    expect(missing.status).toBe(401);
    expect(missing.body.error).toMatchObject({ code: 'MISSING_API_KEY', type: 'auth_error', retryable: false });
    const malformed = await server.call('POST', '/memories/list', {}, { key: 'not-a-key' });
    expect(malformed.body.error!.code).toBe('INVALID_API_KEY_FORMAT');
    const badScheme = await server.call(
      'POST',
      '/memories/list',
      {},
      { key: null, headers: { authorization: `Basic ${TEST_KEY}` } },
    );
    expect(badScheme.body.error!.code).toBe('INVALID_API_KEY_FORMAT');
    const unknown = await server.call('POST', '/memories/list', {}, { key: `mem_${'0'.repeat(64)}` });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error!.code).toBe('INVALID_API_KEY');
  });

  it('rejects expired and revoked keys', async () => {
    const now = new Date();
    const expired = await server.services.control.createKey(
      'default',
      new Date(now.getTime() - 120_000),
      new Date(now.getTime() - 60_000),
    );
    const response = await server.call('POST', '/memories/list', {}, { key: expired.apiKey });
    expect(response.body.error!.code).toBe('API_KEY_EXPIRED');
    const live = await server.services.control.createKey('default', now, null);
    expect((await server.call('POST', '/memories/list', {}, { key: live.apiKey })).status).toBe(200);
    await server.services.control.revokeKeys('default', now, live.row.id);
    expect((await server.call('POST', '/memories/list', {}, { key: live.apiKey })).body.error!.code).toBe(
      'INVALID_API_KEY',
    );
  });

  it('stores keys only as hashes', async () => {
    const rows = await server.services.control.database.all<{ key_hash: string; preview: string }>(
      'SELECT key_hash, preview FROM api_keys',
    );
    expect(rows.some((row) => row.key_hash === hashApiKey(TEST_KEY))).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(TEST_KEY);
    expect(rows[0]!.preview).toMatch(/^mem_[0-9a-f]{8}\*{20}[0-9a-f]{4}$/);
  });
});

describe('request bodies', () => {
  it('answers malformed JSON, non-object JSON and non-JSON content types with INVALID_REQUEST on body', async () => {
    for (const [body, headers] of [
      ['{"content": ', {}],
      ['[1,2]', {}],
      ['"text"', {}],
      ['content=x', { 'content-type': 'application/x-www-form-urlencoded' }],
    ] as const) {
      const response = await server.call('POST', '/memories/add', body, { headers });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'body' } });
    }
  });

  it('refuses bodies over 1 MiB before parsing', async () => {
    const huge = JSON.stringify({ content: 'x', metadata: { blob: 'y'.repeat(1024 * 1024) } });
    const response = await server.call('POST', '/memories/add', huge);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'body' } });
  });

  it('refuses unknown body fields, naming the field (docs/architecture.md#the-operations-table)', async () => {
    const response = await server.call('POST', '/memories/add', { content: 'with extras', surprise: true });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'surprise' } });
  });

  it('answers unknown routes with a 404 envelope', async () => {
    const response = await server.call('POST', '/memories/nope/deeper/still', {});
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({
      ok: false,
      data: null,
      error: { code: 'NOT_FOUND', type: 'not_found_error' },
    });
  });

  it('answers CORS preflight', async () => {
    const response = await server.app.request('/api/sdk/v1/memories/add', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('scope validation', () => {
  it('answers TENANT_ID_INVALID and USER_ID_INVALID', async () => {
    const tenant = await server.call('POST', '/memories/list', { scope: { tenantId: '-bad' } });
    expect(tenant.body.error).toMatchObject({
      code: 'TENANT_ID_INVALID',
      status: 400,
      details: { field: 'scope.tenantId' },
    });
    const tooLong = await server.call('POST', '/memories/list', { scope: { tenantId: `a${'b'.repeat(128)}` } });
    expect(tooLong.body.error!.code).toBe('TENANT_ID_INVALID');
    expect((await server.call('POST', '/memories/list', { scope: { tenantId: `a${'b'.repeat(127)}` } })).status).toBe(
      200,
    );
    const user = await server.call('POST', '/memories/list', { scope: { userId: 'has space' } });
    expect(user.body.error).toMatchObject({ code: 'USER_ID_INVALID', details: { field: 'scope.userId' } });
    const query = await server.call('GET', '/sessions/abc/snapshot?tenantId=%2Fetc');
    expect(query.body.error!.code).toBe('TENANT_ID_INVALID');
  });
});

describe('rate limiting', () => {
  it('limits per key with headers and retryAfterSeconds', async () => {
    const limited = await createTestServer({ rateLimitPerMinute: 3 });
    try {
      const first = await limited.call('POST', '/memories/list', {});
      expect(first.headers.get('x-ratelimit-limit')).toBe('3');
      expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
      await limited.call('POST', '/memories/list', {});
      await limited.call('POST', '/memories/list', {});
      const blocked = await limited.call('POST', '/memories/list', {});
      expect(blocked.status).toBe(429);
      expect(blocked.body.error).toMatchObject({ code: 'RATE_LIMITED', type: 'rate_limit_error', retryable: true });
      expect(blocked.body.error!.details!.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(Number(blocked.headers.get('retry-after'))).toBe(blocked.body.error!.details!.retryAfterSeconds);
    } finally {
      await limited.close();
    }
  });
});

describe('feature flags', () => {
  it('answers 403 with the flag code when a flag is off', async () => {
    const off = await createTestServer({
      flags: {
        MEMORY_SESSION_ENABLED: false,
        MEMORY_PROCEDURAL_ENABLED: false,
        MEMORY_CONSOLIDATION_ENABLED: false,
        MEMORY_COMPACTION_ENABLED: true,
        MEMORY_FILE_MODE_ENABLED: false,
      },
    });
    try {
      const session = await off.call('POST', '/sessions/start', {});
      expect(session.status).toBe(403);
      expect(session.body.error).toMatchObject({ code: 'MEMORY_SESSION_DISABLED', type: 'auth_error' });
      const promote = await off.call('POST', '/skills/files/promote', { sessionId: 's', path: 'p' });
      expect(promote.body.error!.code).toBe('MEMORY_PROCEDURAL_DISABLED');
      const consolidate = await off.call('POST', '/memories/consolidate', {});
      expect(consolidate.body.error!.code).toBe('MEMORY_CONSOLIDATION_DISABLED');
    } finally {
      await off.close();
    }
  });
});
