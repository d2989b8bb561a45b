import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryManagement } from '../src/index.js';
import { ADMIN_TOKEN, API_KEY, type MemoryServer, startMemoryServer } from './harness.js';

let server: MemoryServer;
beforeAll(async () => {
  server = await startMemoryServer();
});
afterAll(() => server.close());

describe('createMemoryManagement', () => {
  it('creates, lists and revokes keys with the admin token', async () => {
    const management = createMemoryManagement({ ...server.clientOptions, adminToken: ADMIN_TOKEN });
    const expiresAt = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString();
    const created = await management.keys.create({ expiresAt });
    expect(created.apiKey).toMatch(/^mem_[0-9a-f]{64}$/);

    const inventory = await management.keys.get();
    expect(inventory.keys.map((key) => key.id)).toContain(created.key.id);
    expect(JSON.stringify(inventory)).not.toContain(created.apiKey);

    await management.keys.revoke(created.key.id);
    const after = await management.keys.get();
    expect(after.keys.find((key) => key.id === created.key.id)?.status).toBe('revoked');
  });

  it('lists tenants and memory observability with an API key', async () => {
    const management = createMemoryManagement({ ...server.clientOptions, apiKey: API_KEY });
    await server.client.memories.add({ content: 'Tenant memory', scope: { tenantId: 'acme' } });

    const tenants = await management.tenants.list();
    expect(JSON.stringify(tenants)).toContain('acme');
    const memory = await management.observability.memory();
    expect(memory).toBeTypeOf('object');
  });

  it('refuses to start without a credential', () => {
    expect(() => createMemoryManagement({ baseUrl: 'http://memory.test' } as never)).toThrow(/apiKey or an adminToken/);
  });
});
