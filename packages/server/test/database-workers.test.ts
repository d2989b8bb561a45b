import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inBackground, runInRequestScope } from '../src/request-scope.js';
import { Database } from '../src/store/database.js';
import { DatabasePool } from '../src/store/database-pool.js';

/** A query that keeps SQLite busy for a while (millions of rows through a recursive CTE). */
const SLOW_QUERY = `WITH RECURSIVE counter(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM counter WHERE n < 3000000)
  SELECT COUNT(*) AS count FROM counter`;

/** A pool of `workers` threads and a file database on it with `table`, made before a describe's tests, closed after. */
function databaseOnPool(workers: number, table: string): { directory: string; pool: DatabasePool; database: Database } {
  const fixture = {} as { directory: string; pool: DatabasePool; database: Database };
  beforeAll(async () => {
    fixture.directory = mkdtempSync(path.join(tmpdir(), 'memory-service-db-workers-'));
    fixture.pool = new DatabasePool(workers);
    fixture.database = await Database.open({ url: `file:${path.join(fixture.directory, 'tenant.db')}` }, fixture.pool);
    await fixture.database.run(table);
  });
  afterAll(async () => {
    await fixture.database.close();
    await fixture.pool.close();
    rmSync(fixture.directory, { recursive: true, force: true });
  });
  return fixture;
}

describe('file databases in worker threads', () => {
  const fixture = databaseOnPool(
    2,
    'CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT, flag INTEGER, payload BLOB)',
  );

  it('keeps the event loop free while a slow statement runs', async () => {
    const order: string[] = [];
    const query = fixture.database.all<{ count: number }>(SLOW_QUERY).then((rows) => {
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
    await fixture.database.transaction([
      {
        sql: 'INSERT INTO items (id, label, flag, payload) VALUES (?, ?, ?, ?)',
        args: [1, 'one', true, vector.buffer],
      },
      { sql: 'INSERT INTO items (id, label, flag, payload) VALUES (?, ?, ?, ?)', args: [2, null, false, null] },
    ]);
    const rows = await fixture.database.all<{
      id: number;
      label: string | null;
      flag: number;
      payload: ArrayBuffer | null;
    }>('SELECT id, label, flag, payload FROM items ORDER BY id');
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
      fixture.database.transaction([
        { sql: 'INSERT INTO items (id, label) VALUES (?, ?)', args: [10, 'kept?'] },
        { sql: 'INSERT INTO items (id, label) VALUES (?, ?)', args: [1, 'duplicate id'] },
      ]),
    ).rejects.toThrow(/UNIQUE/);
    expect(await fixture.database.get('SELECT id FROM items WHERE id = 10')).toBeUndefined();
    expect(await fixture.database.run('UPDATE items SET label = ? WHERE id = 2', ['two'])).toBe(1);
  });

  it('lets every reader see a committed write at once, whichever worker reads', async () => {
    for (let round = 0; round < 20; round++) {
      await fixture.database.run('INSERT INTO items (label) VALUES (?)', [`row ${round}`]);
      const reads = await Promise.all(
        [0, 1, 2, 3].map(() =>
          fixture.database.get<{ count: number }>('SELECT COUNT(*) AS count FROM items WHERE label = ?', [
            `row ${round}`,
          ]),
        ),
      );
      expect(reads.map((row) => row?.count)).toEqual([1, 1, 1, 1]);
    }
  });

  it('refuses integers JavaScript cannot hold instead of rounding them', async () => {
    await expect(fixture.database.get('SELECT 9007199254740993 AS big')).rejects.toThrow(/safely/);
  });

  it('keeps an in-memory database on one connection (a reader elsewhere would see another, empty one)', async () => {
    const memory = await Database.open({ url: 'file::memory:' }, fixture.pool);
    await memory.run('CREATE TABLE notes (text TEXT)');
    await memory.run('INSERT INTO notes VALUES (?)', ['kept']);
    const reads = await Promise.all([0, 1, 2].map(() => memory.all<{ text: string }>('SELECT text FROM notes')));
    expect(reads.map((rows) => rows.map((row) => row.text))).toEqual([['kept'], ['kept'], ['kept']]);
    await memory.close();
  });

  it('closes a database even from a request past its deadline (its connections never stay open in the workers)', async () => {
    const other = await Database.open({ url: `file:${path.join(fixture.directory, 'late-close.db')}` }, fixture.pool);
    await other.run('CREATE TABLE notes (text TEXT)');
    const expired = new AbortController();
    expired.abort(new Error('deadline'));
    // A statement of the expired request is refused, but the close is not.
    await expect(runInRequestScope(expired.signal, () => other.all('SELECT 1'))).rejects.toThrow();
    await runInRequestScope(expired.signal, () => other.close());
    await expect(other.all('SELECT 1')).rejects.toThrow(/closed/);
  });

  it('fails calls on a closed database instead of reopening it', async () => {
    const other = await Database.open({ url: `file:${path.join(fixture.directory, 'closed.db')}` }, fixture.pool);
    await other.close();
    await expect(other.all('SELECT 1')).rejects.toThrow(/closed/);
  });
});

describe('a database worker holding reads', () => {
  const fixture = databaseOnPool(1, 'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)');
  /** Starts with SELECT, so the pool treats it as a read any worker may serve. */
  const slowRead = `SELECT (${SLOW_QUERY}) AS count`;

  it('runs a foreground write before the reads it already holds; background writes keep their turn', async () => {
    const order: string[] = [];
    const track = (label: string, work: Promise<unknown>) =>
      work.then(() => {
        order.push(label);
      });
    const done = [
      track('read 1', fixture.database.all(slowRead)),
      track('read 2', fixture.database.all(slowRead)),
      track('read 3', fixture.database.all(slowRead)),
      track('write', fixture.database.run("INSERT INTO notes (text) VALUES ('acknowledged')")),
      track(
        'background write',
        inBackground(() => fixture.database.run("INSERT INTO notes (text) VALUES ('indexed')")),
      ),
    ];
    await Promise.all(done);
    // The worker held read 2 (and ran read 1, unless the write came before it started) when the write came: the
    // write went ahead of read 2. The background write waited for the reads the worker held, then went before the
    // read still queued in the pool.
    expect(order.indexOf('write')).toBeLessThan(order.indexOf('read 2'));
    expect(order.slice(-3)).toEqual(['read 2', 'background write', 'read 3']);
    expect(await fixture.database.all('SELECT text FROM notes ORDER BY id')).toEqual([
      { text: 'acknowledged' },
      { text: 'indexed' },
    ]);
  });

  it('returns the rows a write gives back (RETURNING) with its transaction, and counts them as changed', async () => {
    const [inserted, skipped] = await fixture.database.transactionResults([
      { sql: "INSERT INTO notes (text) VALUES ('returned') RETURNING id, text", args: [] },
      { sql: "INSERT INTO notes (text) SELECT 'never' WHERE 0 RETURNING id, text", args: [] },
    ]);
    expect(inserted?.rows).toEqual([{ id: expect.any(Number), text: 'returned' }]);
    expect(inserted?.rowsAffected).toBe(1);
    expect(skipped).toEqual({ rows: [], rowsAffected: 0 });
  });
});

describe('background work on a database worker', () => {
  const fixture = databaseOnPool(2, 'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)');

  it('holds no request read behind it: the read goes to the other worker', async () => {
    const order: string[] = [];
    // A slow background write (as an index transaction is) on the database's home worker, the pool's first.
    const write = inBackground(() =>
      fixture.database.run(`INSERT INTO notes (text) SELECT count FROM (${SLOW_QUERY})`).then(() => {
        order.push('background write');
      }),
    );
    const read = fixture.database.all('SELECT 1 AS one').then(() => {
      order.push('read');
    });
    await Promise.all([write, read]);
    expect(order).toEqual(['read', 'background write']);
  });
});

describe("a database's reads and the workers holding its connections", () => {
  /** A pool of two workers and two databases opened on it: `first` lives on worker 0, `second` on worker 1. */
  const fixture = {} as { directory: string; pool: DatabasePool; first: Database; second: Database };
  const slowRead = `SELECT (${SLOW_QUERY}) AS count`;
  beforeAll(async () => {
    fixture.directory = mkdtempSync(path.join(tmpdir(), 'memory-service-db-affinity-'));
  });
  afterAll(() => {
    rmSync(fixture.directory, { recursive: true, force: true });
  });
  // Each test gets a fresh pool and its two databases (each open runs its first statement on its home worker).
  beforeEach(async () => {
    fixture.pool = new DatabasePool(2);
    const open = async (name: string) => {
      const database = await Database.open({ url: `file:${path.join(fixture.directory, name)}` }, fixture.pool);
      await database.run('CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, text TEXT)');
      return database;
    };
    fixture.first = await open('first.db');
    fixture.second = await open('second.db');
  });
  afterEach(async () => {
    await fixture.first.close();
    await fixture.second.close();
    await fixture.pool.close();
  });

  it("sends a read to a worker holding its database's connection rather than open another on a busy worker", async () => {
    expect(await fixture.pool.openConnections()).toBe(2);
    // Worker 0 runs a slow read of the first database; a read of the second and another of the first follow. Worker
    // 0 has room for one more: it takes the first database's read, and the second's goes to worker 1, its home.
    await Promise.all([fixture.first.all(slowRead), fixture.second.all('SELECT 1'), fixture.first.all('SELECT 2')]);
    expect(await fixture.pool.openConnections()).toBe(2);
  });

  it('lets a worker with nothing to run take the read, opening a connection, instead of holding it in line', async () => {
    const order: string[] = [];
    const track = (label: string, work: Promise<unknown>) =>
      work.then(() => {
        order.push(label);
      });
    // Worker 0 holds two slow reads of the first database; worker 1, idle, takes the third read.
    await Promise.all([
      track('slow 1', fixture.first.all(slowRead)),
      track('slow 2', fixture.first.all(slowRead)),
      track('quick', fixture.first.all('SELECT 3')),
    ]);
    expect(order[0]).toBe('quick');
    expect(await fixture.pool.openConnections()).toBe(3);
  });

  it('lets any worker take a read that waited long for its own, even one that never idles', async () => {
    // Worker 0, the first database's only worker, runs a slow background write (it takes no read meanwhile). Worker
    // 1 is kept busy with reads of its own database, two at a time, so it never has nothing to run.
    let background = false;
    const write = inBackground(() =>
      fixture.first.run(`INSERT INTO notes (text) SELECT count FROM (${SLOW_QUERY.replace('3000000', '9000000')})`),
    ).then(() => {
      background = true;
    });
    let read = false;
    const feed = async () => {
      while (!read && !background) await fixture.second.all('SELECT 4');
    };
    const feeders = [feed(), feed()];
    await fixture.first.all('SELECT 5');
    read = true;
    // The read was served while the background write still ran: worker 1 took it once it had waited.
    expect(background).toBe(false);
    await Promise.all([write, ...feeders]);
  });
});
