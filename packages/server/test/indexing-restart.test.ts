import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LEASE_MS } from '../src/indexing/indexer.js';
import { Database } from '../src/store/database.js';
import { claimIndexJobs } from '../src/store/index-jobs.js';
import { resolveDatabaseUrl } from '../src/tenancy/data-dir-urls.js';
import { workspaceDatabase } from './graph-test-helpers.js';
import { createTestServer, type TestServer } from './harness.js';

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

const MEMORIES = [
  { content: 'Payments use Stripe with idempotency keys', tags: ['payments'] },
  { content: 'Payments use Stripe with idempotency keys, always', tags: ['payments'] },
  { content: 'Deploy target: staging', type: 'decision' },
  { content: 'Deploy target: production', type: 'decision' },
];

/** Writes the memories into the workspace and into a tenant; returns their ids. */
async function writeAll(server: TestServer): Promise<{ workspace: string[]; tenant: string[] }> {
  const add = async (body: Record<string, unknown>) => (await server.post<{ id: string }>('/memories/add', body)).id;
  const workspace: string[] = [];
  const tenant: string[] = [];
  for (const body of MEMORIES) {
    workspace.push(await add(body));
    tenant.push(await add({ ...body, scope: { tenantId: 'resumed' } }));
  }
  return { workspace, tenant };
}

async function vectorCount(database: Database, ids: readonly string[]): Promise<number> {
  const row = await database.get<{ count: number }>(
    `SELECT COUNT(*) AS count FROM memory_vectors_local_hash_384_384 v JOIN memories m ON m.seq = v.memory_seq
      WHERE m.id IN (${ids.map(() => '?').join(', ')})`,
    [...ids],
  );
  return Number(row?.count ?? 0);
}

async function edgeTypes(database: Database, ids: readonly string[]): Promise<string[]> {
  const rows = await database.all<{ edge_type: string }>(
    `SELECT DISTINCT edge_type FROM graph_edges WHERE source_memory_id IN (${ids.map(() => '?').join(', ')})
      ORDER BY edge_type`,
    [...ids],
  );
  return rows.map((row) => row.edge_type);
}

async function jobCount(database: Database): Promise<number> {
  return Number((await database.get<{ count: number }>('SELECT COUNT(*) AS count FROM index_jobs'))?.count ?? 0);
}

describe('index jobs survive the process', () => {
  it('indexes after a restart what a process stopped before indexing, with no request to the tenant', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-indexing-restart-'));
    directories.push(dataDir);
    // The first process acknowledges writes but never indexes them, as if killed right after answering.
    const first = await createTestServer({}, dataDir);
    first.services.indexing.pause();
    const ids = await writeAll(first);
    const firstWorkspace = await workspaceDatabase(first);
    expect(await jobCount(firstWorkspace)).toBe(MEMORIES.length);
    // One batch was claimed by a process that then died: its lease has run out.
    const dead = await claimIndexJobs(firstWorkspace, 'dead-process', {
      nowMs: Date.now() - LEASE_MS - 1,
      leaseMs: LEASE_MS,
      limit: 2,
    });
    expect(dead).toHaveLength(2);
    await first.close();

    const second = await createTestServer({}, dataDir);
    try {
      // Only the start-up sweep opens the tenant's database: this test sends it no request.
      await second.indexed();
      const tenantRow = await second.services.control.database.get<{ db_url: string }>(
        "SELECT db_url FROM tenants WHERE tenant_id = 'resumed'",
      );
      const tenant = await Database.open({ url: resolveDatabaseUrl(dataDir, String(tenantRow?.db_url)) });
      try {
        expect(await jobCount(tenant)).toBe(0);
        expect(await vectorCount(tenant, ids.tenant)).toBe(MEMORIES.length);
        expect(await edgeTypes(tenant, ids.tenant)).toEqual(['contradicts', 'similar_to', 'supersedes']);
      } finally {
        await tenant.close();
      }
      const workspace = await workspaceDatabase(second);
      expect(await jobCount(workspace)).toBe(0);
      expect(await vectorCount(workspace, ids.workspace)).toBe(MEMORIES.length);
      expect(await edgeTypes(workspace, ids.workspace)).toEqual(['contradicts', 'similar_to', 'supersedes']);
    } finally {
      await second.close();
    }
  });
});
