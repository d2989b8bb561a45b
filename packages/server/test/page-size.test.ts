import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '@libsql/client';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../src/store/database.js';

const directory = mkdtempSync(path.join(tmpdir(), 'page-size-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const pageSize = async (database: Database) =>
  Number((await database.get<{ page_size: number }>('PRAGMA page_size'))?.page_size);

describe('page size of the databases the server creates', () => {
  it('creates a database with 8 KB pages (two per vector index node, not four)', async () => {
    const database = await Database.open({ url: `file:${path.join(directory, 'new.db')}` });
    await database.run('CREATE TABLE notes (body TEXT)');
    expect(await pageSize(database)).toBe(8192);
    await database.close();
    const again = await Database.open({ url: `file:${path.join(directory, 'new.db')}` });
    expect(await pageSize(again)).toBe(8192);
    await again.close();
  });

  it('keeps the page size of a database made before, and reads and writes it', async () => {
    const file = path.join(directory, 'older.db');
    const older = createClient({ url: `file:${file}` });
    await older.execute('CREATE TABLE notes (body TEXT)');
    await older.execute("INSERT INTO notes VALUES ('written by an older server')");
    older.close();
    const database = await Database.open({ url: `file:${file}` });
    expect(await pageSize(database)).toBe(4096);
    await database.run("INSERT INTO notes VALUES ('written now')");
    expect(await database.all('SELECT body FROM notes ORDER BY rowid')).toEqual([
      { body: 'written by an older server' },
      { body: 'written now' },
    ]);
    await database.close();
  });
});
