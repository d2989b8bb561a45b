import { existsSync } from 'node:fs';
import path from 'node:path';
import { EraseUserDataSchema, IDEMPOTENCY } from '@memory-service/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mirrorPath } from '../src/skills/file-mirror.js';
import type { Database } from '../src/store/database.js';
import { ADMIN_TOKEN, createTestServer, type TestServer } from './harness.js';

const flags = {
  MEMORY_SESSION_ENABLED: true,
  MEMORY_COMPACTION_ENABLED: true,
  MEMORY_CONSOLIDATION_ENABLED: true,
  MEMORY_PROCEDURAL_ENABLED: true,
  MEMORY_FILE_MODE_ENABLED: true,
};
const ERASE = '/management/users/erase';
const TENANT = 'acme';
/** The erased person, and a word only their records hold. */
const ALICE = 'alice-erase-7';
const ALICE_WORD = 'zorbulon';
/** The person kept, and a word only theirs hold. */
const BOB = 'bob-keep-3';
const BOB_WORD = 'quendril';
const SHARED_WORD = 'sharedmarker';

let server: TestServer;
let database: Database;
const alice = { tenantId: TENANT, userId: ALICE };
const bob = { tenantId: TENANT, userId: BOB };
const shared = { tenantId: TENANT };
/** Every memory id of Alice's (live, edited, superseded, forgotten), and the seqs of their rows. */
const aliceIds: string[] = [];
let aliceSeqs: number[] = [];
const bobIds: string[] = [];
const sharedIds: string[] = [];

const add = async (scope: object, content: string, extra: object = {}) =>
  (await server.post<{ id: string }>('/memories/add', { content, scope, ...extra })).id;

/** Memories (edited, superseded by consolidation, forgotten), a session with events and a snapshot, a skill file. */
async function seedPerson(scope: typeof alice, word: string, ids: string[]): Promise<void> {
  ids.push(await add(scope, `Deploy target: staging ${word}`, { type: 'decision' }));
  ids.push(await add(scope, `Deploy target: production ${word}`, { type: 'decision' }));
  const edited = await add(scope, `The ${word} budget is 40k`);
  await server.post('/memories/edit', { id: edited, content: `The ${word} budget is 50k`, scope });
  ids.push(edited);
  const forgotten = await add(scope, `Temporary ${word} pizza note`);
  await server.post('/memories/forget', { id: forgotten, scope });
  ids.push(forgotten);
  ids.push(await add(scope, `Always greet ${word} politely`, { type: 'rule' }));
  const started = await server.post<{ sessionId: string }>('/sessions/start', { title: `${word} planning`, scope });
  await server.post('/sessions/checkpoint', { sessionId: started.sessionId, content: `we plan ${word}`, scope });
  await server.post('/sessions/end', { sessionId: started.sessionId, scope });
  await server.post('/skills/files/upsert', {
    path: 'skills/release.md',
    content: `# Release ${word}\n1. ship`,
    scope,
  });
  await server.post('/memories/consolidate', { scope });
  await server.post('/context/get', { query: `deploy ${word}`, scope });
  await server.post('/management/embeddings/backfill', { action: 'pause', scope });
}

/** Every table of the database (virtual tables, FTS5 and vector index shadow tables, sqlite_* included). */
async function tables(): Promise<string[]> {
  const rows = await database.all<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
  );
  return rows.map((row) => row.name);
}

const text = (value: unknown): string =>
  value instanceof ArrayBuffer || ArrayBuffer.isView(value)
    ? Buffer.from(value instanceof ArrayBuffer ? value : value.buffer).toString('latin1')
    : String(value);

/**
 * The rows of each table (as JSON) that mention one of `needles` (or are keyed by one of the erased memories' `seqs`:
 * vectors), and those that do not.
 */
async function scan(needles: readonly string[], seqs: readonly number[]) {
  // Retrieval metrics and events are written in batches: the rows a request logged are in their tables once flushed.
  await database.logs.flush();
  const mentioning = new Map<string, string[]>();
  const other = new Map<string, string[]>();
  for (const table of await tables()) {
    const rows = await database.all<Record<string, unknown>>(`SELECT * FROM "${table}"`);
    for (const row of rows) {
      const values = Object.values(row).map(text);
      // A vector row is keyed by its memory's seq, a DiskANN index node (`<index>_shadow`) by the same number.
      const key = 'memory_seq' in row ? row.memory_seq : 'index_key' in row ? row.index_key : undefined;
      const keyed = key !== undefined && seqs.includes(Number(key));
      const named = values.some((value) => needles.some((needle) => value.includes(needle)));
      const target = keyed || named ? mentioning : other;
      target.set(table, [...(target.get(table) ?? []), JSON.stringify(values)]);
    }
  }
  return { mentioning, other };
}

async function vectorRows(seqs: readonly number[]): Promise<number> {
  let total = 0;
  const vectorTables = await database.all<{ table_name: string }>('SELECT table_name FROM embedding_vector_tables');
  for (const { table_name } of vectorTables) {
    const row = await database.get<{ count: number }>(
      `SELECT count(*) AS count FROM ${table_name} WHERE memory_seq IN (SELECT value FROM json_each(?))`,
      [JSON.stringify(seqs)],
    );
    total += Number(row?.count ?? 0);
  }
  return total;
}

const matches = async (word: string) =>
  Number(
    (
      await database.get<{ count: number }>('SELECT count(*) AS count FROM memories_fts WHERE memories_fts MATCH ?', [
        word,
      ])
    )?.count,
  );

const aliceMirror = () => mirrorPath(server.dataDir, 'default', { ...alice, projectId: null }, 'skills/release.md');
const bobMirror = () => mirrorPath(server.dataDir, 'default', { ...bob, projectId: null }, 'skills/release.md');

beforeAll(async () => {
  server = await createTestServer({ flags });
  sharedIds.push(await add(shared, `The office wifi is ${SHARED_WORD}`));
  sharedIds.push(await add(shared, `Deploy day is Monday ${SHARED_WORD}`));
  await seedPerson(alice, ALICE_WORD, aliceIds);
  await seedPerson(bob, BOB_WORD, bobIds);
  await server.call(
    'POST',
    '/memories/add',
    { content: `An idempotent ${ALICE_WORD} note`, scope: alice },
    { headers: { [IDEMPOTENCY.header]: 'alice-add-1' } },
  );
  await server.call(
    'POST',
    '/memories/add',
    { content: `An idempotent ${BOB_WORD} note`, scope: bob },
    { headers: { [IDEMPOTENCY.header]: 'bob-add-1' } },
  );
  await server.indexed();
  database = (await server.services.resolver.resolve('default', TENANT, new Date())).database;
  const rows = await database.all<{ id: string; seq: number }>('SELECT id, seq FROM memories WHERE user_id = ?', [
    ALICE,
  ]);
  aliceIds.splice(0, aliceIds.length, ...rows.map((row) => row.id));
  aliceSeqs = rows.map((row) => Number(row.seq));
  // Links across people and to shared records, as extraction and consolidation write them: an edge each way between
  // Alice's and Bob's memories, a node both link (it stays) and one only Alice's link (it goes), and a shared memory
  // superseded by one of Alice's (it is current again after the erasure).
  const [a, b, s] = [aliceIds[1] as string, bobIds[1] as string, sharedIds[1] as string];
  const at = '2026-01-01T00:00:00.000Z';
  await database.transaction([
    {
      sql: `INSERT INTO graph_edges (source_memory_id, target_memory_id, edge_type, confidence, origin, detail, created_at)
            VALUES (?, ?, 'similar_to', 0.8, 'extraction', '{}', ?), (?, ?, 'contradicts', 0.7, 'extraction', '{}', ?),
                   (?, ?, 'supersedes', 1, 'consolidation', '{}', ?)`,
      args: [a, b, at, b, a, at, a, s, at],
    },
    {
      sql: `INSERT INTO graph_nodes (id, type, label, created_at) VALUES ('entity:both', 'entity', 'both', ?),
            ('entity:zorbulon-only', 'entity', 'zorbulon', ?)`,
      args: [at, at],
    },
    {
      sql: `INSERT INTO graph_memory_links (memory_id, node_id, edge_type, confidence, created_at)
            VALUES (?, 'entity:both', 'mentions', 1, ?), (?, 'entity:both', 'mentions', 1, ?),
                   (?, 'entity:zorbulon-only', 'mentions', 1, ?)`,
      args: [a, at, b, at, a, at],
    },
    { sql: 'UPDATE memories SET superseded_by = ?, updated_at = ? WHERE id = ?', args: [a, at, s] },
  ]);
}, 120_000);

afterAll(async () => {
  await server.close();
});

describe('POST /management/users/erase', () => {
  it('refuses an API key (403), a tenant the workspace lacks (404) and an invalid userId (400)', async () => {
    const withKey = await server.call('POST', ERASE, { tenantId: TENANT, userId: ALICE });
    expect(withKey.status).toBe(403);
    expect(withKey.body.error?.code).toBe('OPERATOR_CREDENTIAL_REQUIRED');
    const unknown = await server.call('POST', ERASE, { tenantId: 'nobody', userId: ALICE }, { key: ADMIN_TOKEN });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.code).toBe('TENANT_NOT_FOUND');
    const invalid = await server.call('POST', ERASE, { tenantId: TENANT, userId: '-bad id' }, { key: ADMIN_TOKEN });
    expect(invalid.status).toBe(400);
    expect(await database.get('SELECT 1 FROM memories WHERE user_id = ?', [ALICE])).toBeDefined();
  });

  it('erases every trace of one person from every table, and leaves the other person and shared records', async () => {
    const needles = [ALICE, ALICE_WORD, ...aliceIds];
    const before = await scan(needles, aliceSeqs);
    // The scan sees the person where they are: rows, history, graph, sessions, skills, events, the FTS index pages.
    for (const table of [
      'memories',
      'memory_versions',
      'graph_edges',
      'graph_memory_links',
      'sessions',
      'session_events',
      'session_snapshots',
      'skill_files',
      'lifecycle_events',
      'retrieval_metrics',
      'consolidation_runs',
      'embedding_backfill',
      'memories_fts_data',
      'memory_vectors_local_hash_384_384',
      'memory_vectors_local_hash_384_384_idx_shadow',
    ]) {
      expect(before.mentioning.get(table)?.length ?? 0, table).toBeGreaterThan(0);
    }
    expect(await matches(ALICE_WORD)).toBeGreaterThan(0);
    expect(await vectorRows(aliceSeqs)).toBeGreaterThan(0);
    expect(existsSync(aliceMirror())).toBe(true);
    const ledger = 'SELECT idempotency_key FROM idempotency_keys ORDER BY idempotency_key';
    expect((await server.services.control.database.all(ledger)).map((row) => row.idempotency_key)).toEqual([
      'alice-add-1',
      'bob-add-1',
    ]);
    // What Bob sees of his own and of the shared records (the one Alice's memory had superseded aside).
    const untouched = (memories: Array<{ id: string }>) => memories.filter((memory) => memory.id !== sharedIds[1]);
    const bobList = async () =>
      untouched(
        (await server.post<{ memories: Array<{ id: string }> }>('/memories/list', { scope: bob, limit: 100 })).memories,
      );
    const bobContext = async () =>
      untouched(
        (await server.post<{ memories: Array<{ id: string }> }>('/context/get', { query: BOB_WORD, scope: bob }))
          .memories,
      );
    const bobListed = await bobList();
    const bobContextual = await bobContext();
    expect(bobListed.length).toBeGreaterThan(bobIds.length - 2);
    expect(bobContextual.length).toBeGreaterThan(0);
    const bobCount = await matches(BOB_WORD);
    const sharedCount = await matches(SHARED_WORD);
    const bobVectors = await vectorRows(
      (await database.all<{ seq: number }>('SELECT seq FROM memories WHERE user_id IS NOT ?', [ALICE])).map((row) =>
        Number(row.seq),
      ),
    );
    const kept = await scan(needles, aliceSeqs);
    // A read just before the erasure (lexical: no embedding usage to count): its metrics row waits in the log buffer,
    // and must not land after the erasure.
    await server.post('/context/get', { query: ALICE_WORD, strategy: 'lexical', scope: alice });

    const response = await server.call('POST', ERASE, { tenantId: TENANT, userId: ALICE }, { key: ADMIN_TOKEN });
    expect(response.status).toBe(200);
    const receipt = EraseUserDataSchema.parse(response.body.data);
    expect(receipt).toMatchObject({ userId: ALICE, tenantId: TENANT, supersedesCleared: 1 });
    expect(receipt.erased).toMatchObject({
      memories: aliceIds.length,
      sessions: 1,
      sessionSnapshots: 1,
      skillFiles: 1,
      skillMirrorFiles: 1,
      idempotencyKeys: 1,
      embeddingBackfill: 1,
      consolidationRuns: 1,
    });
    for (const kind of [
      'graphNodes',
      'memoryVersions',
      'vectors',
      'graphEdges',
      'graphLinks',
      'sessionEvents',
      'lifecycleEvents',
    ])
      expect(receipt.erased[kind as keyof typeof receipt.erased], kind).toBeGreaterThan(0);

    const after = await scan(needles, aliceSeqs);
    expect(Object.fromEntries(after.mentioning)).toEqual({});
    expect(await matches(ALICE_WORD)).toBe(0);
    expect(await vectorRows(aliceSeqs)).toBe(0);
    expect(existsSync(aliceMirror())).toBe(false);
    expect(existsSync(path.dirname(path.dirname(aliceMirror())))).toBe(false);
    expect((await server.services.control.database.all(ledger)).map((row) => row.idempotency_key)).toEqual([
      'bob-add-1',
    ]);

    // Every row that did not mention Alice is still there, unchanged (index pages, planner statistics and the
    // AUTOINCREMENT counters, which the read before the erasure moved on, aside).
    const derived = (table: string) =>
      table.startsWith('memories_fts_') ||
      table.endsWith('_shadow') ||
      table.startsWith('sqlite_stat') ||
      table === 'sqlite_sequence';
    for (const [table, rows] of kept.other) {
      if (derived(table)) continue;
      const now = new Set(after.other.get(table) ?? []);
      expect(
        rows.filter((row) => !now.has(row)),
        table,
      ).toEqual([]);
    }
    expect(await database.get('SELECT 1 FROM graph_nodes WHERE id = ?', ['entity:both'])).toBeDefined();
    expect(await database.get('SELECT 1 FROM graph_nodes WHERE id = ?', ['entity:zorbulon-only'])).toBeUndefined();
    expect(await database.get('SELECT superseded_by FROM memories WHERE id = ?', [sharedIds[1] as string])).toEqual({
      superseded_by: null,
    });
    expect(await matches(BOB_WORD)).toBe(bobCount);
    expect(await matches(SHARED_WORD)).toBe(sharedCount);
    expect(
      await vectorRows((await database.all<{ seq: number }>('SELECT seq FROM memories')).map((row) => Number(row.seq))),
    ).toBe(bobVectors);
    expect(await bobList()).toEqual(bobListed);
    expect(await bobContext()).toEqual(bobContextual);
    expect(existsSync(bobMirror())).toBe(true);

    const again = await server.call('POST', ERASE, { tenantId: TENANT, userId: ALICE }, { key: ADMIN_TOKEN });
    expect(again.body.data).toMatchObject({
      total: 0,
      message: `Nothing of user ${ALICE} was found in tenant ${TENANT}`,
    });
  });
});
