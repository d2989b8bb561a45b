import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './harness.js';

// Issue 24 ("lexical never below plain BM25"): two readings of a query's time words that cost the answer. The present
// tense ("now", "these days") is not an ordering request, and a month that names the event is matched by the memory
// that names it, not only by the memories said in that month.

type Loose = Record<string, any>;
type Strategy = 'lexical' | 'hybrid';

let server: TestServer;
const ids: Record<string, string> = {};
const tenantId = 'time-words';

// The answers were said first; later memories share a word with the questions and answer neither.
const memories: Record<string, { content: string; occurredAt: string }> = {
  camera: { content: 'I bought a Fuji X-T5 camera with a 35mm lens for the trip.', occurredAt: '2025-02-03T10:00:00Z' },
  cameraLater: {
    content: 'My brother still uses an old Canon camera from the nineties, with a cracked screen and a strap he sewed.',
    occurredAt: '2025-06-20T10:00:00Z',
  },
  race: {
    content: 'I signed up for the Riverside half marathon in August, my first race in years.',
    occurredAt: '2025-03-10T10:00:00Z',
  },
  augustRun: {
    content: 'Long run this morning before work, ten miles on the training plan.',
    occurredAt: '2025-08-02T07:00:00Z',
  },
};

beforeAll(async () => {
  server = await createTestServer();
  for (const [key, memory] of Object.entries(memories))
    ids[key] = (await server.post<{ id: string }>('/memories/add', { ...memory, scope: { tenantId } })).id;
  await server.indexed();
});
afterAll(async () => {
  await server.close();
});

async function first(query: string, strategy: Strategy): Promise<{ key: string | undefined; trace: Loose }> {
  const found = await server.post<{ memories: Loose[]; trace: Loose }>('/memories/search', {
    query,
    strategy,
    limit: 5,
    scope: { tenantId },
  });
  const keyOf = new Map(Object.entries(ids).map(([key, id]) => [id, key]));
  return { key: keyOf.get(found.memories[0]?.id), trace: found.trace };
}

describe.each(['lexical', 'hybrid'] as const)('%s', (strategy) => {
  it('"now" asks what holds, not for the newest memory that shares a word', async () => {
    const found = await first('What camera am I shooting with now?', strategy);
    expect(found.key).toBe('camera');
    // No order and no window: the query ranks as without its present-tense word.
    expect(found.trace.time).toBeUndefined();
  });

  it('"in August" is met by the memory that names August, not only by those said in August', async () => {
    const found = await first('What race am I training for in August?', strategy);
    expect(found.key).toBe('race');
    expect(found.trace.time.windows).toEqual([expect.objectContaining({ text: 'in August', everyYear: true })]);
  });
});
