import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore, type NewMemoryEntry } from '../src/store/memories.js';
import { workspaceDatabase } from './graph-test-helpers.js';
import { connectMcp, createTestServer, type TestServer } from './harness.js';

interface Listed {
  id: string;
  content: string;
  createdAt: string;
}
interface Page {
  memories: Listed[];
  count: number;
  nextCursor: string | null;
}

let server: TestServer;
const seeded: string[] = [];
const SEEDED = 1_000;

/**
 * 1,000 memories stored before the walk, oldest in 2026-01: ten per creation time, so most of a page's neighbours
 * share its last memory's `created_at` and only the row number orders them (a key of `created_at` alone would skip
 * or repeat them).
 */
beforeAll(async () => {
  server = await createTestServer();
  const store = new MemoryStore(await workspaceDatabase(server));
  const entries: NewMemoryEntry[] = Array.from({ length: SEEDED }, (_, index) => ({
    memory: {
      content: `Seeded fact number ${index} about the paging walk`,
      type: 'fact',
      layer: 'long_term',
      tags: index % 2 === 0 ? ['even'] : ['odd'],
      paths: [],
      category: null,
      metadata: {},
      embeddingModel: null,
      expiresAt: null,
    },
    scope: { tenantId: null, userId: null, projectId: null },
    now: new Date(Date.UTC(2026, 0, 1) + Math.floor(index / 10) * 60_000),
  }));
  for (let start = 0; start < SEEDED; start += 250) {
    const rows = await store.insertMany(entries.slice(start, start + 250));
    seeded.push(...rows.map((row) => row.id));
  }
});
afterAll(async () => {
  await server.close();
});

async function page(body: Record<string, unknown>): Promise<Page> {
  const response = await server.call('POST', '/memories/list', body);
  expect(response.status, JSON.stringify(response.body.error)).toBe(200);
  return response.body.data as Page;
}

describe('memories/list paging', () => {
  it('walks 1,000 memories page by page, each that exists for the whole walk exactly once, while writes go on', async () => {
    const seen: string[] = [];
    const forgotten = new Set<string>();
    const added = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    let writes = 0;
    do {
      // Writes run beside each page's read: an add (newer than everything walked), an edit of a memory not reached
      // yet, a forget of one already returned and of one not reached yet.
      const concurrentWrites = async () => {
        const round = writes++;
        const { id } = await server.post<{ id: string }>('/memories/add', {
          content: `Added during the walk ${round}`,
        });
        added.add(id);
        const ahead = seeded[seeded.length - 1 - (round * 7 + 3)];
        if (ahead !== undefined && !forgotten.has(ahead)) {
          await server.post('/memories/edit', { id: ahead, content: `Edited during the walk ${round}`, tags: ['x'] });
        }
        const behind = seen[round * 3];
        if (behind !== undefined) {
          forgotten.add(behind);
          await server.post('/memories/forget', { id: behind });
        }
        const notReached = seeded[round * 5 + 1];
        if (notReached !== undefined && round % 4 === 0 && !seen.includes(notReached)) {
          forgotten.add(notReached);
          await server.post('/memories/forget', { id: notReached });
        }
      };
      const [result] = await Promise.all([
        page({ limit: 37, ...(cursor === undefined ? {} : { cursor }) }),
        concurrentWrites(),
      ]);
      seen.push(...result.memories.map((memory) => memory.id));
      expect(result.count).toBe(result.memories.length);
      cursor = result.nextCursor ?? undefined;
      pages += 1;
    } while (cursor !== undefined && pages < 100);

    expect(cursor).toBeUndefined();
    expect(new Set(seen).size).toBe(seen.length); // nothing twice
    const present = new Set(seen);
    const existedThroughout = seeded.filter((id) => !forgotten.has(id));
    expect(existedThroughout.length).toBeGreaterThan(900);
    expect(existedThroughout.filter((id) => !present.has(id))).toEqual([]); // nothing skipped
    // Only memories of the walk's start or its own writes appear; adds newer than the first page never do.
    for (const id of seen) expect(seeded.includes(id) || added.has(id), id).toBe(true);
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(existedThroughout.length / 37));
  });

  it('keeps the order and filters across pages: newest first, by tag', async () => {
    const first = await page({ tags: 'even', limit: 100 });
    const second = await page({ tags: 'even', limit: 100, cursor: first.nextCursor });
    const both = [...first.memories, ...second.memories];
    expect(both).toHaveLength(200);
    const times = both.map((memory) => memory.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(new Set(both.map((memory) => memory.id)).size).toBe(200);
    const alone = await page({ tags: 'even', limit: 100 });
    expect(alone.memories.map((memory) => memory.id)).toEqual(first.memories.map((memory) => memory.id));
  });

  it('answers nextCursor null on the last page, and a cursor by default when more than 50 follow', async () => {
    const all = await page({});
    expect(all.memories).toHaveLength(50);
    expect(all.nextCursor).toEqual(expect.any(String));
    const none = await page({ tags: 'no-such-tag' });
    expect(none).toMatchObject({ memories: [], count: 0, nextCursor: null });
  });

  it.each([
    ['not base64url', 'not a cursor!'],
    ['base64url of something else', Buffer.from('{"a":1}').toString('base64url')],
    ['a key of the wrong types', Buffer.from(JSON.stringify([5, 'x'])).toString('base64url')],
    ['a history cursor', Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z', 1, 4])).toString('base64url')],
    ['too long', 'A'.repeat(600)],
    ['empty', ''],
  ])('refuses a malformed cursor (%s) with 400 naming cursor', async (_, cursor) => {
    const response = await server.call('POST', '/memories/list', { cursor });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'INVALID_REQUEST',
      type: 'validation_error',
      details: { field: 'cursor' },
    });
  });

  it('pages over MCP too: list_memories takes cursor and answers nextCursor', async () => {
    const client = await connectMcp(server, 'paging-test');
    try {
      const call = async (args: Record<string, unknown>) => {
        const result = await client.callTool({ name: 'list_memories', arguments: args });
        return (result.structuredContent as { data: Page }).data;
      };
      const first = await call({ limit: 5 });
      const second = await call({ limit: 5, cursor: first.nextCursor });
      const direct = await page({ limit: 10 });
      expect([...first.memories, ...second.memories].map((memory) => memory.id)).toEqual(
        direct.memories.map((memory) => memory.id),
      );
    } finally {
      await client.close();
    }
  });
});
