import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ResolvedScope } from '@memory-service/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBuiltInRegistry, HASH_MODEL_ID } from '../src/embeddings/default-registry.js';
import { embedMemories } from '../src/embeddings/embed-memories.js';
import { hashEmbedding } from '../src/embeddings/hash-embedding.js';
import { retrieve } from '../src/retrieval/retrieve.js';
import { vectorCandidates, vectorNeighbourLists } from '../src/retrieval/semantic.js';
import { Database } from '../src/store/database.js';
import { MemoryStore } from '../src/store/memories.js';
import { migrate } from '../src/store/migrate.js';
import { tenantMigrations } from '../src/store/migrations/tenant.js';
import { countVisibleLive, visibleLiveSeqs, visibleTo } from '../src/store/scope-filter.js';
import { EXACT_SEARCH_MAX } from '../src/store/scope-ranking.js';
import { VectorTables } from '../src/store/vector-tables.js';
import { TenantDatabase } from '../src/tenancy/tenant-database.js';
import { plainNote } from './graph-test-helpers.js';

/**
 * One tenant shared by many users (an app's memory store): 400 memories of other users say nearly what the query
 * says, so the vector index's whole search list (about 200 neighbours) is theirs, and Alice's own memories about it
 * rank below all of them. Her search must still find hers.
 */
const now = new Date('2026-11-02T10:00:00.000Z');
const scope = (userId: string | null, projectId: string | null = null): ResolvedScope => ({
  tenantId: null,
  userId,
  projectId,
});

let directory: string;
let database: Database;
let tenant: TenantDatabase;
const alice: string[] = [];
let shared = '';

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'vector-narrow-'));
  database = await Database.open({ url: `file:${path.join(directory, 'tenant.db')}` });
  await migrate(database, tenantMigrations);
  tenant = new TenantDatabase('narrow', null, database);
  const store = new MemoryStore(database);
  const insert = (content: string, owner: ResolvedScope) =>
    store.insertMany([{ memory: plainNote(content, HASH_MODEL_ID), scope: owner, now }]);
  const rows = [];
  for (let index = 0; index < 400; index++)
    rows.push(...(await insert(`kayak trip from the north pier at dawn, group ${index}`, scope(`user-${index % 40}`))));
  const own = [
    'Alice keeps her kayak paddles in the shed by the pier',
    'Alice booked a kayak lesson for the spring',
    'Alice prefers tea over coffee in the morning',
  ];
  for (const content of own) {
    const [row] = await insert(content, scope('alice'));
    if (row === undefined) throw new Error('not inserted');
    alice.push(row.id);
    rows.push(row);
  }
  const [common] = await insert('The kayak club meets on Saturdays', scope(null));
  if (common === undefined) throw new Error('not inserted');
  shared = common.id;
  rows.push(common);
  const outcome = await embedMemories(
    { tenant, registry: createBuiltInRegistry(), modelId: HASH_MODEL_ID, origin: 'write', now },
    rows,
  );
  expect(outcome.embedded).toBe(rows.length);
}, 60_000);
afterAll(() => {
  database.close();
  rmSync(directory, { recursive: true, force: true });
});

async function nearest(query: string, who: ResolvedScope, limit = 20) {
  const table = await new VectorTables(database).find(HASH_MODEL_ID);
  if (table === undefined) throw new Error('no vector table');
  return vectorCandidates(database, table, hashEmbedding(query), { scope: who, limit, minSimilarity: 0.1, now });
}

/** Alice's hybrid retrieval of five. */
function aliceAsks(query: string) {
  return retrieve(tenant, {
    query,
    scope: scope('alice'),
    limit: 5,
    strategy: 'hybrid',
    recencyFallback: false,
    now,
    embeddings: createBuiltInRegistry(),
  });
}

describe('vector search in a narrow scope of a shared tenant', () => {
  it('the index alone answers with other users: their memories fill its search list', async () => {
    const table = await new VectorTables(database).find(HASH_MODEL_ID);
    if (table === undefined) throw new Error('no vector table');
    const listed = await database.all<{ user_id: string | null }>(
      `SELECT m.user_id FROM vector_top_k('${table.indexName}', vector32(?), 4096) AS top
         JOIN ${table.tableName} v ON v.rowid = top.id JOIN memories m ON m.seq = v.memory_seq`,
      [new Uint8Array(hashEmbedding('kayak trip north pier').buffer)],
    );
    expect(listed.length).toBeLessThan(404);
    expect(listed.filter((row) => row.user_id === 'alice')).toEqual([]);
  });

  it("finds the user's own memories and the shared ones, ranked by similarity, and nobody else's", async () => {
    const found = await nearest('kayak trip north pier', scope('alice'));
    const ids = found.map(({ row }) => row.id);
    expect(ids).toEqual(expect.arrayContaining([alice[0], alice[1], shared]));
    expect(ids).not.toContain(alice[2]);
    expect(found.every(({ row }) => row.user_id === 'alice' || row.user_id === null)).toBe(true);
    const scores = found.map(({ score }) => score);
    expect(scores).toEqual([...scores].sort((left, right) => right - left));
  });

  it('keeps the cut and the filters of the exact search', async () => {
    expect(await nearest('kayak trip north pier', scope('alice'), 1)).toHaveLength(1);
    const table = await new VectorTables(database).find(HASH_MODEL_ID);
    if (table === undefined) throw new Error('no vector table');
    const notes = await vectorCandidates(database, table, hashEmbedding('kayak trip north pier'), {
      scope: scope('alice'),
      limit: 20,
      minSimilarity: 0.1,
      now,
      type: 'fact',
    });
    expect(notes).toEqual([]);
  });

  it("a hybrid retrieval in the narrow scope fuses the vector side's ranking of the user's memories", async () => {
    const outcome = await aliceAsks('a kayak trip from the pier');
    expect(outcome.appliedStrategy).toBe('hybrid');
    expect(outcome.semanticCandidates).toBeGreaterThanOrEqual(2);
    expect(outcome.candidates.every(({ row }) => row.user_id === 'alice' || row.user_id === null)).toBe(true);
    // Found by both sides: the words, and the vector side's ranking of Alice's own memories.
    expect(outcome.candidates.find(({ row }) => row.id === alice[0])?.source).toBe('hybrid');
  });
});

/** The statements a call reads the database with, in order (`get` reads through `all`). */
async function statementsOf<T>(call: () => Promise<T>): Promise<{ result: T; sql: string[] }> {
  const sql: string[] = [];
  const all = vi.spyOn(database, 'all').mockImplementation(async function (this: Database, text, args) {
    sql.push(text);
    return Database.prototype.all.call(this, text, args) as never;
  });
  try {
    return { result: await call(), sql };
  } finally {
    all.mockRestore();
  }
}

/** Alice's scope ranked by a plain scan of every live, current memory she sees: what an exact ranking must return. */
async function scannedRanking(vector: Float32Array, limit: number, minSimilarity: number) {
  const table = await new VectorTables(database).find(HASH_MODEL_ID);
  if (table === undefined) throw new Error('no vector table');
  const rows = await database.all<{ seq: number; distance: number }>(
    `SELECT m.seq AS seq, vector_distance_cos(v.embedding, vector32(?)) AS distance
       FROM memories m JOIN ${table.tableName} v ON v.memory_seq = m.seq
      WHERE (m.user_id = 'alice' OR m.user_id IS NULL) AND m.project_id IS NULL
        AND m.deleted_at IS NULL AND m.superseded_by IS NULL
      ORDER BY distance, m.seq LIMIT ?`,
    [new Uint8Array(vector.buffer), limit],
  );
  return rows
    .map((row) => ({ seq: Number(row.seq), score: 1 - Number(row.distance) }))
    .filter(({ score }) => score >= minSimilarity);
}

describe('a scope small enough to rank exactly', () => {
  const questions = ['kayak trip north pier', 'tea or coffee in the morning'];

  it('ranks every query vector exactly, in one statement and without the index', async () => {
    const table = await new VectorTables(database).find(HASH_MODEL_ID);
    if (table === undefined) throw new Error('no vector table');
    const vectors = questions.map((question) => hashEmbedding(question));
    const { result, sql } = await statementsOf(() =>
      vectorNeighbourLists(database, table, vectors, { scope: scope('alice'), limit: 3, minSimilarity: -1, now }),
    );
    expect(sql.filter((text) => text.includes('vector_top_k'))).toEqual([]);
    expect(sql.filter((text) => text.includes('vector_distance_cos'))).toHaveLength(1);
    expect(result).toEqual([
      await scannedRanking(vectors[0] as Float32Array, 3, -1),
      await scannedRanking(vectors[1] as Float32Array, 3, -1),
    ]);
    expect(result[1]?.[0]?.seq).not.toBe(result[0]?.[0]?.seq);
  });

  it('a hybrid retrieval of the scope counts it once and searches no index', async () => {
    const { result, sql } = await statementsOf(() => aliceAsks('Where does Alice keep her kayak paddles?'));
    expect(result.appliedStrategy).toBe('hybrid');
    expect(result.candidates[0]?.row.id).toBe(alice[0]);
    expect(sql.filter((text) => text.includes('vector_top_k'))).toEqual([]);
    // One bounded count of the scope (while the query is embedded), then one statement for both query vectors.
    const counting = countVisibleLive(scope('alice'), EXACT_SEARCH_MAX).sql;
    expect(sql.filter((text) => text === counting)).toHaveLength(1);
    expect(sql.filter((text) => text.includes('vector_distance_cos') && text.includes('UNION ALL'))).toHaveLength(1);
  });

  it('index-or-exact: the index serves first, and the scope is ranked exactly when its list comes back short', async () => {
    const table = await new VectorTables(database).find(HASH_MODEL_ID);
    if (table === undefined) throw new Error('no vector table');
    const vector = hashEmbedding('kayak trip north pier');
    const options = { scope: scope('alice'), limit: 3, minSimilarity: -1, now };
    // The index's whole list holds none of Alice's memories (the first test): short, so her scope is ranked exactly.
    const { result, sql } = await statementsOf(() =>
      vectorNeighbourLists(database, table, [vector], options, Promise.resolve('index-or-exact')),
    );
    expect(sql.some((text) => text.includes('vector_top_k'))).toBe(true);
    expect(result).toEqual([await scannedRanking(vector, 3, -1)]);
    // Left to the index alone, the same scope gets nothing of its own.
    const [alone = []] = await vectorNeighbourLists(database, table, [vector], options, Promise.resolve('index'));
    expect(alone.length).toBeLessThan(3);
  });

  it('the index serves a scope that is not ranked exactly, with the same filters and order', async () => {
    const table = await new VectorTables(database).find(HASH_MODEL_ID);
    if (table === undefined) throw new Error('no vector table');
    const vector = hashEmbedding('kayak trip north pier');
    const options = { scope: scope('user-3'), limit: 5, minSimilarity: 0.1, now };
    const { result, sql } = await statementsOf(() =>
      vectorNeighbourLists(database, table, [vector], options, Promise.resolve('index')),
    );
    expect(sql.some((text) => text.includes('vector_top_k'))).toBe(true);
    const [list = []] = result;
    expect(list.length).toBeGreaterThan(0);
    const [exact = []] = await vectorNeighbourLists(database, table, [vector], options, Promise.resolve('exact'));
    // Every memory of user-3 says the same words: the index's five are among the scope's nearest, in the same order.
    expect(list.map(({ score }) => score)).toEqual(exact.map(({ score }) => score));
    const owners = await database.all<{ user_id: string | null }>(
      `SELECT user_id FROM memories WHERE seq IN (${list.map(() => '?').join(', ')})`,
      list.map(({ seq }) => seq),
    );
    expect(owners.every(({ user_id }) => user_id === 'user-3' || user_id === null)).toBe(true);
  });
});

describe('visibleLiveSeqs and countVisibleLive', () => {
  it('selects the live memories visibleTo selects, through the scope index', async () => {
    await database.run('UPDATE memories SET deleted_at = ? WHERE id = ?', [now.toISOString(), alice[1] ?? '']);
    await database.run("UPDATE memories SET project_id = 'trips' WHERE content LIKE '%group 1%'");
    for (const who of [scope(null), scope('alice'), scope('user-1'), scope('user-1', 'trips'), scope(null, 'trips')]) {
      const through = visibleLiveSeqs(who, 'm');
      const plain = visibleTo(who, 'm');
      const viaIndex = await database.all<{ seq: number }>(
        `SELECT m.seq FROM memories m WHERE ${through.sql} ORDER BY m.seq`,
        through.args,
      );
      const viaScan = await database.all<{ seq: number }>(
        `SELECT m.seq FROM memories m WHERE ${plain.sql} AND m.deleted_at IS NULL ORDER BY m.seq`,
        plain.args,
      );
      expect(viaIndex.length).toBeGreaterThan(0);
      expect(viaIndex).toEqual(viaScan);
      const count = async (atMost: number) => {
        const statement = countVisibleLive(who, atMost);
        return Number((await database.get<{ count: number }>(statement.sql, statement.args))?.count);
      };
      expect(await count(10_000)).toBe(viaScan.length);
      // Bounded: past the limit it stops counting, and still says "more".
      if (viaScan.length > 2) expect(await count(2)).toBeGreaterThan(2);
      expect(await count(2)).toBeLessThanOrEqual(4 * 3);
    }
    const plan = await database.all<{ detail: string }>(
      `EXPLAIN QUERY PLAN SELECT m.seq FROM memories m WHERE ${visibleLiveSeqs(scope('alice'), 'm').sql}`,
      visibleLiveSeqs(scope('alice'), 'm').args,
    );
    expect(plan.map(({ detail }) => detail).join(' | ')).toContain(
      'INDEX memories_scope (user_id=? AND project_id=? AND deleted_at=?)',
    );
  });
});
