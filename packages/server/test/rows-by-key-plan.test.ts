import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { InArgs } from '@libsql/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HASH_MODEL_ID } from '../src/embeddings/default-registry.js';
import { withRows } from '../src/retrieval/semantic.js';
import { Database } from '../src/store/database.js';
import { MemoryStore } from '../src/store/memories.js';
import { migrate } from '../src/store/migrate.js';
import { tenantMigrations } from '../src/store/migrations/tenant.js';
import { plainNote } from './graph-test-helpers.js';

/**
 * A hybrid query reads its candidates' rows by `seq` (a few hundred of a tenant's memories). Written as `m.seq IN
 * (SELECT value FROM json_each(?))` beside the live-row conditions, SQLite chose a live-rows index when it had no
 * statistics (a tenant that grew since it was opened) and tested every live memory against the list: 12-23 ms at 100k
 * memories instead of 3.5 ms by key. The read must be by key whatever the statistics say.
 */
const now = new Date('2026-11-02T10:00:00.000Z');
const SHARED = { tenantId: null, userId: null, projectId: null };

let directory: string;
let database: Database;
let seqs: number[];

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'rows-by-key-'));
  database = await Database.open({ url: `file:${path.join(directory, 'tenant.db')}` });
  await migrate(database, tenantMigrations);
  const store = new MemoryStore(database);
  const rows = await store.insertMany(
    Array.from({ length: 300 }, (_, index) => ({
      memory: plainNote(`note ${index} about the harbour`, HASH_MODEL_ID),
      scope: SHARED,
      now,
    })),
  );
  seqs = rows.map((row) => row.seq);
}, 60_000);
afterAll(() => {
  database.close();
  rmSync(directory, { recursive: true, force: true });
});

/** The plan lines of the statement `withRows` runs for the given lists. */
async function withRowsPlan(lists: Array<Array<{ seq: number; score: number }>>): Promise<string[]> {
  const statements: Array<{ sql: string; args: InArgs }> = [];
  const all = database.all.bind(database);
  const spy = vi.spyOn(database, 'all').mockImplementation((sql: string, args: InArgs = []) => {
    statements.push({ sql, args });
    return all(sql, args);
  });
  try {
    await withRows(database, lists);
  } finally {
    spy.mockRestore();
  }
  expect(statements).toHaveLength(1);
  const [statement] = statements as [{ sql: string; args: InArgs }];
  const plan = await database.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${statement.sql}`, statement.args);
  return plan.map((line) => line.detail);
}

describe('rows read by seq', () => {
  const lists = () => [
    seqs.slice(0, 200).map((seq, index) => ({ seq, score: 1 - index / 1000 })),
    seqs.slice(100, 300).map((seq, index) => ({ seq, score: 0.9 - index / 1000 })),
  ];

  it('are read by key without statistics and with them', async () => {
    for (const analyzed of [false, true]) {
      if (analyzed) await database.run('ANALYZE');
      const plan = await withRowsPlan(lists());
      const memories = plan.filter((line) => / m\b/.test(line));
      expect(memories, `${analyzed ? 'with' : 'without'} statistics: ${plan.join(' | ')}`).toEqual([
        expect.stringMatching(/^SEARCH m USING INTEGER PRIMARY KEY \(rowid=\?\)$/),
      ]);
    }
  });

  it('keep each list in its order with its scores, leaving out what was forgotten since', async () => {
    const forgotten = seqs[150] as number;
    await database.run('UPDATE memories SET deleted_at = ? WHERE seq = ?', [now.toISOString(), forgotten]);
    const [first, second] = await withRows(database, lists());
    expect(first?.map(({ row }) => row.seq)).toEqual(seqs.slice(0, 200).filter((seq) => seq !== forgotten));
    expect(second?.map(({ row }) => row.seq)).toEqual(seqs.slice(100, 300).filter((seq) => seq !== forgotten));
    expect(first?.[0]).toMatchObject({ score: 1, source: 'semantic', row: { content: 'note 0 about the harbour' } });
  });
});
