import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../src/store/database.js';

const dir = mkdtempSync(path.join(tmpdir(), 'log-buffer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function openLog(name: string): Promise<Database> {
  const database = await Database.open({ url: `file:${path.join(dir, name)}` });
  await database.run('CREATE TABLE log (n INTEGER NOT NULL)');
  return database;
}

const count = async (database: Database) =>
  Number((await database.get<{ c: number }>('SELECT COUNT(*) AS c FROM log'))?.c);

describe('LogBuffer (log rows written by reads)', () => {
  it('holds rows until a flush, then writes them with one housekeeping statement per key', async () => {
    const database = await openLog('a.db');
    for (let n = 1; n <= 5; n += 1) {
      database.logs.append(
        { sql: 'INSERT INTO log (n) VALUES (?)', args: [n] },
        { key: 'log', statement: { sql: 'DELETE FROM log WHERE n < ?', args: [n - 2] } },
      );
    }
    expect(await count(database)).toBe(0);
    await database.logs.flush();
    // Only the last housekeeping statement ran (n < 3), after the rows were inserted.
    expect(await database.all('SELECT n FROM log ORDER BY n')).toEqual([{ n: 3 }, { n: 4 }, { n: 5 }]);
    await database.close();
  });

  it('writes on its own after a short delay, and on close', async () => {
    const database = await openLog('b.db');
    database.logs.append({ sql: 'INSERT INTO log (n) VALUES (1)', args: [] });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await count(database)).toBe(1);
    database.logs.append({ sql: 'INSERT INTO log (n) VALUES (2)', args: [] });
    await database.close();
    const reopened = await Database.open({ url: `file:${path.join(dir, 'b.db')}` });
    expect(await count(reopened)).toBe(2);
    await reopened.close();
  });

  it('drops and counts rows whose write fails, without throwing, and keeps writing later rows', async () => {
    const database = await openLog('c.db');
    const reported: Array<[number, string]> = [];
    database.logs.onDropped = (rows, reason) => reported.push([rows, reason]);
    database.logs.append({ sql: 'INSERT INTO missing_table (n) VALUES (1)', args: [] });
    database.logs.append({ sql: 'INSERT INTO log (n) VALUES (1)', args: [] });
    await expect(database.logs.flush()).resolves.toBeUndefined();
    // Why, as SQLite's code: never the message, which quotes the statement.
    expect(reported).toEqual([[2, 'SQLITE_ERROR']]);
    database.logs.append({ sql: 'INSERT INTO log (n) VALUES (2)', args: [] });
    await database.logs.flush();
    expect(await count(database)).toBe(1);
    await database.close();
  });

  it('says a row appended after its database closed is lost because the database was closed', async () => {
    const database = await openLog('d.db');
    const reported: Array<[number, string]> = [];
    database.logs.onDropped = (rows, reason) => reported.push([rows, reason]);
    await database.close();
    database.logs.append({ sql: 'INSERT INTO log (n) VALUES (1)', args: [] });
    await database.logs.flush();
    expect(reported).toEqual([[1, 'DATABASE_CLOSED']]);
  });
});
