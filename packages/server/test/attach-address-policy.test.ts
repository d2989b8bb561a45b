import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../src/config.js';
import { type FakeServer, startFakeServer } from './fake-libsql-server.js';
import { createTestServer, type TestServer } from './harness.js';
import { type SqldServer, startSqld } from './sqld.js';

/**
 * Against a real libSQL server: an attach URL is judged as the libSQL client reads it, so no spelling slips a host
 * past MEMORY_ATTACH_ALLOWED_HOSTS, and no attach reaches the libSQL server the server provisions tenants on.
 */

const servers: TestServer[] = [];
async function serverWith(overrides: Partial<ServerConfig>): Promise<TestServer> {
  const server = await createTestServer(overrides);
  servers.push(server);
  return server;
}
afterAll(async () => {
  for (const server of servers) await server.close();
});

function attach(server: TestServer, tenantId: string, attachDbUrl: string) {
  return server.call('POST', '/management/tenant-overrides', { tenantId, mode: 'attach', attachDbUrl });
}

describe('attach URLs are read as the libSQL client reads them', () => {
  let fake: FakeServer;
  beforeAll(async () => {
    fake = await startFakeServer({ status: 200 });
  });
  afterAll(() => fake.close());

  it('refuses `ws://allowed\\@other`, which passed the allowlist and connected to the other host', async () => {
    const server = await serverWith({ attachAllowedHosts: ['db.allowed.test'] });
    for (const url of [
      `ws://db.allowed.test\\@127.0.0.1:${fake.port}`,
      `http://db.allowed.test\\@127.0.0.1:${fake.port}`,
      `libsql://db.allowed.test:x@127.0.0.1:${fake.port}?tls=0`,
      `ws://db.allowed.test%5C@127.0.0.1:${fake.port}`,
      `http://127.0.0.1:${fake.port}\\@db.allowed.test`,
    ]) {
      const response = await attach(server, 'bypass', url);
      expect(response.status, url).toBe(400);
      expect(response.body.error, url).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'attachDbUrl' } });
    }
    expect(fake.connections).toBe(0);
    expect(await server.services.registry.find('default', 'bypass')).toBeUndefined();
  });

  it('refuses loopback, private, link-local and metadata addresses unless the operator allows them', async () => {
    const server = await serverWith({});
    for (const url of [
      `http://127.0.0.1:${fake.port}`,
      `ws://[::1]:${fake.port}`,
      'http://10.1.2.3:8080',
      'http://192.168.1.1',
      'http://100.64.0.1',
      'http://169.254.10.10',
      'https://[fd12:3456::1]',
      'http://169.254.169.254/latest',
      'http://0.0.0.0:8080',
      'http://metadata.google.internal',
      `http://2130706433:${fake.port}`,
      `http://0x7f000001:${fake.port}`,
      `http://127.1:${fake.port}`,
      `http://[::ffff:127.0.0.1]:${fake.port}`,
      'ftp://db.example.com',
    ]) {
      const response = await attach(server, 'private', url);
      expect(response.status, url).toBe(400);
      expect(response.body.error?.details?.field, url).toBe('attachDbUrl');
    }
    // A host name is checked by the addresses it resolves to, when the connection is made: localhost is loopback.
    const named = await attach(server, 'private', `http://localhost:${fake.port}`);
    expect(named.status).toBe(409);
    expect(named.body.error?.code).toBe('TENANT_DATABASE_UNREACHABLE');
    expect(fake.connections).toBe(0);
    expect(await server.services.registry.find('default', 'private')).toBeUndefined();
  });

  it('metadata addresses stay refused even with private networks allowed', async () => {
    const server = await serverWith({ attachAllowPrivateNetworks: true });
    for (const url of ['http://169.254.169.254', 'http://[fd00:ec2::254]', 'http://0.0.0.0:1', 'http://metadata']) {
      expect((await attach(server, 'metadata', url)).status, url).toBe(400);
    }
  });
});

describe("attach never reaches the server's own libSQL server", () => {
  let own: SqldServer;
  let other: SqldServer;
  let ownPort: string;
  beforeAll(async () => {
    [own, other] = await Promise.all([startSqld(), startSqld()]);
    ownPort = new URL(own.url).port;
  });
  afterAll(async () => {
    await Promise.all([own.stop(), other.stop()]);
  });

  it('refuses the MEMORY_SQLD_URL address, by name, by <namespace>.<name> and by resolved address', async () => {
    const server = await serverWith({
      attachAllowPrivateNetworks: true,
      sqldUrl: `http://localhost:${ownPort}`,
      sqldAdminUrl: `http://localhost:${ownPort}`,
    });
    for (const url of [
      `http://localhost:${ownPort}`,
      `http://tenant-a.localhost:${ownPort}`,
      `http://tenant-a.localhost:1234`,
      `http://127.0.0.1:${ownPort}`,
      `ws://127.0.0.1:${ownPort}`,
      `libsql://127.0.0.1:${ownPort}?tls=0`,
      `http://tenant-a.127.0.0.1:${ownPort}`,
    ]) {
      const response = await attach(server, 'own', url);
      expect(response.status, url).toBe(400);
      expect(response.body.error?.details?.field, url).toBe('attachDbUrl');
    }
    // Another libSQL server on loopback is fine once private networks are allowed.
    const allowed = await attach(server, 'other', other.url);
    expect(allowed.status).toBe(200);
    expect(await server.services.registry.find('default', 'own')).toBeUndefined();
  });

  it('refuses a name that resolves to the MEMORY_SQLD_URL address on its port', async () => {
    const server = await serverWith({ attachAllowPrivateNetworks: true, sqldUrl: own.url });
    const response = await attach(server, 'own', `http://localhost:${ownPort}`);
    expect(response.status).toBe(409);
    expect(response.body.error?.code).toBe('TENANT_DATABASE_UNREACHABLE');
    expect(await server.services.registry.find('default', 'own')).toBeUndefined();
  });
});
