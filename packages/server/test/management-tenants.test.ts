import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { ADMIN_TOKEN, createTestServer, type TestServer } from './harness.js';
import { freePort } from './sqld.js';

let server: TestServer;
let otherKey: string;
beforeAll(async () => {
  server = await createTestServer();
  const now = new Date();
  await server.services.control.database.run(
    "INSERT INTO owners (id, name, workspace_db_url, created_at) VALUES ('other', 'Other', NULL, ?)",
    [now.toISOString()],
  );
  otherKey = (await server.services.control.createKey('other', now, null)).apiKey;
});
afterAll(async () => {
  await server.close();
});

async function contents(tenantId: string, key?: string): Promise<string[]> {
  const response = await server.call('POST', '/memories/list', { scope: { tenantId } }, key ? { key } : {});
  expect(response.status).toBe(200);
  return response.body.data?.memories.map((memory: { content: string }) => memory.content);
}

describe('tenant-overrides with the file provisioner', () => {
  it('provisions a tenant database that answers at once', async () => {
    const response = await server.call('POST', '/management/tenant-overrides', {
      tenantId: 'acme',
      mode: 'provision',
      metadata: { plan: 'pro' },
    });
    expect(response.status).toBe(200);
    expect(response.body.data?.created).toBe(true);
    expect(response.body.data?.tenant).toMatchObject({
      tenantId: 'acme',
      mode: 'provision',
      status: 'ready',
      source: 'override',
      hasToken: false,
      metadata: { plan: 'pro' },
      lastError: null,
    });
    // Named relative to the data dir: no answer discloses the server's own paths.
    expect(response.body.data?.tenant.dbUrl).toMatch(/^file:tenants\/default\/acme-[0-9a-f]{12}\.db$/);
    const listed = await server.call('GET', '/management/tenant-overrides');
    expect(JSON.stringify(listed.body)).not.toContain(server.dataDir);
    await server.post('/memories/add', { content: 'acme ships on thursdays', scope: { tenantId: 'acme' } });
    expect(await contents('acme')).toEqual(['acme ships on thursdays']);
  });

  it('lists the owner’s mappings, optionally one tenantId', async () => {
    await server.post('/memories/add', { content: 'auto tenant', scope: { tenantId: 'auto-made' } });
    const all = await server.call('GET', '/management/tenant-overrides');
    expect(all.body.data?.count).toBe(2);
    expect(
      all.body.data?.tenants.map((tenant: { tenantId: string; source: string }) => [tenant.tenantId, tenant.source]),
    ).toEqual([
      ['acme', 'override'],
      ['auto-made', 'auto'],
    ]);
    const one = await server.call('GET', '/management/tenant-overrides?tenantId=acme', undefined, { key: ADMIN_TOKEN });
    expect(one.body.data?.tenants.map((tenant: { tenantId: string }) => tenant.tenantId)).toEqual(['acme']);
  });

  it('updates a mapping in place: same database, new metadata', async () => {
    const before = (await server.call('GET', '/management/tenant-overrides?tenantId=acme')).body.data?.tenants[0];
    const response = await server.call('POST', '/management/tenant-overrides', {
      tenantId: 'acme',
      mode: 'provision',
      metadata: { plan: 'enterprise' },
    });
    expect(response.body.data?.created).toBe(false);
    expect(response.body.data?.tenant).toMatchObject({ dbUrl: before.dbUrl, metadata: { plan: 'enterprise' } });
    expect(response.body.data?.tenant.createdAt).toBe(before.createdAt);
    expect(await contents('acme')).toEqual(['acme ships on thursdays']);
  });

  it('disables a mapping: the tenant answers TENANT_DATABASE_NOT_CONFIGURED until provisioned again', async () => {
    const disabled = await server.call('DELETE', '/management/tenant-overrides?tenantId=acme');
    expect(disabled.status).toBe(200);
    expect(disabled.body.data?.tenant.status).toBe('disabled');
    const refused = await server.call('POST', '/memories/list', { scope: { tenantId: 'acme' } });
    expect(refused.status).toBe(404);
    expect(refused.body.error?.code).toBe('TENANT_DATABASE_NOT_CONFIGURED');
    const again = await server.call('POST', '/management/tenant-overrides', { tenantId: 'acme', mode: 'provision' });
    expect(again.body.data?.tenant).toMatchObject({ status: 'ready', metadata: { plan: 'enterprise' } });
    expect(await contents('acme')).toEqual(['acme ships on thursdays']);
  });

  it('answers TENANT_NOT_FOUND when disabling an unknown tenant', async () => {
    const response = await server.call('DELETE', '/management/tenant-overrides?tenantId=nobody');
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'TENANT_NOT_FOUND', type: 'not_found_error' });
  });
});

describe('attach validation', () => {
  it.each([
    [{ tenantId: 'x', mode: 'attach' }, 'attachDbUrl'],
    [{ tenantId: 'x', mode: 'attach', attachDbUrl: 'file:/tmp/control.db' }, 'attachDbUrl'],
    [{ tenantId: 'x', mode: 'attach', attachDbUrl: 'http://127.0.0.1:1/?authToken=abc' }, 'attachDbUrl'],
    [{ tenantId: 'x', mode: 'attach', attachDbUrl: 'not a url' }, 'attachDbUrl'],
    [{ tenantId: 'bad id!', mode: 'provision' }, 'tenantId'],
    [{ tenantId: 'x', mode: 'mirror' }, 'mode'],
  ])('refuses %j naming the field', async (body, field) => {
    const response = await server.call('POST', '/management/tenant-overrides', body);
    expect(response.status).toBe(400);
    expect(response.body.error?.details?.field).toBe(field);
  });

  it('saves nothing when the database does not answer', async () => {
    const port = await freePort();
    // A closed port on loopback: the server must be allowed to attach private addresses to try it at all.
    const server = await createTestServer({ attachAllowPrivateNetworks: true });
    onTestFinished(() => server.close());
    const response = await server.call('POST', '/management/tenant-overrides', {
      tenantId: 'offline',
      mode: 'attach',
      attachDbUrl: `http://127.0.0.1:${port}`,
      attachDbToken: 'secret-token-value',
    });
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({ code: 'TENANT_DATABASE_UNREACHABLE' });
    expect(JSON.stringify(response.body)).not.toContain('secret-token-value');
    expect(await server.services.registry.find('default', 'offline')).toBeUndefined();
  });
});

describe('owner separation', () => {
  it("never shows, disables or serves another owner's mapping", async () => {
    const listed = await server.call('GET', '/management/tenant-overrides', undefined, { key: otherKey });
    expect(listed.body.data).toEqual({ tenants: [], tenantDatabases: [], count: 0 });
    const disabled = await server.call('DELETE', '/management/tenant-overrides?tenantId=acme', undefined, {
      key: otherKey,
    });
    expect(disabled.body.error?.code).toBe('TENANT_NOT_FOUND');
    // The same tenantId under another owner is another database.
    expect(await contents('acme', otherKey)).toEqual([]);
    expect(await contents('acme')).toEqual(['acme ships on thursdays']);
  });
});
