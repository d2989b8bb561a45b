import { mkdtempSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../src/store/database.js';
import { DatabasePool } from '../src/store/database-pool.js';
import { pageCacheKib } from '../src/store/page-cache.js';

// A connection keeps a share of its database file in SQLite's page cache (`store/page-cache.ts`): a large tenant's
// B-tree interior pages stay in memory, a small one keeps SQLite's default, and no connection keeps more than a cap.

const GIB = 1024 ** 3;

describe('the page cache a connection keeps', () => {
  it('is SQLite’s default 2,000 KiB for a database under 1 GB', () => {
    expect(pageCacheKib(0)).toBe(2_000);
    expect(pageCacheKib(50 * 1024 ** 2)).toBe(2_000);
    expect(pageCacheKib(0.9 * GIB)).toBe(2_000);
  });

  it('is a 512th of a larger file', () => {
    expect(pageCacheKib(4 * GIB)).toBe(8_192);
    expect(pageCacheKib(19 * GIB)).toBe(38_912);
  });

  it('stops at 64 MB per connection', () => {
    expect(pageCacheKib(32 * GIB)).toBe(65_536);
    expect(pageCacheKib(1_000 * GIB)).toBe(65_536);
  });
});

describe('a database opened in the workers', () => {
  let directory: string;
  let pool: DatabasePool;

  beforeAll(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'memory-service-page-cache-'));
    pool = new DatabasePool(2);
  });
  afterAll(async () => {
    await pool.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const cacheSize = async (database: Database) =>
    Number((await database.get<{ cache_size: number }>('PRAGMA cache_size'))?.cache_size);

  it('keeps the default cache for a small database', async () => {
    const database = await Database.open({ url: `file:${path.join(directory, 'small.db')}` }, pool);
    await database.run('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
    expect(await cacheSize(database)).toBe(-2_000);
    await database.close();
  });

  it('keeps a 512th of the file for a large one, and reads it as before', async () => {
    const file = path.join(directory, 'large.db');
    const created = await Database.open({ url: `file:${file}` }, pool);
    await created.run('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
    await created.run("INSERT INTO notes (body) VALUES ('kept')");
    await created.close();
    // The file grows to 4 GiB without taking the disk (sparse); SQLite reads the size its header records.
    truncateSync(file, 4 * GIB);
    const database = await Database.open({ url: `file:${file}` }, pool);
    expect(await cacheSize(database)).toBe(-8_192);
    expect(await database.all<{ body: string }>('SELECT body FROM notes')).toEqual([{ body: 'kept' }]);
    await database.close();
  });
});
