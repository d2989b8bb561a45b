import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/server.js';
import { createTestServer, TEST_KEY } from './harness.js';
import { startSqld } from './sqld.js';

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

describe('durability across restarts', () => {
  it('keeps memories, tenants and keys after the server restarts on the same data dir', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-restart-'));
    directories.push(dataDir);
    const first = await createTestServer({}, dataDir);
    const { id } = await first.post<{ id: string }>('/memories/add', {
      content: 'persistent octopus memory',
      scope: { tenantId: 'acme' },
    });
    await first.post('/memories/add', { content: 'workspace octopus memory' });
    await first.close();
    const second = await createTestServer({}, dataDir);
    try {
      const tenant = await second.post<{ memories: Array<{ id: string }> }>('/memories/search', {
        query: 'octopus',
        scope: { tenantId: 'acme' },
      });
      expect(tenant.memories.map((memory) => memory.id)).toEqual([id]);
      const workspace = await second.post<{ count: number }>('/memories/search', { query: 'octopus' });
      expect(workspace.count).toBe(1);
      expect(await second.services.control.countKeys()).toBe(1);
    } finally {
      await second.close();
    }
  });
});

describe('a remote libSQL server', () => {
  it('runs the memories flow against sqld via MEMORY_DEFAULT_DB_URL', async () => {
    const sqld = await startSqld();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-remote-'));
    directories.push(dataDir);
    const server = await startServer(
      {
        host: '127.0.0.1',
        port: 0,
        dataDir,
        bootstrapApiKey: TEST_KEY,
        logLevel: 'silent',
        rateLimitPerMinute: 0,
        ipRateLimitPerMinute: 0,
      },
      { environment: { MEMORY_DEFAULT_DB_URL: sqld.url } },
    );
    const call = async (route: string, body: unknown) => {
      const response = await fetch(`${server.url}/api/sdk/v1${route}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return {
        status: response.status,
        body: (await response.json()) as { ok: boolean; data: Record<string, unknown> },
      };
    };
    try {
      const added = await call('/memories/add', { content: 'remote databases hold sea otters', tags: ['remote'] });
      expect(added.status).toBe(201);
      const id = added.body.data.id as string;
      const search = await call('/memories/search', { query: 'otters' });
      expect((search.body.data.memories as Array<{ id: string }>).map((memory) => memory.id)).toEqual([id]);
      expect((await call('/memories/edit', { id, content: 'remote databases hold river otters' })).status).toBe(200);
      const context = await call('/context/get', { query: 'river otters' });
      expect((context.body.data.memories as Array<{ id: string }>)[0]!.id).toBe(id);
      expect((await call('/memories/forget', { id })).status).toBe(200);
      expect((await call('/memories/vacuum', {})).body.data.purged).toBe(1);
      // The rows really live in sqld, not in a local file.
      const direct = await fetch(`${sqld.url}/v2/pipeline`, {
        method: 'POST',
        body: JSON.stringify({
          requests: [{ type: 'execute', stmt: { sql: 'SELECT count(*) FROM schema_migrations' } }, { type: 'close' }],
        }),
      });
      const pipeline = (await direct.json()) as {
        results: Array<{ response?: { result?: { rows: Array<Array<{ value: string }>> } } }>;
      };
      expect(Number(pipeline.results[0]!.response!.result!.rows[0]![0]!.value)).toBeGreaterThan(0);
    } finally {
      await server.close();
      await sqld.stop();
    }
  });
});
