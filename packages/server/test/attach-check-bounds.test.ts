import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Database } from '../src/store/database.js';
import { mappingLocation } from '../src/tenancy/database-location.js';
import { type FakeServer, startFakeServer } from './fake-libsql-server.js';
import { createTestServer, type TestServer } from './harness.js';
import { freePort } from './sqld.js';

/**
 * Attach is neither an SSRF oracle (every failed check answers alike, so it cannot probe a network) nor a memory
 * bomb (an attached database's answers are capped).
 */

const MiB = 1024 * 1024;
/** Loopback socket buffers on both sides hold a few MiB the client never reads; anything endless is far past it. */
const SOCKET_BUFFER_SLACK = 24 * MiB;

let server: TestServer;
beforeAll(async () => {
  // The fake servers listen on loopback: allowed explicitly, as an operator would for a private libSQL server.
  server = await createTestServer({ attachAllowPrivateNetworks: true, attachMaxResponseBytes: MiB });
});
afterAll(() => server.close());

function attach(tenantId: string, port: number) {
  return server.call('POST', '/management/tenant-overrides', {
    tenantId,
    mode: 'attach',
    attachDbUrl: `http://127.0.0.1:${port}`,
    attachDbToken: 'some-token',
  });
}

describe('attach check failures', () => {
  const fakes: FakeServer[] = [];
  afterAll(async () => {
    for (const fake of fakes) await fake.close();
  });

  it('answer one code and one message whatever failed: refused, 401, 404, 500, silent or endless', async () => {
    const warn = vi.spyOn(server.services.logger, 'warn');
    for (const answer of [{ status: 401 }, { status: 404 }, { status: 500 }, 'silent', 'endless'] as const) {
      fakes.push(await startFakeServer(answer));
    }
    const ports = [await freePort(), ...fakes.map((fake) => fake.port)];
    const errors = [];
    for (const [index, port] of ports.entries()) {
      const response = await attach(`probe-${index}`, port);
      expect(response.status).toBe(409);
      errors.push(response.body.error);
    }
    for (const error of errors) {
      expect(error).toEqual({
        code: 'TENANT_DATABASE_UNREACHABLE',
        type: errors[0]?.type,
        status: 409,
        message: 'The database could not be reached with these credentials',
        retryable: false,
      });
    }
    // The server's log keeps what happened, by code only.
    const logged = warn.mock.calls.filter(([message]) => message === 'attach check failed');
    expect(logged.map(([, fields]) => Object.keys(fields ?? {}).sort())).toEqual(ports.map(() => ['code', 'tenantId']));
    expect(logged.map(([, fields]) => fields?.code).slice(-2)).toEqual(['CHECK_TIMEOUT', 'ATTACH_RESPONSE_TOO_LARGE']);
    expect(await server.services.registry.list('default')).toEqual([]);
  }, 20_000);
});

describe('what an attached database may send back', () => {
  it('cuts an endless answer to the attach check off at the response cap', async () => {
    const fake = await startFakeServer('endless');
    try {
      const rssBefore = process.memoryUsage().rss;
      const response = await attach('bomb', fake.port);
      expect(response.status).toBe(409);
      expect(response.body.error?.code).toBe('TENANT_DATABASE_UNREACHABLE');
      // The client hung up: the fake server stopped writing long before its own 256 MiB bound.
      await fake.endlessDone();
      expect(fake.bytesWritten).toBeGreaterThan(MiB);
      expect(fake.bytesWritten).toBeLessThan(MiB + SOCKET_BUFFER_SLACK);
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(128 * MiB);
    } finally {
      await fake.close();
    }
  });

  it('caps every response of an attached database opened for requests, not only the check', async () => {
    const fake = await startFakeServer('endless');
    try {
      const row = { mode: 'attach' as const, db_url: `http://127.0.0.1:${fake.port}`, db_name: null };
      const database = await Database.open(mappingLocation(row, 'some-token', server.services.config));
      await expect(database.get('SELECT 1')).rejects.toThrow();
      await database.close();
      await fake.endlessDone();
      expect(fake.bytesWritten).toBeGreaterThan(MiB);
      expect(fake.bytesWritten).toBeLessThan(MiB + SOCKET_BUFFER_SLACK);
    } finally {
      await fake.close();
    }
  });

  it('without the configuration, caps at the default 8 MiB', async () => {
    const fake = await startFakeServer('endless');
    try {
      const row = { mode: 'attach' as const, db_url: `ws://127.0.0.1:${fake.port}`, db_name: null };
      const database = await Database.open(mappingLocation(row, 'some-token'));
      await expect(database.get('SELECT 1')).rejects.toThrow();
      await database.close();
      await fake.endlessDone();
      expect(fake.bytesWritten).toBeGreaterThan(8 * MiB);
      expect(fake.bytesWritten).toBeLessThan(8 * MiB + SOCKET_BUFFER_SLACK);
    } finally {
      await fake.close();
    }
  });
});
