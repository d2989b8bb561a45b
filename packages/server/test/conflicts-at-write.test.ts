import { describe, expect, it } from 'vitest';
import { type Context, useConflictCases } from './conflict-cases.js';
import { connectMcp } from './harness.js';

// Issue 24, part 2: a reworded update or contradiction is found at write time (the indexer, next to the vector),
// context/get pairs the two in conflicts[] with why, and the newer is served above the older.

describe('conflicts found at write time', () => {
  const cases = useConflictCases('conflict-case');
  const { scope, add, context, ids } = cases;
  const server = () => cases.server;

  it('pairs a reworded update with the memory it changes, explains it, and serves the newer first', async () => {
    const team = scope();
    const older = await add('Deploys go out on Wednesdays after the standup.', team);
    const newer = await add('The team deploys on Fridays now.', team);
    for (const strategy of ['hybrid', 'lexical']) {
      const bundle = await context('when do we deploy?', team, strategy);
      expect(ids(bundle)).toEqual([newer, older]);
      expect(bundle.conflicts).toHaveLength(1);
      const [conflict] = bundle.conflicts ?? [];
      expect(conflict).toMatchObject({ memoryAId: older, memoryBId: newer, edgeType: 'contradicts' });
      expect(conflict?.confidence).toBeGreaterThan(0);
      expect(conflict?.explanation).toContain('wednesday before, friday now');
      expect(conflict?.explanation).toContain(`${newer} is the newer one`);
      expect(conflict?.suggestion).toContain(`Treat ${newer} as current`);
      expect(bundle.trace.conflictCount).toBe(1);
    }
  });

  it('finds a changed number of the same thing and a negation of the same words', async () => {
    const api = scope();
    const limit = await add('The API rate limit is 100 requests per minute.', api);
    const raised = await add('The API allows 500 requests per minute.', api);
    const limits = await context('API requests per minute', api);
    expect((limits.conflicts ?? []).map((pair) => [pair.memoryAId, pair.memoryBId])).toEqual([[limit, raised]]);

    const habits = scope();
    const drinks = await add('I drink coffee every morning.', habits);
    const quit = await add("I don't drink coffee anymore.", habits);
    const coffee = await context('do I drink coffee?', habits);
    expect((coffee.conflicts ?? []).map((pair) => [pair.memoryAId, pair.memoryBId])).toEqual([[drinks, quit]]);
    expect(ids(coffee).indexOf(quit)).toBeLessThan(ids(coffee).indexOf(drinks));
  });

  it('never pairs look-alikes: another subject in the same frame, many-valued facts, events on other days', async () => {
    const pairs: Array<[string, string, string]> = [
      ['The frontend deploys on Fridays.', 'The backend deploys on Mondays.', 'when does it deploy?'],
      ['My sister lives in Paris.', 'My brother lives in Rome.', 'where does my family live?'],
      ['I like tea.', 'I like hiking.', 'what do I like?'],
      ['I went running on Monday.', 'I went swimming on Tuesday.', 'when did I exercise?'],
      ['The staging server has 16 GB of memory.', 'The production server has 64 GB of memory.', 'server memory'],
      ['Rent is due on the 1st of each month.', 'The electricity bill is due on the 15th.', 'when is it due?'],
    ];
    for (const [first, second, query] of pairs) {
      const user = scope();
      const a = await add(first, user);
      const b = await add(second, user);
      const bundle = await context(query, user);
      expect(ids(bundle).sort(), first).toEqual([a, b].sort());
      expect(bundle.conflicts, `${first} / ${second}`).toEqual([]);
    }
  });

  it('takes the newer by when it happened, not by when it was written (an import of older history)', async () => {
    const user = scope();
    const current = await add('Our sprint planning happens on Tuesdays.', user, '2026-06-01T09:00:00Z');
    const earlier = await add('Our sprint planning happens on Mondays.', user, '2025-01-10T09:00:00Z');
    const bundle = await context('when is sprint planning?', user);
    expect((bundle.conflicts ?? []).map((pair) => [pair.memoryAId, pair.memoryBId])).toEqual([[earlier, current]]);
    expect(ids(bundle)).toEqual([current, earlier]);
  });

  it('supersedes at write time where the rule is sure: the same claim with another value', async () => {
    const user = scope();
    const post = async (content: string) =>
      (await server().post<{ id: string }>('/memories/add', { content, type: 'decision', scope: user })).id;
    const staging = await post('Deploy target: staging');
    const production = await post('Deploy target: production');
    const bundle = await context('deploy target', user);
    expect(ids(bundle)).toEqual([production]);
    const listed = await server().post<{ memories: Array<{ id: string; supersededBy: string | null }> }>(
      '/memories/list',
      { scope: user, limit: 10 },
    );
    expect(new Map(listed.memories.map((memory) => [memory.id, memory.supersededBy]))).toEqual(
      new Map([
        [staging, production],
        [production, null],
      ]),
    );
  });

  it('serves the same pair over MCP', async () => {
    const user = scope();
    const older = await add('The car insurance renews in March.', user);
    const newer = await add('Car insurance renewal is now in September.', user);
    await server().indexed();
    const client = await connectMcp(server(), 'conflicts-test');
    try {
      const result = await client.callTool({
        name: 'get_context',
        arguments: { query: 'when does the car insurance renew?', user_id: user.userId, strategy: 'hybrid' },
      });
      const data = (result.structuredContent as { data: Context }).data;
      expect((data.conflicts ?? []).map((pair) => [pair.memoryAId, pair.memoryBId])).toEqual([[older, newer]]);
      expect(ids(data).indexOf(newer)).toBeLessThan(ids(data).indexOf(older));
    } finally {
      await client.close();
    }
  });
});
