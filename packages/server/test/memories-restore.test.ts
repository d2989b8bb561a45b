import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../src/store/database.js';
import { MemoryStore } from '../src/store/memories.js';
import { migrate } from '../src/store/migrate.js';
import { tenantMigrations } from '../src/store/migrations/tenant.js';
import { createTestServer, type TestServer } from './harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});

async function search(query: string, scope: Record<string, string> = {}): Promise<string[]> {
  const found = await server.post<{ memories: Array<{ id: string }> }>('/memories/search', { query, scope });
  return found.memories.map((memory) => memory.id);
}

async function listed(scope: Record<string, string> = {}): Promise<string[]> {
  const found = await server.post<{ memories: Array<{ id: string }> }>('/memories/list', { scope });
  return found.memories.map((memory) => memory.id);
}

describe('memories/restore (an extension)', () => {
  it('undoes a forget: the memory is listed and found again, lexically and by hybrid search', async () => {
    const scope = { userId: 'restore-alice' };
    const { id } = await server.post<{ id: string }>('/memories/add', {
      content: 'The aardvark migration runs on Tuesdays',
      tags: ['ops'],
      scope,
    });
    await server.indexed();
    await server.post('/memories/forget', { id, scope });
    expect(await search('aardvark', scope)).toEqual([]);
    expect(await listed(scope)).not.toContain(id);

    const response = await server.call('POST', '/memories/restore', { id, scope });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      id,
      restored: true,
      message: expect.any(String),
      memory: { id, content: 'The aardvark migration runs on Tuesdays', tags: ['ops'], userId: 'restore-alice' },
    });
    expect(await search('aardvark', scope)).toEqual([id]);
    expect(await listed(scope)).toContain(id);
    await server.indexed();
    const hybrid = await server.post<{ memories: Array<{ id: string }> }>('/memories/search', {
      query: 'aardvark migration',
      strategy: 'hybrid',
      scope,
    });
    expect(hybrid.memories.map((memory) => memory.id)).toContain(id);

    const tenant = await server.services.resolver.resolve('default', null, new Date());
    const events = await tenant.database.all<{ kind: string }>(
      'SELECT kind FROM lifecycle_events WHERE subject_id = ? ORDER BY id',
      [id],
    );
    expect(events.map((event) => event.kind)).toEqual(['memory.created', 'memory.deleted', 'memory.restored']);
  });

  it('refuses a live memory with 409 MEMORY_NOT_DELETED', async () => {
    const { id } = await server.post<{ id: string }>('/memories/add', { content: 'still here' });
    const response = await server.call('POST', '/memories/restore', { id });
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({
      code: 'MEMORY_NOT_DELETED',
      type: 'validation_error',
      retryable: false,
      details: { id },
    });
  });

  it('answers 404 MEMORY_NOT_FOUND when absent, purged or not visible to the scope', async () => {
    const owner = { userId: 'restore-owner' };
    const { id } = await server.post<{ id: string }>('/memories/add', { content: 'private note', scope: owner });
    await server.post('/memories/forget', { id, scope: owner });
    for (const scope of [{ userId: 'restore-intruder' }, {}]) {
      const response = await server.call('POST', '/memories/restore', { id, scope });
      expect(response.status).toBe(404);
      expect(response.body.error?.code).toBe('MEMORY_NOT_FOUND');
    }
    expect((await server.call('POST', '/memories/restore', { id: 'ffffffffffff' })).body.error?.code).toBe(
      'MEMORY_NOT_FOUND',
    );
    await server.post('/memories/vacuum', { scope: owner });
    const purged = await server.call('POST', '/memories/restore', { id, scope: owner });
    expect(purged.status).toBe(404);
    expect(purged.body.error?.code).toBe('MEMORY_NOT_FOUND');
  });

  it('keeps the FTS entry and queues the memory for indexing in the same transaction', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'memory-restore-test-'));
    const database = await Database.open({ url: `file:${path.join(directory, 'tenant.db')}` });
    try {
      await migrate(database, tenantMigrations);
      const store = new MemoryStore(database);
      const scope = { tenantId: null, userId: null, projectId: null };
      const now = new Date('2030-01-01T00:00:00.000Z');
      const [row] = await store.insertMany([
        {
          memory: {
            content: 'zebra crossings need paint',
            type: 'note',
            layer: 'long_term',
            tags: [],
            paths: [],
            category: null,
            metadata: {},
            embeddingModel: null,
            expiresAt: null,
          },
          scope,
          now,
        },
      ]);
      const id = row!.id;
      expect(await store.softDelete(id, scope, now)).toBe(true);
      await database.run('DELETE FROM index_jobs');
      const restored = await store.restore(id, scope, now);
      expect(restored.outcome).toBe('restored');
      const jobs = await database.all<{ memory_id: string; kind: string }>('SELECT memory_id, kind FROM index_jobs');
      expect(jobs.map((job) => ({ ...job }))).toEqual([{ memory_id: id, kind: 'add' }]);
      const matches = await database.all<{ rowid: number }>(
        "SELECT rowid FROM memories_fts WHERE memories_fts MATCH 'zebra'",
      );
      expect(matches.map((match) => Number(match.rowid))).toEqual([Number(row!.seq)]);
      expect((await store.restore(id, scope, now)).outcome).toBe('not-deleted');
    } finally {
      database.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
