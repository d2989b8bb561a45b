import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { InArgs } from '@libsql/client';
import type { ResolvedScope } from '@memory-service/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backfillStatus } from '../src/embeddings/backfill.js';
import { createBuiltInRegistry, HASH_MODEL_ID } from '../src/embeddings/default-registry.js';
import { embedMemories } from '../src/embeddings/embed-memories.js';
import { Database } from '../src/store/database.js';
import { coverage, coverageCounts } from '../src/store/embedding-coverage.js';
import { MemoryStore } from '../src/store/memories.js';
import type { MemoryRow } from '../src/store/memory-rows.js';
import { migrate } from '../src/store/migrate.js';
import { tenantMigrations } from '../src/store/migrations/tenant.js';
import { visibleTo } from '../src/store/scope-filter.js';
import { vectorKeyIndexName } from '../src/store/vector-tables.js';
import { TenantDatabase } from '../src/tenancy/tenant-database.js';
import { plainNote } from './graph-test-helpers.js';

const scope = (userId: string | null, projectId: string | null = null): ResolvedScope => ({
  tenantId: null,
  userId,
  projectId,
});
const SCOPES = [scope(null), scope('alice'), scope('bob'), scope(null, 'booking'), scope('alice', 'booking')];

let directory: string;
let database: Database;
let tenant: TenantDatabase;
let tableName: string;

/** The figures as the report computed them before it read the key indexes: every row, plain rowid probes. */
async function plainCoverage(at: ResolvedScope, modelId: string) {
  const visible = visibleTo(at, 'm');
  const lacking = `NOT EXISTS (SELECT 1 FROM ${tableName} v NOT INDEXED WHERE v.memory_seq = m.seq)`;
  const lacks = modelId === HASH_MODEL_ID ? lacking : '1 = 1';
  const where = `m.deleted_at IS NULL AND m.superseded_by IS NULL AND ${visible.sql}`;
  const row = await database.get<{ total: number; pending: number; failed: number; oldest: string | null }>(
    `SELECT COUNT(*) AS total, COALESCE(SUM(${lacks}), 0) AS pending,
            COALESCE(SUM(${lacks} AND EXISTS (SELECT 1 FROM embedding_jobs j
              WHERE j.memory_id = m.id AND j.model_id = ? AND j.status = 'failed')), 0) AS failed,
            MIN(CASE WHEN ${lacks} THEN m.updated_at END) AS oldest
       FROM memories m NOT INDEXED WHERE ${where}`,
    [modelId, ...visible.args],
  );
  return {
    total: Number(row?.total),
    pending: Number(row?.pending),
    failed: Number(row?.failed),
    oldestPendingAt: row?.oldest ?? null,
  };
}

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'memory-coverage-'));
  database = await Database.open({ url: `file:${path.join(directory, 'tenant.db')}` });
  await migrate(database, tenantMigrations);
  tenant = new TenantDatabase('coverage', null, database);
  const store = new MemoryStore(database);
  const written: MemoryRow[] = [];
  for (let index = 0; index < 60; index++) {
    const owner = SCOPES[index % SCOPES.length]!;
    const at = new Date(Date.UTC(2026, 10, 2, 10, index));
    const [row] = await store.insertMany([
      { memory: plainNote(`Note ${index} about kayaks and pier ${index % 7}`, HASH_MODEL_ID), scope: owner, now: at },
    ]);
    if (row === undefined) throw new Error('not inserted');
    written.push(row);
  }
  // Every third memory keeps no vector; of those, every other one has a failed embedding job.
  const embedded = written.filter((_, index) => index % 3 !== 0);
  const outcome = await embedMemories(
    { tenant, registry: createBuiltInRegistry(), modelId: HASH_MODEL_ID, origin: 'write', now: new Date() },
    embedded,
  );
  expect(outcome.embedded).toBe(embedded.length);
  const failedJob = (row: MemoryRow) =>
    database.run(
      `INSERT INTO embedding_jobs (memory_id, model_id, origin, status, error_code, user_id, project_id, created_at)
       VALUES (?, ?, 'write', 'failed', 'EMBEDDING_FAILED', ?, ?, ?)`,
      [row.id, HASH_MODEL_ID, row.user_id, row.project_id, new Date().toISOString()],
    );
  for (const [index, row] of written.entries()) if (index % 6 === 0) await failedJob(row);
  // A failed job of a memory that has its vector since: not a failure of the coverage.
  await failedJob(written[1]!);
  // Forgotten and superseded memories are not to be embedded, with or without a vector.
  await database.run('UPDATE memories SET deleted_at = ? WHERE seq IN (?, ?)', [
    new Date().toISOString(),
    written[3]!.seq,
    written[4]!.seq,
  ]);
  await database.run('UPDATE memories SET superseded_by = ? WHERE seq IN (?, ?)', [
    written[10]!.id,
    written[9]!.seq,
    written[8]!.seq,
  ]);
  const table = await tenant.vectorTables.find(HASH_MODEL_ID);
  if (table === undefined) throw new Error('no vector table');
  tableName = table.tableName;
});

afterAll(async () => {
  await database.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('coverage of a model over a scope', () => {
  it('counts what every row and every vector say, in each scope', async () => {
    for (const at of SCOPES) {
      const figures = await coverage(tenant, at, HASH_MODEL_ID);
      expect(figures).toEqual(await plainCoverage(at, HASH_MODEL_ID));
      expect(figures.pending).toBeGreaterThan(0);
      expect(figures.failed).toBeGreaterThan(0);
      expect(figures.failed).toBeLessThan(figures.pending);
    }
  });

  it("reads no memory's row but those whose embedding failed, for the counts and the backfill's status", async () => {
    const { oldestPendingAt: _, ...plain } = await plainCoverage(scope('alice'), HASH_MODEL_ID);
    const statements: Array<{ sql: string; args: InArgs }> = [];
    const original = database.get.bind(database);
    const get = vi.spyOn(database, 'get').mockImplementation((sql: string, args: InArgs = []) => {
      statements.push({ sql, args });
      return original(sql, args);
    });
    try {
      expect(await coverageCounts(tenant, scope('alice'), HASH_MODEL_ID)).toEqual(plain);
      const status = await backfillStatus(tenant, scope('alice'), HASH_MODEL_ID);
      expect({ remaining: status.remaining, failed: status.failed }).toEqual({
        remaining: plain.pending,
        failed: plain.failed,
      });
    } finally {
      get.mockRestore();
    }
    const onMemories = statements.filter(({ sql }) => /memories m\b/.test(sql));
    expect(onMemories.length).toBeGreaterThanOrEqual(4);
    for (const { sql, args } of onMemories) {
      const plan = await database.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, args);
      const memories = plan.map((step) => step.detail).filter((detail) => / m\b/.test(detail));
      // Either the narrow candidate index alone, or memories looked up by id from their failed jobs.
      for (const step of memories) {
        expect(step).toMatch(/USING COVERING INDEX memories_candidate|USING INDEX sqlite_autoindex_memories/);
      }
      if (sql.includes('embedding_jobs')) {
        expect(plan.map((step) => step.detail).join('\n')).toContain('USING COVERING INDEX embedding_jobs_failed');
      }
    }
  });

  it('counts every memory as pending for a model without a vector table', async () => {
    const figures = await coverage(tenant, scope('alice'), 'local/not-yet-used');
    expect(figures).toEqual(await plainCoverage(scope('alice'), 'local/not-yet-used'));
    expect(figures.pending).toBe(figures.total);
  });

  it('reports nothing pending once every memory of the scope has its vector', async () => {
    const lacking = await database.all<MemoryRow>(
      `SELECT * FROM memories m WHERE m.user_id IS NULL AND m.project_id IS NULL AND m.deleted_at IS NULL
         AND m.superseded_by IS NULL AND NOT EXISTS (SELECT 1 FROM ${tableName} v WHERE v.memory_seq = m.seq)`,
    );
    expect(lacking.length).toBeGreaterThan(0);
    await embedMemories(
      { tenant, registry: createBuiltInRegistry(), modelId: HASH_MODEL_ID, origin: 'backfill', now: new Date() },
      lacking,
    );
    const figures = await coverage(tenant, scope(null), HASH_MODEL_ID);
    expect(figures).toEqual({ ...(await plainCoverage(scope(null), HASH_MODEL_ID)), oldestPendingAt: null });
    expect(figures.pending).toBe(0);
    expect(figures.failed).toBe(0);
  });

  it('tests whether a memory has a vector through the key index, never the vectors', async () => {
    const lacking = await tenant.vectorTables.lackingCondition(HASH_MODEL_ID);
    const plan = await database.all<{ detail: string }>(
      `EXPLAIN QUERY PLAN SELECT COUNT(*) FROM memories m WHERE ${lacking.sql}`,
    );
    const probe = plan.map((step) => step.detail).find((detail) => detail.includes(tableName));
    expect(probe).toContain(`COVERING INDEX ${vectorKeyIndexName(tableName)}`);
  });
});

describe('migration 11', () => {
  it('gives a vector table created before it its key index; until then the table is probed by its rowid', async () => {
    const file = `file:${path.join(directory, 'before-11.db')}`;
    const before = await Database.open({ url: file });
    try {
      await migrate(
        before,
        tenantMigrations.filter((migration) => migration.version !== 11),
      );
      const older = new TenantDatabase('before-11', null, before);
      const table = await older.vectorTables.ensure(HASH_MODEL_ID, 384, new Date());
      // A table as created before version 11 (or by a server of that age sharing the database): no key index.
      await before.run(`DROP INDEX ${vectorKeyIndexName(table.tableName)}`);
      const at = new Date('2026-11-02T10:00:00.000Z');
      const [row] = await new MemoryStore(before).insertMany([
        { memory: plainNote('A note written before the upgrade', HASH_MODEL_ID), scope: scope(null), now: at },
      ]);
      const expected = { total: 1, pending: 1, failed: 0, oldestPendingAt: row?.updated_at };
      expect(await coverage(older, scope(null), HASH_MODEL_ID)).toEqual(expected);
      const keyIndex = () =>
        before.get("SELECT 1 AS found FROM sqlite_schema WHERE type = 'index' AND name = ?", [
          vectorKeyIndexName(table.tableName),
        ]);
      expect(await keyIndex()).toBeUndefined();
      await migrate(before, tenantMigrations);
      expect(await keyIndex()).toEqual({ found: 1 });
      const upgraded = new TenantDatabase('after-11', null, before);
      expect(await coverage(upgraded, scope(null), HASH_MODEL_ID)).toEqual(expected);
      const lacking = await upgraded.vectorTables.lackingCondition(HASH_MODEL_ID);
      expect(lacking.sql).toContain(`INDEXED BY ${vectorKeyIndexName(table.tableName)}`);
    } finally {
      await before.close();
    }
  });
});
