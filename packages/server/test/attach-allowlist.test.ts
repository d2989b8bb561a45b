import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createTestServer, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer({ attachAllowedHosts: ['db.internal.example'] });
});
afterAll(async () => {
  await server.close();
});

describe('MEMORY_ATTACH_ALLOWED_HOSTS', () => {
  it('parses a comma-separated, case-insensitive host list', () => {
    expect(loadConfig({ MEMORY_ATTACH_ALLOWED_HOSTS: ' DB.one.example, two.example ,' }).attachAllowedHosts).toEqual([
      'db.one.example',
      'two.example',
    ]);
    expect(loadConfig({}).attachAllowedHosts).toEqual([]);
  });

  it('refuses to attach (or even contact) a host outside the allowlist, and saves nothing', async () => {
    const response = await server.call('POST', '/management/tenant-overrides', {
      tenantId: 'ssrf',
      mode: 'attach',
      attachDbUrl: 'http://169.254.169.254/latest',
      attachDbToken: 'token',
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'attachDbUrl' } });
    expect(await server.services.registry.find('default', 'ssrf')).toBeUndefined();
  });
});
