import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/store/database.js';
import { contradictionPairs, type MemoryPair, unrelatedPairs } from './fixtures/consolidation-pairs.js';
import { pinClock, workspaceDatabase } from './graph-test-helpers.js';
import { createTestServer, type TestServer } from './harness.js';

// Consolidation supersedes only a memory that states the same subject: unrelated memories that merely share a label or
// a category both stay ("Decision: the company logo is blue" must not lose to "Decision: backups run nightly at 2am").
// Runs the corpus of fixtures/consolidation-pairs.ts end to end over HTTP, each pair in a project of its own.

type Run = { winnerMemoryIds: string[]; supersededMemoryIds: string[]; run: { supersededCount: number } };
type Listed = { id: string; supersededBy: string | null };

let server: TestServer;
let database: Database;
let clock = new Date('2026-04-01T08:00:00.000Z').getTime();

async function add(pair: MemoryPair, content: string, projectId: string): Promise<string> {
  clock += 60_000;
  pinClock(server, new Date(clock));
  const body = {
    content,
    type: pair.type,
    scope: { projectId },
    ...(pair.category ? { category: pair.category } : {}),
  };
  return (await server.post<{ id: string }>('/memories/add', body)).id;
}

async function consolidatePair(pair: MemoryPair, projectId: string) {
  const older = await add(pair, pair.older, projectId);
  const newer = await add(pair, pair.newer, projectId);
  const result = await server.post<Run>('/memories/consolidate', { scope: { projectId }, includeGlobal: false });
  const listed = await server.post<{ memories: Listed[] }>('/memories/list', { scope: { projectId }, limit: 10 });
  const supersededBy = new Map(listed.memories.map((memory) => [memory.id, memory.supersededBy]));
  const edges = await database.all<{ source_memory_id: string; target_memory_id: string; edge_type: string }>(
    `SELECT source_memory_id, target_memory_id, edge_type FROM graph_edges
      WHERE origin = 'consolidation' AND source_memory_id IN (?, ?) ORDER BY edge_type`,
    [older, newer],
  );
  return { older, newer, result, supersededBy, edges };
}

beforeAll(async () => {
  server = await createTestServer();
  database = await workspaceDatabase(server);
});
afterAll(async () => {
  await server.close();
});

describe('consolidation corpus: unrelated memories are both kept', () => {
  it('has at least 15 same-label or same-category pairs', () => {
    expect(unrelatedPairs.length).toBeGreaterThanOrEqual(15);
  });

  it.each(unrelatedPairs.map((pair, index) => [pair.why, pair, index] as const))(
    'keeps both: %s',
    async (_why, pair, index) => {
      const { older, newer, result, supersededBy, edges } = await consolidatePair(pair, `unrelated-${index}`);
      expect(result.supersededMemoryIds).toEqual([]);
      expect(result.run.supersededCount).toBe(0);
      expect(supersededBy.get(older)).toBeNull();
      expect(supersededBy.get(newer)).toBeNull();
      expect(edges).toEqual([]);
    },
  );
});

describe('consolidation corpus: real contradictions supersede the older statement', () => {
  it('has at least 10 contradicting pairs', () => {
    expect(contradictionPairs.length).toBeGreaterThanOrEqual(10);
  });

  it.each(contradictionPairs.map((pair, index) => [pair.why, pair, index] as const))(
    'supersedes the older: %s',
    async (_why, pair, index) => {
      const { older, newer, result, supersededBy, edges } = await consolidatePair(pair, `contradiction-${index}`);
      expect(result.winnerMemoryIds).toEqual([newer]);
      expect(result.supersededMemoryIds).toEqual([older]);
      // Kept as history: listed, pointing at the newer statement, with supersedes and contradicts edges.
      expect(supersededBy.get(older)).toBe(newer);
      expect(supersededBy.get(newer)).toBeNull();
      expect(edges).toEqual([
        { source_memory_id: newer, target_memory_id: older, edge_type: 'contradicts' },
        { source_memory_id: newer, target_memory_id: older, edge_type: 'supersedes' },
      ]);
    },
  );
});

describe('write-time contradiction edges use the same subjects', () => {
  it('does not flag the reported pair, and flags a real contradiction', async () => {
    const extractionEdges = async (ids: string[]) =>
      database.all<{ edge_type: string }>(
        `SELECT edge_type FROM graph_edges WHERE origin = 'extraction' AND edge_type = 'contradicts'
          AND source_memory_id IN (?, ?) AND target_memory_id IN (?, ?)`,
        [...ids, ...ids],
      );
    const reported = unrelatedPairs[0] as MemoryPair;
    const logo = await add(reported, reported.older, 'graph-check');
    const backups = await add(reported, reported.newer, 'graph-check');
    const real = contradictionPairs[0] as MemoryPair;
    const fridays = await add(real, real.older, 'graph-check');
    const mondays = await add(real, real.newer, 'graph-check');
    await server.indexed();
    expect(await extractionEdges([logo, backups])).toEqual([]);
    expect(await extractionEdges([fridays, mondays])).toEqual([{ edge_type: 'contradicts' }]);
  });
});
