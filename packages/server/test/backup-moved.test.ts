import { cpSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../src/store/database.js';
import { runCapturing } from './cli-run.js';
import { createTestServer } from './harness.js';

const directories: string[] = [];
function temporaryFolder(): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'memory-service-moved-'));
  directories.push(directory);
  return directory;
}

afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

const SCOPES = [{}, { tenantId: 'tenant-a' }, { tenantId: 'tenant-b' }];
const PER_SCOPE = 25;
const contentOf = (scope: number, index: number) => `moved backup memory ${scope}-${index} about walruses`;

/** Every file under a folder with its size and modification time: what "untouched" means. */
function listing(folder: string): string[] {
  const walk = (relative: string): string[] =>
    readdirSync(path.join(folder, relative), { withFileTypes: true }).flatMap((entry) => {
      const name = path.join(relative, entry.name);
      if (entry.isDirectory()) return [`${name}/`, ...walk(name)];
      const stat = statSync(path.join(folder, name));
      return [`${name} ${stat.size} ${stat.mtimeMs}`];
    });
  return walk('').sort();
}

/** Every memory each scope lists, with the server on `dataDir`. */
async function servedContents(dataDir: string): Promise<string[][]> {
  const server = await createTestServer({}, dataDir);
  try {
    const contents: string[][] = [];
    for (const scope of SCOPES) {
      const list = await server.post<{ memories: Array<{ content: string }> }>('/memories/list', { scope, limit: 100 });
      contents.push(list.memories.map((memory) => memory.content).sort());
    }
    // A write lands in this data dir's own files.
    for (const scope of SCOPES) await server.post('/memories/add', { content: 'written after the move', scope });
    return contents;
  } finally {
    await server.close();
  }
}

const expected = SCOPES.map((_, scope) =>
  Array.from({ length: PER_SCOPE }, (__, index) => contentOf(scope, index)).sort(),
);

describe('a backup that is moved or copied', () => {
  let backup: string;

  beforeAll(async () => {
    const source = await createTestServer();
    for (const [scopeIndex, scope] of SCOPES.entries()) {
      for (let index = 0; index < PER_SCOPE; index++) {
        await source.post('/memories/add', { content: contentOf(scopeIndex, index), scope });
      }
    }
    backup = path.join(temporaryFolder(), 'backup');
    const run = await runCapturing(['backup', backup], { MEMORY_DATA_DIR: source.dataDir });
    expect(run.code).toBe(0);
    await source.close();
    rmSync(source.dataDir, { recursive: true, force: true });
  }, 120_000);

  it('serves every memory after a move, and never re-creates the old folder', async () => {
    const moved = path.join(temporaryFolder(), 'moved');
    cpSync(backup, path.join(moved, 'original'), { recursive: true });
    const original = path.join(moved, 'original');
    const destination = path.join(moved, 'elsewhere');
    renameSync(original, destination);
    expect(await servedContents(destination)).toEqual(expected);
    expect(existsSync(original)).toBe(false);
  }, 60_000);

  it('serves a copy from the copy: the original stays untouched', async () => {
    const before = listing(backup);
    const copy = path.join(temporaryFolder(), 'copy');
    cpSync(backup, copy, { recursive: true });
    expect(await servedContents(copy)).toEqual(expected);
    expect(listing(backup)).toEqual(before);
  }, 60_000);

  it('relocates the absolute paths of a backup made before paths were relative', async () => {
    const before = listing(backup);
    const copy = path.join(temporaryFolder(), 'legacy');
    cpSync(backup, copy, { recursive: true });
    // As the backups of earlier versions wrote them: absolute paths into the folder the backup was written to.
    const control = await Database.open({ url: `file:${path.join(copy, 'control.db')}` });
    try {
      await control.run("UPDATE tenants SET db_url = 'file:' || ? || '/' || substr(db_url, 6)", [backup]);
      await control.run("UPDATE owners SET workspace_db_url = 'file:' || ? || '/workspace.db'", [backup]);
      const row = await control.get<{ db_url: string }>('SELECT db_url FROM tenants LIMIT 1');
      expect(row?.db_url.startsWith(`file:${backup}/tenants/`)).toBe(true);
    } finally {
      await control.close();
    }
    expect(await servedContents(copy)).toEqual(expected);
    expect(listing(backup)).toEqual(before);
  }, 60_000);

  it('is restored into an empty data dir, and not over a data dir with files unless --force', async () => {
    const before = listing(backup);
    const dataDir = path.join(temporaryFolder(), 'restored');
    const run = await runCapturing(['restore', backup], { MEMORY_DATA_DIR: dataDir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Restored 4 databases .* and secret\.key/);
    expect(statSync(path.join(dataDir, 'control.db')).mode & 0o777).toBe(0o600);
    expect(listing(backup)).toEqual(before);
    expect(await servedContents(dataDir)).toEqual(expected);
    const refused = await runCapturing(['restore', backup], { MEMORY_DATA_DIR: dataDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not empty (use --force');
    const forced = await runCapturing(['restore', backup, '--force'], { MEMORY_DATA_DIR: dataDir });
    expect(forced.code).toBe(0);
    // The backup's state again: the memories written after the first restore are gone.
    const server = await createTestServer({}, dataDir);
    try {
      const list = await server.post<{ memories: Array<{ content: string }> }>('/memories/list', { limit: 100 });
      expect(list.memories.map((memory) => memory.content).sort()).toEqual(expected[0]);
    } finally {
      await server.close();
    }
    const notBackup = await runCapturing(['restore', temporaryFolder()], { MEMORY_DATA_DIR: path.join(dataDir, 'x') });
    expect(notBackup.code).toBe(1);
    expect(notBackup.stderr).toContain('is not a backup');
  }, 90_000);
});
