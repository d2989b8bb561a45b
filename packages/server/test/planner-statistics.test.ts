import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/store/database.js';
import { importNotes, workspaceDatabase } from './graph-test-helpers.js';
import { createTestServer, type TestServer } from './harness.js';

describe('planner statistics on tenant databases', () => {
  let server: TestServer;
  let database: Database;
  beforeAll(async () => {
    server = await createTestServer();
    database = await workspaceDatabase(server);
  });
  afterAll(async () => {
    await server.close();
  });

  it('keeps statistics, so newest-first reads of a large shared scope walk the recency index', async () => {
    await importNotes(
      database,
      Array.from({ length: 3_000 }, (_, index) => `Generated note ${index}`),
      (index) => new Date(Date.UTC(2026, 0, 1) + index * 60_000),
    );
    // Statistics taken when the database was empty are refreshed once they are an hour old.
    await database.refreshStatistics(Date.now() + 2 * 60 * 60 * 1000);
    const plan = await database.all<{ detail: string }>(
      `EXPLAIN QUERY PLAN SELECT m.seq FROM memories m
        WHERE m.deleted_at IS NULL AND m.superseded_by IS NULL AND m.user_id IS NULL AND m.project_id IS NULL
        ORDER BY m.created_at DESC, m.seq DESC LIMIT 20`,
    );
    expect(plan.map((row) => row.detail)).toEqual(['SCAN m USING INDEX memories_recent']);
    const context = await server.post<{ memories: Array<{ content: string }>; trace: { fallbackReason: string } }>(
      '/context/get',
      { query: 'qwertyuiop', limit: 3 },
    );
    expect(context.trace.fallbackReason).toBe('no_match_recency_fallback');
    expect(context.memories.map((memory) => memory.content)).toEqual([
      'Generated note 2999',
      'Generated note 2998',
      'Generated note 2997',
    ]);
  });
});
