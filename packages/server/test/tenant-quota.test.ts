import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './harness.js';

/**
 * Made-up tenantIds cannot fill the disk (a database per new tenantId, even on a read: 2,000 took 785 MB). Reads answer
 * an unknown tenant as an empty one and create nothing; writes provision, up to MEMORY_TENANT_QUOTA tenants a
 * workspace.
 */
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function tenantFiles(dataDir: string): string[] {
  const folder = path.join(dataDir, 'tenants');
  return existsSync(folder) ? readdirSync(folder, { recursive: true }).map(String) : [];
}

describe('reads never create a tenant', () => {
  it('answers every read-only route of an unknown tenant as an empty tenant, and creates no database', async () => {
    server = await createTestServer();
    const scope = { tenantId: 'never-written', userId: 'ana' };
    const query = `tenantId=${scope.tenantId}&userId=${scope.userId}`;
    const search = await server.call('POST', '/memories/search', { query: 'anything', scope });
    expect(search.status).toBe(200);
    expect(search.body.data).toMatchObject({ count: 0, memories: [] });
    const list = await server.call('POST', '/memories/list', { scope });
    expect(list.body.data?.memories).toEqual([]);
    const context = await server.call('POST', '/context/get', { query: 'anything', scope });
    expect(context.status).toBe(200);
    expect(context.body.data).toMatchObject({ memories: [], rules: [], skillFiles: [] });
    const skills = await server.call('POST', '/skills/files/list', { scope });
    expect(skills.body.data).toMatchObject({ skillFiles: [], count: 0 });
    const snapshot = await server.call('GET', `/sessions/00000000-0000-4000-8000-000000000000/snapshot?${query}`);
    expect(snapshot.status).toBe(404);
    expect(snapshot.body.error?.code).toBe('SESSION_NOT_FOUND');
    const forget = await server.call('POST', '/memories/forget', { id: '0123456789ab', scope });
    expect(forget.body.error?.code).toBe('MEMORY_NOT_FOUND');
    const reads: Array<[string, string, unknown?]> = [
      ['POST', '/graph/trace', { query: 'anything', scope }],
      ['POST', '/graph/status', { scope }],
      ['GET', `/graph/status?${query}`],
      ['GET', `/graph/rollout?${query}`],
      ['GET', `/management/embeddings/usage?tenantId=${scope.tenantId}`],
      ['GET', `/management/embeddings/backfill?tenantId=${scope.tenantId}`],
      ['GET', `/management/embeddings/observability?tenantId=${scope.tenantId}`],
      ['GET', `/management/memory/observability?tenantId=${scope.tenantId}`],
      ['POST', '/memories/bulk-forget', { all: true, scope }],
      ['POST', '/memories/vacuum', { scope }],
      ['POST', '/skills/files/delete', { path: 'a.md', scope }],
    ];
    for (const [method, route, body] of reads) {
      const response = await server.call(method, route, body);
      expect(response.status, `${method} ${route}: ${JSON.stringify(response.body.error)}`).toBeLessThan(500);
      expect([200, 404], `${method} ${route}`).toContain(response.status);
    }
    expect(await server.services.registry.list('default')).toEqual([]);
    expect(tenantFiles(server.dataDir)).toEqual([]);
    // The first write creates it, and a read then sees what was written.
    await server.post('/memories/add', { content: 'the first write creates the tenant', scope });
    expect((await server.services.registry.list('default')).map((row) => row.tenant_id)).toEqual([scope.tenantId]);
    const found = await server.post<{ count: number }>('/memories/search', { query: 'first write', scope });
    expect(found.count).toBe(1);
  });

  it('keeps answering TENANT_DATABASE_NOT_CONFIGURED on reads when auto-provision is off', async () => {
    server = await createTestServer({ tenantAutoProvision: false });
    const response = await server.call('POST', '/memories/search', { query: 'x', scope: { tenantId: 'unknown' } });
    expect(response.status).toBe(404);
    expect(response.body.error?.code).toBe('TENANT_DATABASE_NOT_CONFIGURED');
  });
});

describe('tenant quota per workspace (MEMORY_TENANT_QUOTA)', () => {
  it('refuses a new tenant past the quota with 403 TENANT_QUOTA_EXCEEDED and details.limit; existing ones work', async () => {
    server = await createTestServer({ tenantQuota: 2 });
    await server.post('/memories/add', { content: 'one', scope: { tenantId: 't1' } });
    await server.post('/memories/add', { content: 'two', scope: { tenantId: 't2' } });
    const third = await server.call('POST', '/memories/add', { content: 'three', scope: { tenantId: 't3' } });
    expect(third.status).toBe(403);
    expect(third.body.error).toMatchObject({ code: 'TENANT_QUOTA_EXCEEDED', retryable: false, details: { limit: 2 } });
    const session = await server.call('POST', '/sessions/start', { title: 'x', scope: { tenantId: 't4' } });
    expect(session.body.error?.code).toBe('TENANT_QUOTA_EXCEEDED');
    await server.post('/memories/add', { content: 'still fine', scope: { tenantId: 't1' } });
    await server.post('/memories/add', { content: 'the workspace database is no tenant' });
    expect((await server.call('POST', '/memories/list', { scope: { tenantId: 't3' } })).status).toBe(200);
    expect(await server.services.registry.count('default')).toBe(2);
    // An explicit mapping is a tenant too: past the quota it is refused, an existing one can still be updated.
    const mapping = await server.call('POST', '/management/tenant-overrides', { tenantId: 't5', mode: 'provision' });
    expect(mapping.body.error).toMatchObject({ code: 'TENANT_QUOTA_EXCEEDED', details: { limit: 2 } });
    const update = await server.call('POST', '/management/tenant-overrides', { tenantId: 't1', mode: 'provision' });
    expect(update.status).toBe(200);
    expect(await server.services.registry.count('default')).toBe(2);
  });

  it('never overshoots the quota when first writes of many tenants race', async () => {
    server = await createTestServer({ tenantQuota: 3 });
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        server!.call('POST', '/memories/add', { content: `racer ${index}`, scope: { tenantId: `race-${index}` } }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status !== 201).every((status) => status === 403)).toBe(true);
    expect(await server.services.registry.count('default')).toBe(3);
  });
});
