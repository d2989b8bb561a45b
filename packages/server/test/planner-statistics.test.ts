import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Database } from '../src/store/database.js';
import { migrate } from '../src/store/migrate.js';
import { tenantMigrations } from '../src/store/migrations/tenant.js';
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

describe('planner statistics when a tenant database opens', () => {
  /** Opens the file as the resolver does (migrations, then the statistics at open) and counts the ANALYZEs run. */
  async function open(file: string): Promise<{ database: Database; analyses: number }> {
    const database = await Database.open({ url: `file:${file}` });
    await migrate(database, tenantMigrations);
    const run = vi.spyOn(database, 'run');
    await database.refreshStatisticsOnOpen('memories');
    const analyses = run.mock.calls.filter(([sql]) => sql === 'ANALYZE').length;
    run.mockRestore();
    return { database, analyses };
  }

  it('analyses a table that has rows and no statistics, then again only once it has doubled', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'statistics-on-open-'));
    const file = path.join(directory, 'tenant.db');
    const notes = (from: number, count: number) => Array.from({ length: count }, (_, index) => `Note ${from + index}`);
    try {
      const empty = await open(file);
      // Nothing to describe yet.
      expect(empty.analyses).toBe(0);
      await importNotes(empty.database, notes(0, 500));
      await empty.database.close();

      const first = await open(file);
      expect(first.analyses).toBe(1);
      const stats = await first.database.all<{ stat: string }>("SELECT stat FROM sqlite_stat1 WHERE tbl = 'memories'");
      expect(stats.length).toBeGreaterThan(0);
      await importNotes(first.database, notes(500, 300));
      await first.database.close();

      // 800 rows against statistics of 500: reopened without an ANALYZE (a reopened tenant pays one read for it).
      const unchanged = await open(file);
      expect(unchanged.analyses).toBe(0);
      await importNotes(unchanged.database, notes(800, 300));
      await unchanged.database.close();

      // 1,100: more than twice the 500 the statistics describe.
      const doubled = await open(file);
      expect(doubled.analyses).toBe(1);
      await doubled.database.close();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
