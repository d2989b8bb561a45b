import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEASE_MS } from '../src/indexing/indexer.js';
import type { Database } from '../src/store/database.js';
import { claimIndexJobs, type IndexJob } from '../src/store/index-jobs.js';
import { workspaceDatabase } from './graph-test-helpers.js';
import { createTestServer, type TestServer } from './harness.js';

/** Two servers (two claimant ids) over one data dir: two processes sharing one database. */
let directory: string;
let first: TestServer;
let second: TestServer;
let firstDatabase: Database;
let secondDatabase: Database;

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'memory-indexing-lease-'));
  first = await createTestServer({}, directory);
  second = await createTestServer({}, directory);
  firstDatabase = await workspaceDatabase(first);
  secondDatabase = await workspaceDatabase(second);
});
afterAll(async () => {
  await first.close();
  await second.close();
  rmSync(directory, { recursive: true, force: true });
});

const addMany = async (server: TestServer, count: number, label: string) => {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1)
    ids.push(
      (await server.post<{ id: string }>('/memories/add', { content: `${label} note ${index} about leases` })).id,
    );
  return ids;
};

describe('index job leases', () => {
  it('never lets two indexers claim one job while its lease holds', async () => {
    expect(first.services.indexing.claimant).not.toBe(second.services.indexing.claimant);
    first.services.indexing.pause();
    second.services.indexing.pause();
    const ids = await addMany(first, 40, 'Claimed');
    const claimAll = async (database: Database, claimant: string) => {
      const claimed: IndexJob[] = [];
      for (;;) {
        const batch = await claimIndexJobs(database, claimant, { nowMs: Date.now(), leaseMs: LEASE_MS, limit: 3 });
        if (batch.length === 0) return claimed;
        claimed.push(...batch);
      }
    };
    const [mine, theirs] = await Promise.all([
      claimAll(firstDatabase, first.services.indexing.claimant),
      claimAll(secondDatabase, second.services.indexing.claimant),
    ]);
    const mineIds = new Set(mine.map((job) => job.memoryId));
    const theirIds = new Set(theirs.map((job) => job.memoryId));
    expect([...mineIds].filter((id) => theirIds.has(id))).toEqual([]);
    expect(new Set([...mineIds, ...theirIds])).toEqual(new Set(ids));
    expect(mine.length + theirs.length).toBe(ids.length);
    // Held jobs are not due for anyone, until their lease has run out.
    expect(await claimIndexJobs(firstDatabase, 'late', { nowMs: Date.now(), leaseMs: LEASE_MS, limit: 100 })).toEqual(
      [],
    );
    const expired = await claimIndexJobs(firstDatabase, 'late', {
      nowMs: Date.now() + LEASE_MS + 1,
      leaseMs: LEASE_MS,
      limit: 100,
    });
    expect(expired).toHaveLength(ids.length);
    await firstDatabase.run('DELETE FROM index_jobs');
  });

  it('indexes each memory once when both servers index the same database at once', async () => {
    first.services.indexing.pause();
    second.services.indexing.pause();
    const ids = await addMany(first, 30, 'Shared');
    first.services.indexing.resume();
    second.services.indexing.resume();
    await Promise.all([first.indexed(), second.indexed()]);
    const marks = ids.map(() => '?').join(', ');
    const jobs = await firstDatabase.all<{ memory_id: string; count: number }>(
      `SELECT memory_id, COUNT(*) AS count FROM embedding_jobs WHERE memory_id IN (${marks}) GROUP BY memory_id`,
      ids,
    );
    expect(jobs).toHaveLength(ids.length);
    expect(jobs.filter((job) => Number(job.count) !== 1)).toEqual([]);
    const left = await firstDatabase.get<{ count: number }>('SELECT COUNT(*) AS count FROM index_jobs');
    expect(Number(left?.count)).toBe(0);
  });
});
