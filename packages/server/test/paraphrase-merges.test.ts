import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './harness.js';

// Issue 24, part 1: a fact restated in other words is merged by consolidation on strong evidence (the indexer marks
// the memory's nearest neighbour when every word agrees once derivation and synonyms are folded), never two
// different facts that look alike.

interface Run {
  supersededMemoryIds: string[];
}

describe('consolidation of restatements in other words', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer();
  });

  afterAll(async () => {
    await server.close();
  });

  const add = async (content: string, userId: string, occurredAt: string) =>
    (await server.post<{ id: string }>('/memories/add', { content, scope: { userId }, occurredAt })).id;
  const consolidate = async (userId: string) => {
    await server.indexed();
    return server.post<Run>('/memories/consolidate', { scope: { userId } });
  };
  const live = async (userId: string) =>
    (
      await server.post<{ memories: Array<{ id: string; supersededBy: string | null }> }>('/memories/list', {
        scope: { userId },
        limit: 100,
      })
    ).memories
      .filter((memory) => memory.supersededBy === null)
      .map((memory) => memory.id)
      .sort();

  it('merges a restatement into the newer memory', async () => {
    const pairs: Array<[string, string]> = [
      ["I'm allergic to penicillin.", 'I have a penicillin allergy.'],
      ['My brother Tomas lives in Porto.', 'Tomas, my brother, is based in Porto.'],
    ];
    for (const [index, [first, second]] of pairs.entries()) {
      const user = `restated-${index}`;
      const older = await add(first, user, '2026-01-10T09:00:00Z');
      await add('The spare key is under the blue flowerpot.', user, '2026-01-20T09:00:00Z');
      const newer = await add(second, user, '2026-02-10T09:00:00Z');
      const run = await consolidate(user);
      expect(run.supersededMemoryIds, first).toEqual([older]);
      expect(await live(user)).toContain(newer);
      expect(await live(user)).not.toContain(older);
    }
  });

  it('keeps look-alikes: another person, another animal, roles swapped, a negation, one word more', async () => {
    const pairs: Array<[string, string]> = [
      ['Tom is allergic to kiwi.', 'Tim is allergic to kiwi.'],
      ['Pip, the dog, is 9.', 'Pip, the cat, is 9.'],
      ['Alice reports to Ben.', 'Ben reports to Alice.'],
      ["I'm allergic to penicillin.", "I'm not allergic to penicillin."],
      ['I have a penicillin allergy.', 'I have a mild penicillin allergy.'],
    ];
    for (const [index, [first, second]] of pairs.entries()) {
      const user = `lookalike-restated-${index}`;
      const a = await add(first, user, '2026-01-10T09:00:00Z');
      const b = await add(second, user, '2026-02-10T09:00:00Z');
      await consolidate(user);
      expect(await live(user), first).toEqual([a, b].sort());
    }
  });
});
