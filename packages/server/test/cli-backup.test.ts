import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCapturing } from './cli-run.js';
import { createTestServer } from './harness.js';

const directories: string[] = [];
function temporaryFolder(): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'memory-service-backup-'));
  directories.push(directory);
  return directory;
}

afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

const SCOPES = [{}, { tenantId: 'tenant-a' }, { tenantId: 'tenant-b' }];
const contentOf = (index: number) => `backup keeps memory number ${index} about narwhals`;

describe('memory-service backup', () => {
  it('copies every database while the server runs, and the copy serves as a data dir', async () => {
    const source = await createTestServer();
    const backup = path.join(temporaryFolder(), 'backup');
    try {
      for (const [index, scope] of SCOPES.entries()) {
        await source.post('/memories/add', { content: contentOf(index), scope });
      }
      const run = await runCapturing(['backup', backup], { MEMORY_DATA_DIR: source.dataDir });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/control database\s+control\.db\s+\d/);
      expect(run.stdout).toMatch(/workspace default\s+workspace\.db\s+\d/);
      expect(run.stdout).toMatch(/tenant default\/tenant-a\s+tenants\/default\/tenant-a-[0-9a-f]{12}\.db\s+\d/);
      expect(run.stdout).toMatch(/tenant default\/tenant-b\s+tenants\/default\/tenant-b-[0-9a-f]{12}\.db\s+\d/);
      expect(run.stdout).toContain('Backed up 4 databases');
      expect(statSync(backup).mode & 0o777).toBe(0o700);
      expect(statSync(path.join(backup, 'control.db')).mode & 0o777).toBe(0o600);
      // The server made its secret.key on start (no MEMORY_SECRET_KEY): sealed attach tokens need it.
      expect(run.stdout).toContain('secret.key copied');
      expect(statSync(path.join(backup, 'secret.key')).mode & 0o777).toBe(0o600);
      const again = await runCapturing(['backup', backup], { MEMORY_DATA_DIR: source.dataDir });
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('is not empty (use --force');
      expect(again.stdout).toBe('');
      const forced = await runCapturing(['backup', backup, '--force'], { MEMORY_DATA_DIR: source.dataDir });
      expect(forced.code).toBe(0);
      expect(forced.stdout).toContain('Backed up 4 databases');
    } finally {
      // The source data dir is deleted: the backup must stand on its own.
      await source.close();
    }
    expect(existsSync(source.dataDir)).toBe(false);

    const restored = await createTestServer({}, backup);
    try {
      for (const [index, scope] of SCOPES.entries()) {
        const search = await restored.post<{ memories: Array<{ content: string }> }>('/memories/search', {
          query: 'narwhals',
          scope,
        });
        expect(search.memories.map((memory) => memory.content)).toEqual([contentOf(index)]);
        const list = await restored.post<{ memories: Array<{ content: string }> }>('/memories/list', { scope });
        expect(list.memories.map((memory) => memory.content)).toEqual([contentOf(index)]);
      }
      const tenants = await restored.services.registry.list('default');
      // Named relative to the data dir, so the backup folder can be moved or copied.
      for (const row of tenants) expect(row.db_url).toMatch(/^file:tenants\/default\/[^/]+\.db$/);
    } finally {
      await restored.close();
    }
  });

  it('is a usage error without a folder', async () => {
    const run = await runCapturing(['backup'], { MEMORY_DATA_DIR: temporaryFolder() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('missing the backup folder');
  });
});
