import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeServices } from '../src/bootstrap.js';
import { Database } from '../src/store/database.js';
import { resolveDatabaseUrl } from '../src/tenancy/data-dir-urls.js';
import { createTestServer } from './harness.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'memory-storage-shutdown-and-damage-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('storage at shutdown', () => {
  it('checkpoints the WAL on a clean shutdown: a copy of the .db file alone holds every write', async () => {
    const server = await createTestServer();
    const dataDir = server.dataDir;
    try {
      for (let index = 0; index < 20; index++) {
        await server.post('/memories/add', { content: `checkpointed memory ${index}` });
      }
    } finally {
      // Closes everything but keeps the data dir (the test reads it after).
      await closeServices(server.services);
    }
    const workspace = path.join(dataDir, 'workspace.db');
    // The WAL is emptied (or removed) by the checkpoint; the database file carries the rows.
    const wal = `${workspace}-wal`;
    // One stat, not an existence check then a stat: SQLite deletes the file when the database's last connection
    // closes, and a run once saw it go between the two.
    const walSize = () => {
      try {
        return statSync(wal).size;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
        throw error;
      }
    };
    expect(walSize()).toBe(0);
    const copy = path.join(scratch, 'backup-of-the-db-file-only.db');
    copyFileSync(workspace, copy);
    const database = await Database.open({ url: `file:${copy}` });
    try {
      const row = await database.get<{ count: number }>('SELECT COUNT(*) AS count FROM memories');
      expect(row?.count).toBe(20);
    } finally {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/**
 * A data dir whose tenant `tenantId` held a memory and whose database file was then damaged by `damage` while no
 * server ran (the WAL and shared-memory files removed, as a copy of the file alone would leave it).
 */
async function damagedTenant(
  tenantId: string,
  damage: (file: string) => void,
): Promise<{ dataDir: string; file: string }> {
  const first = await createTestServer();
  await first.post('/memories/add', { content: 'lost if the tenant restarts empty', scope: { tenantId } });
  const stored = (await first.services.registry.find('default', tenantId))?.db_url as string;
  // Stored relative to the data dir (tenancy/data-dir-urls.ts).
  const file = resolveDatabaseUrl(first.dataDir, stored).slice('file:'.length);
  await closeServices(first.services);
  damage(file);
  rmSync(`${file}-wal`, { force: true });
  rmSync(`${file}-shm`, { force: true });
  return { dataDir: first.dataDir, file };
}

describe('a damaged database at open', () => {
  it('refuses a tenant whose file is not a database with a clear error, and never starts it empty', async () => {
    const { dataDir, file } = await damagedTenant('fragile', (target) =>
      writeFileSync(target, Buffer.alloc(8192, 0x5a)),
    );
    const second = await createTestServer({}, dataDir);
    try {
      const response = await second.call('POST', '/memories/add', {
        content: 'must not land in a fresh empty tenant',
        scope: { tenantId: 'fragile' },
      });
      expect(response.status).toBe(500);
      expect(response.body.error).toMatchObject({ code: 'TENANT_DATABASE_UNREADABLE', type: 'internal_error' });
      expect(response.body.error?.message).toContain("tenant 'fragile'");
      expect(readFileSync(file).every((byte) => byte === 0x5a)).toBe(true);
    } finally {
      await second.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a tenant whose file was truncated to zero bytes instead of starting it afresh', async () => {
    const { dataDir, file } = await damagedTenant('emptied', (target) => truncateSync(target, 0));
    const second = await createTestServer({}, dataDir);
    try {
      const response = await second.call('POST', '/memories/add', {
        content: 'must not land in a fresh empty tenant',
        scope: { tenantId: 'emptied' },
      });
      expect(response.body.error).toMatchObject({ code: 'TENANT_DATABASE_UNREADABLE' });
      expect(statSync(file).size).toBe(0);
      // A brand-new tenant is still created as before.
      expect(
        (await second.call('POST', '/memories/add', { content: 'new', scope: { tenantId: 'fresh' } })).status,
      ).toBe(201);
    } finally {
      await second.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
