import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/store/database.js';
import { GroupCommit } from '../src/store/group-commit.js';
import { workspaceDatabase } from './graph-test-helpers.js';
import { createTestServer, type TestServer } from './harness.js';

describe('GroupCommit', () => {
  it('runs a lone item at once and batches what arrives while a batch runs', async () => {
    const batches: number[][] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const committer = new GroupCommit<number, number>(async (items) => {
      batches.push(items);
      if (batches.length === 1) await gate;
      return items.map((item) => item * 10);
    }, 3);
    const first = committer.submit(1);
    const rest = [2, 3, 4, 5, 6].map((item) => committer.submit(item));
    expect(committer.backlog).toBe(5);
    release();
    expect(await Promise.all([first, ...rest])).toEqual([10, 20, 30, 40, 50, 60]);
    expect(batches).toEqual([[1], [2, 3, 4], [5, 6]]);
  });

  it('fails only the items of a failing batch', async () => {
    let calls = 0;
    const committer = new GroupCommit<string, string>(async (items) => {
      calls += 1;
      if (calls === 1) throw new Error('disk full');
      return items;
    }, 10);
    const first = committer.submit('a');
    const second = committer.submit('b');
    await expect(first).rejects.toThrow('disk full');
    expect(await second).toBe('b');
  });
});

describe('memories/add under concurrency', () => {
  let server: TestServer;
  let database: Database;
  beforeAll(async () => {
    server = await createTestServer();
    database = await workspaceDatabase(server);
  });
  afterAll(async () => {
    await server.close();
  });

  it('stores every concurrent add, then indexes its vector and graph, relating memories written together', async () => {
    const bodies = [
      ...Array.from({ length: 20 }, (_, index) => ({ content: `Concurrent note ${index} about the ingest pipeline` })),
      { content: 'Release train: Tuesdays', type: 'decision' },
      { content: 'Release train: Thursdays', type: 'decision' },
    ];
    const responses = await Promise.all(bodies.map((body) => server.call('POST', '/memories/add', body)));
    expect(responses.map((response) => response.status)).toEqual(bodies.map(() => 201));
    const ids = responses.map((response) => String(response.body.data?.id));
    expect(new Set(ids).size).toBe(bodies.length);
    // Vectors and graph edges follow from the index jobs the adds committed.
    await server.indexed();
    const placeholders = ids.map(() => '?').join(', ');
    const stored = await database.get<{ count: number }>(
      `SELECT COUNT(*) AS count FROM memories WHERE id IN (${placeholders})`,
      ids,
    );
    expect(Number(stored?.count)).toBe(bodies.length);
    const linked = await database.get<{ count: number }>(
      `SELECT COUNT(DISTINCT label) AS count FROM graph_nodes WHERE type = 'memory' AND label IN (${placeholders})`,
      ids,
    );
    expect(Number(linked?.count)).toBe(bodies.length);
    const embedded = await database.get<{ count: number }>(
      `SELECT COUNT(*) AS count FROM embedding_jobs WHERE status = 'succeeded' AND memory_id IN (${placeholders})`,
      ids,
    );
    expect(Number(embedded?.count)).toBe(bodies.length);
    // Writers that arrived together shared embedding calls: fewer provider requests than memories, all items metered.
    const usage = await database.get<{ requests: number; items: number }>(
      'SELECT SUM(request_count) AS requests, SUM(item_count) AS items FROM embedding_usage',
    );
    expect(Number(usage?.items)).toBe(bodies.length);
    expect(Number(usage?.requests)).toBeLessThan(bodies.length);
    const [tuesdays, thursdays] = ids.slice(-2) as [string, string];
    const contradiction = await database.all<{ source_memory_id: string; target_memory_id: string }>(
      `SELECT source_memory_id, target_memory_id FROM graph_edges WHERE edge_type = 'contradicts'
        AND source_memory_id IN (?, ?) AND target_memory_id IN (?, ?)`,
      [tuesdays, thursdays, tuesdays, thursdays],
    );
    expect(contradiction).toHaveLength(1);
  });

  it('acknowledges an add without waiting for the reads queued before it (its row comes with its commit)', async () => {
    // A first add: the caller's key and the tenant are known, so the next add needs no read of the control database.
    expect((await server.call('POST', '/memories/add', { content: 'Written before the reads' })).status).toBe(201);
    // Slow reads of the same tenant fill both database workers and wait in the queue of reads any worker serves.
    const count =
      'WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1500000) SELECT count(*) FROM n';
    const slowRead = `SELECT (${count}) AS c`;
    const finished: string[] = [];
    const reads = Array.from({ length: 12 }, (_, index) =>
      database.all(slowRead).then(() => {
        finished.push(`read ${index}`);
      }),
    );
    const add = server.call('POST', '/memories/add', { content: 'Written while the tenant is busy reading' });
    const response = await add;
    finished.push('add');
    await Promise.all(reads);
    expect(response.status).toBe(201);
    expect((response.body.data?.memory as { content?: string } | undefined)?.content).toBe(
      'Written while the tenant is busy reading',
    );
    // An add's write runs next on its database's worker: it waits for the statement running there, never for the
    // queued reads (a read of its row after the commit would have queued behind all of them).
    expect(finished.indexOf('add')).toBeLessThan(8);
  });
});
