import { IDEMPOTENCY } from '@memory-service/contract';
import { describe, expect, it } from 'vitest';
import { createMemoryClient } from '../src/index.js';
import { startServer, useRealServer } from './real-server.js';

const API_KEY = `mem_${'0123456789abcdef'.repeat(4)}`;

/**
 * A fetch whose first write reaches the server, runs there, and then loses its answer, as when the connection drops
 * after the request was sent: the server stored it, the client saw a network error.
 */
function droppingFirstAnswer(sent: Array<string | null>) {
  let dropped = false;
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (request.method !== 'GET') sent.push(request.headers.get(IDEMPOTENCY.header));
    const response = await fetch(request);
    if (!dropped && request.method !== 'GET') {
      dropped = true;
      await response.arrayBuffer();
      throw new TypeError('fetch failed: the connection was reset');
    }
    return response;
  };
}

describe.skipIf(startServer === undefined)('a write whose answer is lost', () => {
  const running = useRealServer(API_KEY, { embeddingModel: 'local/hash-384' });
  const retryFast = { initialDelayMs: 1, maxDelayMs: 1 };

  it('is retried with the same Idempotency-Key and stored once', async () => {
    const sent: Array<string | null> = [];
    const scope = { tenantId: 'lost-answer' };
    const client = createMemoryClient({
      baseUrl: running.server.url,
      apiKey: API_KEY,
      scope,
      retry: retryFast,
      fetch: droppingFirstAnswer(sent),
    });
    const started = await client.sessions.start({ title: 'Standup notes' });
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatch(/^idem_[0-9a-f]{32}$/);
    expect(sent[1]).toBe(sent[0]);
    const reader = createMemoryClient({ baseUrl: running.server.url, apiKey: API_KEY, scope });
    const { sessions } = await reader.sessions.list();
    expect(sessions.map((session) => session.id)).toEqual([started.sessionId]);
  });

  it('sends a new key per call, and the caller’s own key when given', async () => {
    const sent: Array<string | null> = [];
    const client = createMemoryClient({
      baseUrl: running.server.url,
      apiKey: API_KEY,
      scope: { tenantId: 'own-keys' },
      fetch: async (input, init) => {
        const request = new Request(input, init);
        sent.push(request.headers.get(IDEMPOTENCY.header));
        return fetch(request);
      },
    });
    await client.memories.add({ content: 'The canteen closes at three' });
    await client.memories.add({ content: 'The canteen opens at eight' });
    await client.memories.list({});
    const first = await client.sessions.start({ title: 'Retro' }, { idempotencyKey: 'retro-2026-11-26' });
    const again = await client.sessions.start({ title: 'Retro' }, { idempotencyKey: 'retro-2026-11-26' });
    expect(again.sessionId).toBe(first.sessionId);
    expect(sent[0]).not.toBe(sent[1]);
    expect(sent[2]).toBeNull();
    expect(sent.slice(3)).toEqual(['retro-2026-11-26', 'retro-2026-11-26']);
  });
});
