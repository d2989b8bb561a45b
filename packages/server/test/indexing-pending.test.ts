import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/store/database.js';
import { workspaceDatabase } from './graph-test-helpers.js';
import { createTestServer, type TestServer } from './harness.js';

type Search = {
  memories: Array<{ id: string; content: string; source: string }>;
  trace: Record<string, unknown>;
};

let server: TestServer;
let database: Database;

beforeAll(async () => {
  server = await createTestServer();
  database = await workspaceDatabase(server);
  // An indexed memory, so the vector side of hybrid has an index to search.
  await server.post('/memories/add', { content: 'Bob rents a kayak every summer' });
  await server.indexed();
});
afterAll(async () => {
  await server.close();
});

const search = (query: string, strategy: 'lexical' | 'hybrid') =>
  server.post<Search>('/memories/search', { query, strategy });
const queue = async () =>
  (await server.call('GET', '/management/embeddings/observability')).body.data?.queue as Record<string, number>;
const storedVector = (id: string) =>
  database.get<{ text_hash: string }>(
    'SELECT v.text_hash FROM memory_vectors_local_hash_384_384 v JOIN memories m ON m.seq = v.memory_seq WHERE m.id = ?',
    [id],
  );

describe('a memory waiting for its index job', () => {
  it('is found lexically and by the lexical side of hybrid, and the traces and observability count it', async () => {
    server.services.indexing.pause();
    const { id } = await server.post<{ id: string }>('/memories/add', {
      content: 'Sailing lessons start at the marina on Saturdays',
    });
    expect(await storedVector(id)).toBeUndefined();

    const lexical = await search('marina sailing', 'lexical');
    expect(lexical.memories.map((memory) => memory.id)).toEqual([id]);
    expect(lexical.trace.indexPending).toBe(1);
    const hybrid = await search('marina sailing', 'hybrid');
    expect(hybrid.trace).toMatchObject({
      appliedStrategy: 'hybrid',
      semanticFallbackTriggered: false,
      indexPending: 1,
    });
    expect(hybrid.memories.find((memory) => memory.id === id)?.source).toBe('lexical');
    const context = await server.post<Search>('/context/get', { query: 'marina sailing', strategy: 'hybrid' });
    expect(context.memories.map((memory) => memory.id)).toContain(id);
    expect(context.trace.indexPending).toBe(1);
    expect(await queue()).toMatchObject({ pending: 1, indexPending: 1 });
    // The count is the scope's: another tenant's database has nothing pending.
    const elsewhere = await server.post<Search>('/memories/search', {
      query: 'marina',
      scope: { tenantId: 'quiet' },
    });
    expect(elsewhere.trace.indexPending).toBe(0);

    await server.indexed();
    server.services.indexing.resume();
    expect(await storedVector(id)).toBeDefined();
    expect((await search('marina sailing', 'hybrid')).trace.indexPending).toBe(0);
    expect(
      (await server.post<Search>('/context/get', { query: 'marina sailing', strategy: 'hybrid' })).trace.indexPending,
    ).toBe(0);
    expect(await queue()).toMatchObject({ pending: 0, indexPending: 0 });
  });

  it('drops the old wording at once when an edit changes the text, and indexes the new one', async () => {
    const { id } = await server.post<{ id: string }>('/memories/add', { content: 'Standups are at nine' });
    await server.indexed();
    const before = await storedVector(id);
    expect(before).toBeDefined();
    server.services.indexing.pause();
    await server.post('/memories/edit', { id, content: 'Standups moved to half past ten' });
    // In the edit's transaction: the old vector is gone and the memory is queued again.
    expect(await storedVector(id)).toBeUndefined();
    expect((await search('standups', 'lexical')).trace.indexPending).toBe(1);
    await server.indexed();
    server.services.indexing.resume();
    const after = await storedVector(id);
    expect(after?.text_hash).toEqual(expect.any(String));
    expect(after?.text_hash).not.toBe(before?.text_hash);
    expect((await search('standups', 'lexical')).trace.indexPending).toBe(0);
  });
});
