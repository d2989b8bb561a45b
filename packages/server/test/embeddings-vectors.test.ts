import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ResolvedScope } from '@memory-service/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltInRegistry, HASH_MODEL_ID } from '../src/embeddings/default-registry.js';
import { embedMemories } from '../src/embeddings/embed-memories.js';
import { hashEmbedding } from '../src/embeddings/hash-embedding.js';
import { vectorCandidates } from '../src/retrieval/semantic.js';
import { Database } from '../src/store/database.js';
import { MemoryStore } from '../src/store/memories.js';
import { migrate } from '../src/store/migrate.js';
import { tenantMigrations } from '../src/store/migrations/tenant.js';
import { VectorTables, vectorTableName } from '../src/store/vector-tables.js';
import { TenantDatabase } from '../src/tenancy/tenant-database.js';
import { plainNote } from './graph-test-helpers.js';

const now = new Date('2026-11-02T10:00:00.000Z');
const scope = (userId: string | null, projectId: string | null = null): ResolvedScope => ({
  tenantId: null,
  userId,
  projectId,
});

let directory: string;
let database: Database;
let tenant: TenantDatabase;
const ids: Record<string, string> = {};

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'memory-vectors-'));
  database = await Database.open({ url: `file:${path.join(directory, 'tenant.db')}` });
  await migrate(database, tenantMigrations);
  tenant = new TenantDatabase('vectors', null, database);
  const store = new MemoryStore(database);
  const add = async (name: string, content: string, owner: ResolvedScope) => {
    const [row] = await store.insertMany([
      {
        memory: plainNote(content, HASH_MODEL_ID),
        scope: owner,
        now,
      },
    ]);
    if (row === undefined) throw new Error('not inserted');
    ids[name] = row.id;
    return row;
  };
  const rows = [
    await add('shared', 'Kayak trips leave from the north pier', scope(null)),
    await add('alice', 'Alice keeps her kayak paddles in the shed', scope('alice')),
    await add('bob', 'Bob rents a kayak every summer', scope('bob')),
    await add('project', 'The kayak booking service uses Postgres', scope(null, 'booking')),
    await add('unrelated', 'Quarterly taxes are due in April', scope(null)),
  ];
  const outcome = await embedMemories(
    { tenant, registry: createBuiltInRegistry(), modelId: HASH_MODEL_ID, origin: 'write', now },
    rows,
  );
  expect(outcome).toEqual({ embedded: 5, failed: 0, error: null, failedIds: [] });
});
afterAll(() => {
  database.close();
  rmSync(directory, { recursive: true, force: true });
});

async function nearest(query: string, who: ResolvedScope, limit = 10) {
  const table = await new VectorTables(database).find(HASH_MODEL_ID);
  if (table === undefined) throw new Error('no vector table');
  const candidates = await vectorCandidates(database, table, hashEmbedding(query), {
    scope: who,
    limit,
    minSimilarity: 0.1,
    now,
  });
  return candidates.map((candidate) => candidate.row.id);
}

describe('vector tables', () => {
  it('creates one F32_BLOB table with a vector index per model and records it', async () => {
    const tables = await new VectorTables(database).list();
    expect(tables).toEqual([
      {
        modelId: HASH_MODEL_ID,
        tableName: 'memory_vectors_local_hash_384_384',
        indexName: 'memory_vectors_local_hash_384_384_idx',
        dimensions: 384,
      },
    ]);
    const schema = await database.get<{ sql: string }>('SELECT sql FROM sqlite_master WHERE name = ?', [
      'memory_vectors_local_hash_384_384',
    ]);
    expect(schema?.sql).toContain('F32_BLOB(384)');
    expect(vectorTableName('OpenAI/Text-Embedding-3-Small', 1536)).toBe(
      'memory_vectors_openai_text_embedding_3_small_1536',
    );
  });

  it('finds nearest memories with vector_top_k and applies scope filters before the cut', async () => {
    expect(await nearest('kayak', scope(null))).toEqual([ids.shared]);
    const alice = await nearest('kayak', scope('alice'));
    expect(alice.sort()).toEqual([ids.alice, ids.shared].sort());
    expect(alice).not.toContain(ids.bob);
    expect((await nearest('kayak', scope('bob', 'booking'))).sort()).toEqual([ids.bob, ids.project, ids.shared].sort());
    expect(await nearest('kayak', scope('alice'), 1)).toHaveLength(1);
  });

  it('drops neighbours below the similarity floor', async () => {
    expect(await nearest('kayak', scope(null))).not.toContain(ids.unrelated);
  });

  it('skips soft-deleted memories and purges orphan vectors after a hard delete', async () => {
    await new MemoryStore(database).softDelete(ids.shared ?? '', scope(null), now);
    expect(await nearest('kayak', scope(null))).toEqual([]);
    await database.run('DELETE FROM memories WHERE id = ?', [ids.shared ?? '']);
    expect(await new VectorTables(database).purgeOrphans()).toBe(1);
    const count = await database.get<{ count: number }>(
      'SELECT COUNT(*) AS count FROM memory_vectors_local_hash_384_384',
    );
    expect(Number(count?.count)).toBe(4);
  });
});
