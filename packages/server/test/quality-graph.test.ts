import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRolloutMode, workspaceDatabase } from './graph-test-helpers.js';
import { createTestServer, type TestServer } from './harness.js';

type Bundle = {
  memories: Array<{ id: string; graph?: { edgeType: string } }>;
  conflicts: Array<{ memoryAId: string; memoryBId: string }>;
};

/** Each question: the memory that answers it directly, and a linked memory sharing no query word with it. */
const FIXTURE = [
  {
    query: 'failed charges retried',
    direct: { content: 'The billing service retries failed charges three times', tags: ['billing'] },
    linked: { content: 'Finance owns the dunning emails', tags: ['billing'] },
    via: 'has_topic',
  },
  {
    query: 'database migrations reviewed',
    direct: { content: 'Database migrations are reviewed by Priya' },
    linked: { content: 'On-call escalations go to Priya until June' },
    via: 'mentions',
  },
  {
    query: 'march outage cause',
    direct: { content: 'The March outage cause was a missing index on orders' },
    linked: { content: 'Add an index before every large backfill', causedByDirect: true },
    via: 'caused_by',
  },
] as const;
const DISTRACTORS = [
  'The office plant needs water on Mondays',
  'Lunch is at noon on Fridays',
  'Parking passes renew in January',
];

let server: TestServer;
const direct: string[] = [];
const linked: string[] = [];
const distractors: string[] = [];
// Each memory is indexed (vector, graph edges) before the next is written, as the expectations below assume.
const add = async (body: Record<string, unknown>) => {
  const { id } = await server.post<{ id: string }>('/memories/add', body);
  await server.indexed();
  return id;
};

beforeAll(async () => {
  server = await createTestServer();
  for (const item of FIXTURE) {
    const directId = await add({ ...item.direct });
    direct.push(directId);
    const { causedByDirect, ...body } = { causedByDirect: false, ...item.linked };
    linked.push(await add(causedByDirect ? { ...body, metadata: { causedBy: directId } } : body));
  }
  for (const content of DISTRACTORS) distractors.push(await add({ content, tags: ['office'] }));
});
afterAll(async () => {
  await server.close();
});

async function recall(strategy: 'lexical' | 'hybrid'): Promise<{ found: number; bundles: Bundle[] }> {
  let found = 0;
  const bundles: Bundle[] = [];
  for (const [index, item] of FIXTURE.entries()) {
    const bundle = await server.post<Bundle>('/context/get', { query: item.query, strategy, limit: 3 });
    const returned = new Set(bundle.memories.map((memory) => memory.id));
    found += [direct[index], linked[index]].filter((id) => id !== undefined && returned.has(id)).length;
    for (const id of distractors) expect(returned.has(id)).toBe(false);
    bundles.push(bundle);
  }
  return { found, bundles };
}

describe('retrieval quality on a small linked fixture', () => {
  it('graph expansion brings in the linked memory lexical retrieval alone misses', async () => {
    const lexical = await recall('lexical');
    expect(lexical.found / 6).toBe(0.5);
    await setRolloutMode(server, await workspaceDatabase(server), 'canary');
    const graph = await recall('hybrid');
    expect(graph.found / 6).toBe(1);
    for (const [index, item] of FIXTURE.entries()) {
      const expanded = graph.bundles[index]?.memories.find((memory) => memory.id === linked[index]);
      expect(expanded?.graph?.edgeType).toBe(item.via);
    }
  });

  it('consolidation keeps the newest truth: the superseded statement is no longer served', async () => {
    // Notes: the indexer marks the conflict and leaves superseding to consolidation (a decision it would supersede).
    const older = await add({ content: 'Standup time: 9:30 in the small room', type: 'note' });
    const newer = await add({ content: 'Standup time: 10:00 on video', type: 'note' });
    const before = await server.post<Bundle>('/context/get', { query: 'standup', strategy: 'hybrid' });
    expect(before.memories.map((memory) => memory.id).sort()).toEqual([older, newer].sort());
    expect(before.conflicts).toEqual([expect.objectContaining({ memoryAId: older, memoryBId: newer })]);
    await server.post('/memories/consolidate', {});
    for (const strategy of ['lexical', 'hybrid'] as const) {
      const after = await server.post<Bundle>('/context/get', {
        query: 'standup time 9:30 small room',
        strategy,
        graphDepth: 2,
      });
      expect(after.memories.map((memory) => memory.id)).toContain(newer);
      expect(after.memories.map((memory) => memory.id)).not.toContain(older);
      expect(after.conflicts).toEqual([]);
    }
  });
});
