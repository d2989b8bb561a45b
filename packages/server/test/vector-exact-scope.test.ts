import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ResolvedScope } from '@memory-service/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HASH_MODEL_ID } from '../src/embeddings/default-registry.js';
import { Database } from '../src/store/database.js';
import { MemoryStore } from '../src/store/memories.js';
import { migrate } from '../src/store/migrate.js';
import { tenantMigrations } from '../src/store/migrations/tenant.js';
import { EXACT_SEARCH_MAX, ScopeRankings, scopeRanking } from '../src/store/scope-ranking.js';
import { plainNote } from './graph-test-helpers.js';

/** Where exact ranking stops: a scope that sees `EXACT_SEARCH_MAX` live memories, and one more. */
const now = new Date('2026-11-02T10:00:00.000Z');
const scope = (userId: string | null): ResolvedScope => ({ tenantId: null, userId, projectId: null });

let directory: string;
let database: Database;
let store: MemoryStore;
const bobs: string[] = [];

async function insert(count: number, userId: string | null, into: string[] = []) {
  for (let start = 0; start < count; start += 500) {
    const batch = Array.from({ length: Math.min(500, count - start) }, (_, index) => ({
      memory: plainNote(`note ${start + index} of ${userId ?? 'everyone'} about the harbour`, HASH_MODEL_ID),
      scope: scope(userId),
      now,
    }));
    into.push(...(await store.insertMany(batch)).map((row) => row.id));
  }
}

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'vector-exact-'));
  database = await Database.open({ url: `file:${path.join(directory, 'tenant.db')}` });
  await migrate(database, tenantMigrations);
  store = new MemoryStore(database);
  // Bob sees his own memories and the shared ones: EXACT_SEARCH_MAX in all.
  await insert(EXACT_SEARCH_MAX - 96, 'bob', bobs);
  await insert(96, null);
  await insert(EXACT_SEARCH_MAX + 10, 'carol');
}, 120_000);
afterAll(() => {
  database.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('how a scope is ranked', () => {
  it('a scope of EXACT_SEARCH_MAX live memories in a larger tenant exactly, one more by the index', async () => {
    expect(await scopeRanking(database, scope('bob'))).toBe('exact');
    expect(await scopeRanking(database, scope('carol'))).toBe('index');
    await insert(1, 'bob', bobs);
    expect(await scopeRanking(database, scope('bob'))).toBe('index');
    // Forgotten memories do not count.
    await database.run('UPDATE memories SET deleted_at = ? WHERE id = ?', [now.toISOString(), bobs[0] ?? '']);
    expect(await scopeRanking(database, scope('bob'))).toBe('exact');
    // The shared scope sees only the shared memories: a few, whatever the users wrote.
    expect(await scopeRanking(database, scope(null))).toBe('exact');
  });

  it('a small scope that is the whole tenant by the index, exactly when its list is short', async () => {
    await database.run('UPDATE memories SET deleted_at = ? WHERE user_id IS NOT NULL', [now.toISOString()]);
    expect(await scopeRanking(database, scope(null))).toBe('index-or-exact');
    expect(await scopeRanking(database, scope('bob'))).toBe('index-or-exact');
  });

  it('a database remembers its large scopes, and counts the others on every query', async () => {
    await database.run("UPDATE memories SET deleted_at = NULL WHERE user_id = 'carol'");
    const rankings = new ScopeRankings(database);
    expect(await rankings.ranking(scope('carol'))).toBe('index');
    await store.insertMany([{ memory: plainNote('dan at the harbour', HASH_MODEL_ID), scope: scope('dan'), now }]);
    expect(await rankings.ranking(scope('dan'))).toBe('exact');
    // Most of Carol's memories forgotten: counted again she is small, remembered she is still large (for a minute).
    await database.run("UPDATE memories SET deleted_at = ? WHERE user_id = 'carol' AND seq % 2 = 0", [
      now.toISOString(),
    ]);
    expect(await scopeRanking(database, scope('carol'))).toBe('exact');
    expect(await rankings.ranking(scope('carol'))).toBe('index');
    // Dan's scope was small: it is counted again, and now sees every live memory there is.
    await database.run("UPDATE memories SET deleted_at = ? WHERE user_id IS NOT 'dan'", [now.toISOString()]);
    expect(await rankings.ranking(scope('dan'))).toBe('index-or-exact');
  });
});
