import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInRequestScope } from '../src/request-scope.js';
import { Database } from '../src/store/database.js';
import { DatabasePool } from '../src/store/database-pool.js';

/** A query that keeps SQLite busy for a while (millions of rows through a recursive CTE). */
const SLOW_QUERY = `WITH RECURSIVE counter(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM counter WHERE n < 3000000)
  SELECT COUNT(*) AS count FROM counter`;

describe('file databases in worker threads', () => {
  let directory: string;
  let pool: DatabasePool;
  let database: Database;

  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'memory-service-db-workers-'));
    pool = new DatabasePool(2);
    database = await Database.open({ url: `file:${path.join(directory, 'tenant.db')}` }, pool);
    await database.run('CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT, flag INTEGER, payload BLOB)');
  });

  afterAll(async () => {
    await database.close();
    await pool.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('keeps the event loop free while a slow statement runs', async () => {
    const order: string[] = [];
    const query = database.all<{ count: number }>(SLOW_QUERY).then((rows) => {
      order.push('query');
      return rows;
    });
    // A timer can only fire while the query runs if the query is not on this thread.
    await new Promise((resolve) => setTimeout(resolve, 1));
    order.push('timer');
    expect((await query)[0]?.count).toBe(3_000_000);
    expect(order).toEqual(['timer', 'query']);
  });

  it('returns values as @libsql/client does: numbers, text, null, blobs as ArrayBuffer, booleans as 0/1', async () => {
    const vector = new Float32Array([0.5, -1, 2.25]);
    await database.transaction([
      {
        sql: 'INSERT INTO items (id, label, flag, payload) VALUES (?, ?, ?, ?)',
        args: [1, 'one', true, vector.buffer],
      },
      { sql: 'INSERT INTO items (id, label, flag, payload) VALUES (?, ?, ?, ?)', args: [2, null, false, null] },
    ]);
    const rows = await database.all<{ id: number; label: string | null; flag: number; payload: ArrayBuffer | null }>(
      'SELECT id, label, flag, payload FROM items ORDER BY id',
    );
    expect(rows.map(({ id, label, flag }) => ({ id, label, flag }))).toEqual([
      { id: 1, label: 'one', flag: 1 },
      { id: 2, label: null, flag: 0 },
    ]);
    expect(rows[0]?.payload).toBeInstanceOf(ArrayBuffer);
    expect([...new Float32Array(rows[0]?.payload as ArrayBuffer)]).toEqual([0.5, -1, 2.25]);
    expect(rows[1]?.payload).toBeNull();
  });

  it('rolls a failed transaction back whole and keeps the connection usable', async () => {
    await expect(
      database.transaction([
        { sql: 'INSERT INTO items (id, label) VALUES (?, ?)', args: [10, 'kept?'] },
        { sql: 'INSERT INTO items (id, label) VALUES (?, ?)', args: [1, 'duplicate id'] },
      ]),
    ).rejects.toThrow(/UNIQUE/);
    expect(await database.get('SELECT id FROM items WHERE id = 10')).toBeUndefined();
    expect(await database.run('UPDATE items SET label = ? WHERE id = 2', ['two'])).toBe(1);
  });

  it('lets every reader see a committed write at once, whichever worker reads', async () => {
    for (let round = 0; round < 20; round++) {
      await database.run('INSERT INTO items (label) VALUES (?)', [`row ${round}`]);
      const reads = await Promise.all(
        [0, 1, 2, 3].map(() =>
          database.get<{ count: number }>('SELECT COUNT(*) AS count FROM items WHERE label = ?', [`row ${round}`]),
        ),
      );
      expect(reads.map((row) => row?.count)).toEqual([1, 1, 1, 1]);
    }
  });

  it('refuses integers JavaScript cannot hold instead of rounding them', async () => {
    await expect(database.get('SELECT 9007199254740993 AS big')).rejects.toThrow(/safely/);
  });

  it('keeps an in-memory database on one connection (a reader elsewhere would see another, empty one)', async () => {
    const memory = await Database.open({ url: 'file::memory:' }, pool);
    await memory.run('CREATE TABLE notes (text TEXT)');
    await memory.run('INSERT INTO notes VALUES (?)', ['kept']);
    const reads = await Promise.all([0, 1, 2].map(() => memory.all<{ text: string }>('SELECT text FROM notes')));
    expect(reads.map((rows) => rows.map((row) => row.text))).toEqual([['kept'], ['kept'], ['kept']]);
    await memory.close();
  });

  it('closes a database even from a request past its deadline (its connections never stay open in the workers)', async () => {
    const other = await Database.open({ url: `file:${path.join(directory, 'late-close.db')}` }, pool);
    await other.run('CREATE TABLE notes (text TEXT)');
    const expired = new AbortController();
    expired.abort(new Error('deadline'));
    // A statement of the expired request is refused, but the close is not.
    await expect(runInRequestScope(expired.signal, () => other.all('SELECT 1'))).rejects.toThrow();
    await runInRequestScope(expired.signal, () => other.close());
    await expect(other.all('SELECT 1')).rejects.toThrow(/closed/);
  });

  it('fails calls on a closed database instead of reopening it', async () => {
    const other = await Database.open({ url: `file:${path.join(directory, 'closed.db')}` }, pool);
    await other.close();
    await expect(other.all('SELECT 1')).rejects.toThrow(/closed/);
  });
});
