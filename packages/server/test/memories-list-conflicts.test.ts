import type { OperationData } from '@memory-service/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './harness.js';

// Issue 24, part 6: memories/list carries the contradicts pairs among the memories it lists (an additive field),
// so a console or an app sees a conflict beside each memory without a context/get.

type Listed = OperationData<'memories.list'>;

describe('memories/list conflicts', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer();
  });

  afterAll(async () => {
    await server.close();
  });

  it('pairs two conflicting listed memories once, older first, with why and what to do', async () => {
    const scope = { userId: 'list-conflicts' };
    const older = await server.post<{ id: string }>('/memories/add', {
      content: 'Deploys go out on Wednesdays after the standup.',
      scope,
      occurredAt: '2025-11-20T09:00:00Z',
    });
    const newer = await server.post<{ id: string }>('/memories/add', {
      content: 'The team deploys on Fridays now.',
      scope,
    });
    const unrelated = await server.post<{ id: string }>('/memories/add', {
      content: 'My sister lives in Paris.',
      scope,
    });
    await server.indexed();

    const listed = await server.post<Listed>('/memories/list', { scope });
    expect(listed.count).toBe(3);
    expect(listed.memories.map((memory) => memory.id)).toEqual([unrelated.id, newer.id, older.id]);
    expect(listed.conflicts).toHaveLength(1);
    const [conflict] = listed.conflicts ?? [];
    expect(conflict).toMatchObject({ memoryAId: older.id, memoryBId: newer.id, edgeType: 'contradicts' });
    expect(conflict?.explanation).toContain(`${newer.id} is the newer one`);
    expect(conflict?.suggestion).toContain(`Treat ${newer.id} as current`);
  });

  it('answers an empty conflicts array when the listed memories do not conflict or only one of a pair is listed', async () => {
    const scope = { userId: 'list-no-conflicts' };
    await server.post('/memories/add', { content: 'Deploys go out on Wednesdays after the standup.', scope });
    await server.post('/memories/add', { content: 'The team deploys on Fridays now.', scope });
    await server.indexed();
    expect((await server.post<Listed>('/memories/list', { scope, limit: 1 })).conflicts).toEqual([]);
    const alone = await server.post<Listed>('/memories/list', { scope: { userId: 'list-nobody' } });
    expect(alone).toEqual({ memories: [], count: 0, nextCursor: null, conflicts: [] });
  });
});
