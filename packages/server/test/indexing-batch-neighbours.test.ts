import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { COSINE_SIMILARITY_THRESHOLD } from '../src/graph/related-memories.js';
import type { Database } from '../src/store/database.js';
import { workspaceDatabase } from './graph-test-helpers.js';
import { createTestServer, type TestServer } from './harness.js';

let server: TestServer;
let database: Database;

beforeAll(async () => {
  server = await createTestServer();
  database = await workspaceDatabase(server);
});
afterAll(async () => {
  await server.close();
});

const add = async (content: string, scope?: Record<string, string>) =>
  (await server.post<{ id: string }>('/memories/add', { content, ...(scope === undefined ? {} : { scope }) })).id;
const similar = (sourceId: string) =>
  database.all<{ target_memory_id: string; confidence: number }>(
    `SELECT target_memory_id, confidence FROM graph_edges WHERE edge_type = 'similar_to' AND source_memory_id = ?`,
    [sourceId],
  );

/** Indexes what is queued and returns the statements read meanwhile. */
async function indexReading(): Promise<string[]> {
  const all = vi.spyOn(database, 'all');
  try {
    server.services.indexing.resume();
    await server.indexed();
    return all.mock.calls.map(([sql]) => sql);
  } finally {
    all.mockRestore();
  }
}

/** Indexes what is queued and returns the statements that searched the vector index meanwhile. */
async function indexCountingSearches(): Promise<string[]> {
  return (await indexReading()).filter((sql) => sql.includes('vector_top_k'));
}

/** The statement ranking a whole scope exactly (`exactScopeNeighbours`): one distance per memory of the scope. */
const ranksScopeExactly = (sql: string) => sql.includes('PARTITION BY seq');

describe('the indexer searches a batch’s neighbours together', () => {
  it('indexes a batch with one vector search, and each memory still finds its neighbours, old and new', async () => {
    const base = await add('Invoices are emailed nightly by the billing cron');
    await server.indexed();
    server.services.indexing.pause();
    const copy = await add('The invoices are emailed nightly by the billing cron');
    const first = await add('Standups happen at nine in the small meeting room');
    const second = await add('The standups happen at nine in the small meeting room');
    await add('Kayak rentals open in May at the marina');

    expect(await indexCountingSearches()).toHaveLength(1);
    const [toBase] = await similar(copy);
    expect(toBase?.target_memory_id).toBe(base);
    expect(Number(toBase?.confidence)).toBeGreaterThanOrEqual(COSINE_SIMILARITY_THRESHOLD);
    // A neighbour written in the same batch is found too.
    expect((await similar(second)).map((edge) => edge.target_memory_id)).toContain(first);
  });

  it('leaves the scope unranked when the index found enough neighbours besides the memory itself', async () => {
    // More shared memories than the neighbours a write reads (25): the index's answer holds the memory's own vector
    // and 25 others, which is enough; ranking every memory of the scope exactly is for scopes the index's list misses.
    const shelves: string[] = [];
    for (let index = 0; index < 30; index++)
      shelves.push(await add(`Shelf ${index} of the archive holds the ${index}th year of minutes`));
    await server.indexed();
    server.services.indexing.pause();
    const later = await add('The shelf 7 of the archive holds the 7th year of minutes');

    const statements = await indexReading();
    expect(statements.filter((sql) => sql.includes('vector_top_k'))).toHaveLength(1);
    expect(statements.filter(ranksScopeExactly)).toEqual([]);
    expect((await similar(later)).map((edge) => edge.target_memory_id)).toContain(shelves[7]);
  });

  it('ranks each narrow scope of the batch once, exactly, and a memory never links to one its writer cannot see', async () => {
    server.services.indexing.pause();
    const dana = await add('Dana parks in bay twelve behind the office', { userId: 'dana' });
    const eli = await add('Dana parks in bay twelve behind the office building', { userId: 'eli' });
    await add('The office bike shed is behind bay twelve');

    // Each scope sees less than the tenant holds (Dana's, Eli's, the shared memories): the index, which ranks the whole
    // tenant, is not searched for any of them.
    const statements = await indexReading();
    expect(statements.filter((sql) => sql.includes('vector_top_k'))).toEqual([]);
    expect(statements.filter(ranksScopeExactly)).toHaveLength(3);
    expect((await similar(eli)).map((edge) => edge.target_memory_id)).not.toContain(dana);
    expect((await similar(dana)).map((edge) => edge.target_memory_id)).not.toContain(eli);
  });

  it("finds a user's own near-duplicate when other users' copies fill the index's nearest", async () => {
    // One tenant, many users: 40 others wrote the very words Alice writes next, so the index's 25 nearest to her new
    // memory are all theirs (similarity 1) and her own earlier wording (about 0.9) is not among them.
    const words = 'The parcel lockers are emptied every evening by the night porter';
    for (let index = 0; index < 40; index++) await add(words, { userId: `neighbour-${index}` });
    const earlier = await add('Parcel lockers are emptied every evening by the night porter', { userId: 'alice' });
    await server.indexed();
    const later = await add(words, { userId: 'alice' });
    await server.indexed();
    const edges = await similar(later);
    expect(edges.map((edge) => edge.target_memory_id)).toEqual([earlier]);
    expect(Number(edges[0]?.confidence)).toBeGreaterThanOrEqual(COSINE_SIMILARITY_THRESHOLD);
  });
});
