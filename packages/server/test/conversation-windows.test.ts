import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EMBEDDING_MODEL } from '../src/embedding-models/default-model.js';
import { createTestServer, type TestServer } from './harness.js';

// Hybrid reads each memory with the memories said around it (`retrieval/conversation-window.ts`): a reply that names
// its subject in none of its own words is found through the turns around it, while a memory said on its own is ranked
// by its own words only.

/** One conversation, a minute between turns; the third turn answers without naming who climbed what. */
const CONVERSATION = [
  'Priya: The kids climbed all 212 steps on Saturday!',
  'Tom: Wow, which one was it?',
  'Priya: The old lighthouse out at the cape.',
  'Tom: Ha, sounds like a great day out.',
];
const ANSWER = 2;
/** Said on other days, each followed a minute later by a reply: each shares a word or two with the question. */
const OTHER_DAYS = [
  'Tom: The kids climb trees all day at the park.',
  'Priya: The lighthouse keeper cottage is a café now.',
  'Tom: The kids have a dentist appointment on Thursday.',
  'Priya: I would like to repaint the kitchen before summer.',
  'Tom: The car needs new tyres before the road trip.',
  'Priya: Our book club meets on the first Monday of the month.',
];
const REPLIES = ['Oh, good to know.', 'Really? Since when?', 'Fair enough.', 'Nice, tell me more later.'];
const QUESTION = 'Which lighthouse did the kids climb?';

let server: TestServer;
const ids: Record<string, string[]> = { conversation: [], apart: [] };

async function add(content: string, occurredAt: string, userId: string): Promise<string> {
  return (await server.post<{ id: string }>('/memories/add', { content, occurredAt, scope: { userId } })).id;
}

beforeAll(async () => {
  server = await createTestServer({ embeddingModel: DEFAULT_EMBEDDING_MODEL });
  for (const [userId, key] of [
    ['priya', 'conversation'],
    ['ines', 'apart'],
  ] as const) {
    // Each of the other days is a short exchange too: a statement and a reply a minute later.
    for (const [index, content] of OTHER_DAYS.entries()) {
      const day = `2025-02-${String(index + 10).padStart(2, '0')}`;
      await add(content, `${day}T18:00:00Z`, userId);
      await add(REPLIES[index % REPLIES.length] ?? '', `${day}T18:01:00Z`, userId);
    }
    // The same four turns; for `apart` each is said on a day of its own, so none is read with the others.
    for (const [index, content] of CONVERSATION.entries()) {
      const said = key === 'conversation' ? `2025-03-01T10:0${index}:00Z` : `2025-03-0${index + 1}T10:00:00Z`;
      ids[key]?.push(await add(content, said, userId));
    }
  }
  await server.indexed();
});
afterAll(async () => {
  await server.close();
});

async function rankOf(id: string | undefined, userId: string, query: string): Promise<number> {
  const result = await server.post<{ memories: Array<{ id: string }> }>('/memories/search', {
    query,
    strategy: 'hybrid',
    limit: 10,
    scope: { userId },
  });
  return result.memories.findIndex((memory) => memory.id === id);
}

describe('hybrid reads a memory with the conversation around it', () => {
  it('finds a reply that names the answer through the turns around it that name the question', async () => {
    const rank = await rankOf(ids.conversation?.[ANSWER], 'priya', QUESTION);
    const result = await server.post<{ memories: Array<{ content: string }> }>('/memories/search', {
      query: QUESTION,
      strategy: 'hybrid',
      limit: 10,
      scope: { userId: 'priya' },
    });
    const trees = result.memories.findIndex((memory) => memory.content.includes('climb trees'));
    expect(rank).toBeGreaterThanOrEqual(0);
    expect(rank).toBeLessThan(2);
    expect(trees === -1 || rank < trees).toBe(true);
  });

  it('ranks the same words said on their own by what they say only', async () => {
    // Said apart, "The old lighthouse out at the cape." holds one word of the question; the memory about the kids
    // climbing trees holds two.
    const apart = await rankOf(ids.apart?.[ANSWER], 'ines', QUESTION);
    const trees = await server.post<{ memories: Array<{ content: string }> }>('/memories/search', {
      query: QUESTION,
      strategy: 'hybrid',
      limit: 10,
      scope: { userId: 'ines' },
    });
    const treesRank = trees.memories.findIndex((memory) => memory.content.includes('climb trees'));
    expect(treesRank).toBeGreaterThanOrEqual(0);
    expect(apart === -1 || apart > treesRank).toBe(true);
  });

  it('puts the turn that holds the words above the replies around it', async () => {
    const result = await server.post<{ memories: Array<{ id: string }> }>('/memories/search', {
      query: 'How many steps did the kids climb on Saturday?',
      strategy: 'hybrid',
      limit: 5,
      scope: { userId: 'priya' },
    });
    expect(result.memories[0]?.id).toBe(ids.conversation?.[0]);
  });
});
