import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeServices } from '../src/bootstrap.js';
import { Database } from '../src/store/database.js';
import { createTestServer } from './harness.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'memory-review-storage-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('storage at shutdown (review finding 14)', () => {
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
    expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);
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

describe('a damaged database at open (review finding 14)', () => {
  it('refuses a tenant whose file is not a database with a clear error, and never starts it empty', async () => {
    const first = await createTestServer();
    const dataDir = first.dataDir;
    await first.post('/memories/add', { content: 'kept in a file that gets damaged', scope: { tenantId: 'fragile' } });
    const { database } = await first.services.resolver.resolve('default', 'fragile', new Date());
    const file = (await first.services.registry.find('default', 'fragile'))?.db_url?.slice('file:'.length) as string;
    expect(await database.get('SELECT 1 AS one')).toEqual({ one: 1 });
    await closeServices(first.services);
    writeFileSync(file, Buffer.alloc(8192, 0x5a));
    rmSync(`${file}-wal`, { force: true });
    rmSync(`${file}-shm`, { force: true });

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
});

describe('an emptied database file at open (review finding 14)', () => {
  it('refuses a tenant whose file was truncated to zero bytes instead of starting it afresh', async () => {
    const first = await createTestServer();
    const dataDir = first.dataDir;
    await first.post('/memories/add', { content: 'lost if the tenant restarts empty', scope: { tenantId: 'emptied' } });
    const file = (await first.services.registry.find('default', 'emptied'))?.db_url?.slice('file:'.length) as string;
    await closeServices(first.services);
    truncateSync(file, 0);
    rmSync(`${file}-wal`, { force: true });
    rmSync(`${file}-shm`, { force: true });

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
