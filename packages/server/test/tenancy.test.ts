import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});

async function addIn(scope: Record<string, string>, content: string): Promise<string> {
  const data = await server.post<{ id: string }>('/memories/add', { content, scope });
  return data.id;
}

describe('tenant isolation', () => {
  it('keeps a memory of tenant A invisible to and undeletable from tenant B and the default database', async () => {
    const id = await addIn({ tenantId: 'tenant-a' }, 'secret plan for narwhals');
    for (const scope of [{ tenantId: 'tenant-b' }, {}]) {
      const search = await server.post<{ count: number }>('/memories/search', { query: 'narwhals', scope });
      expect(search.count).toBe(0);
      const list = await server.post<{ memories: Array<{ id: string }> }>('/memories/list', { scope });
      expect(list.memories.map((memory) => memory.id)).not.toContain(id);
      expect((await server.call('POST', '/memories/forget', { id, scope })).status).toBe(404);
      expect((await server.call('POST', '/memories/edit', { id, content: 'hijack', scope })).status).toBe(404);
      const bulk = await server.post<{ count: number }>('/memories/bulk-forget', { all: true, scope });
      expect(bulk.count).toBe(0);
    }
    const own = await server.post<{ memories: Array<{ id: string; content: string }> }>('/memories/search', {
      query: 'narwhals',
      scope: { tenantId: 'tenant-a' },
    });
    expect(own.memories.map((memory) => memory.id)).toEqual([id]);
  });

  it('gives each tenant its own database file', async () => {
    await addIn({ tenantId: 'tenant-b' }, 'tenant b writes its own memory');
    const mappings = await server.services.registry.list('default');
    const a = mappings.find((row) => row.tenant_id === 'tenant-a');
    const b = mappings.find((row) => row.tenant_id === 'tenant-b');
    expect(a?.db_url).toMatch(/^file:.*tenant-a-[0-9a-f]{12}\.db$/);
    expect(a?.source).toBe('auto');
    expect(b?.db_url).toMatch(/^file:.*tenant-b-[0-9a-f]{12}\.db$/);
    expect(b?.db_url).not.toBe(a?.db_url);
  });
});

describe('user and project visibility', () => {
  it('shows a user their own and shared memories, never another user’s', async () => {
    const tenant = { tenantId: 'visibility' };
    const alice = await addIn({ ...tenant, userId: 'alice' }, 'alice likes walruses');
    const shared = await addIn(tenant, 'everyone knows walruses have tusks');
    const bob = await addIn({ ...tenant, userId: 'bob' }, 'bob fears walruses');
    const ids = async (scope: Record<string, string>) =>
      (
        await server.post<{ memories: Array<{ id: string }> }>('/memories/search', { query: 'walruses', scope })
      ).memories
        .map((memory) => memory.id)
        .sort();
    expect(await ids({ ...tenant, userId: 'alice' })).toEqual([alice, shared].sort());
    expect(await ids({ ...tenant, userId: 'bob' })).toEqual([bob, shared].sort());
    expect(await ids(tenant)).toEqual([shared]);
    expect(
      (await server.call('POST', '/memories/forget', { id: alice, scope: { ...tenant, userId: 'bob' } })).status,
    ).toBe(404);
    expect((await server.call('POST', '/memories/forget', { id: alice, scope: tenant })).status).toBe(404);
    const bulk = await server.post<{ count: number }>('/memories/bulk-forget', {
      all: true,
      dryRun: true,
      scope: { ...tenant, userId: 'alice' },
    });
    expect(bulk.count).toBe(1);
  });

  it('narrows by projectId: a project sees its own and global memories', async () => {
    const tenant = { tenantId: 'projects' };
    const repoA = await addIn({ ...tenant, projectId: 'github.com/acme/a' }, 'repo a uses pnpm workspaces');
    const global = await addIn(tenant, 'all repos use pnpm');
    await addIn({ ...tenant, projectId: 'github.com/acme/b' }, 'repo b uses pnpm too');
    const found = await server.post<{ memories: Array<{ id: string }> }>('/memories/search', {
      query: 'pnpm',
      scope: { ...tenant, projectId: 'github.com/acme/a' },
    });
    expect(found.memories.map((memory) => memory.id).sort()).toEqual([repoA, global].sort());
  });
});

describe('tenant resolution errors', () => {
  it('answers TENANT_DATABASE_NOT_CONFIGURED when auto-provision is off', async () => {
    const strict = await createTestServer({ tenantAutoProvision: false });
    try {
      const response = await strict.call('POST', '/memories/list', { scope: { tenantId: 'unknown' } });
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ code: 'TENANT_DATABASE_NOT_CONFIGURED', type: 'not_found_error' });
      expect((await strict.call('POST', '/memories/list', {})).status).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it('answers NOT_READY, CREDENTIALS_MISSING and DATABASE_NOT_CONFIGURED from the mapping state', async () => {
    const now = new Date().toISOString();
    const base = {
      owner_id: 'default',
      source: 'override' as const,
      db_token_encrypted: null,
      db_name: null,
      metadata: '{}',
      last_error: null,
      created_at: now,
      updated_at: now,
    };
    await server.services.registry.save({
      ...base,
      tenant_id: 'warming',
      mode: 'provision',
      status: 'provisioning',
      db_url: null,
    });
    await server.services.registry.save({
      ...base,
      tenant_id: 'remote',
      mode: 'attach',
      status: 'ready',
      db_url: 'libsql://example.invalid',
    });
    await server.services.registry.save({
      ...base,
      tenant_id: 'off',
      mode: 'provision',
      status: 'disabled',
      db_url: 'file:/nonexistent.db',
    });
    const warming = await server.call('POST', '/memories/list', { scope: { tenantId: 'warming' } });
    expect(warming.status).toBe(409);
    expect(warming.body.error).toMatchObject({ code: 'TENANT_DATABASE_NOT_READY', retryable: true });
    const remote = await server.call('POST', '/memories/list', { scope: { tenantId: 'remote' } });
    expect(remote.status).toBe(404);
    expect(remote.body.error!.code).toBe('TENANT_DATABASE_CREDENTIALS_MISSING');
    const disabled = await server.call('POST', '/memories/list', { scope: { tenantId: 'off' } });
    expect(disabled.body.error!.code).toBe('TENANT_DATABASE_NOT_CONFIGURED');
    await server.services.control.database.run("UPDATE owners SET workspace_db_url = NULL WHERE id = 'default'");
    server.services.control.clearCaches();
    try {
      const workspace = await server.call('POST', '/memories/list', {});
      expect(workspace.status).toBe(400);
      expect(workspace.body.error!.code).toBe('DATABASE_NOT_CONFIGURED');
    } finally {
      await server.services.control.database.run("UPDATE owners SET workspace_db_url = ? WHERE id = 'default'", [
        server.services.config.defaultDbUrl,
      ]);
      server.services.control.clearCaches();
    }
  });
});
