import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveDatabaseUrl } from '../src/tenancy/data-dir-urls.js';
import { runCapturing } from './cli-run.js';
import { createTestServer, TEST_KEY, type TestServer } from './harness.js';

/**
 * Workspaces keep one owner's data apart from another's: `memory-service workspaces create` makes a workspace with its
 * own database and first key; `keys ... --workspace` manage its keys. The data dir, its folders and database files
 * are private to the server's user, so other users of the machine cannot read the memories.
 */
const directories: string[] = [];
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function dataDir(): string {
  const parent = mkdtempSync(path.join(tmpdir(), 'memory-service-workspaces-'));
  directories.push(parent);
  // Not created yet: the server (or the command) creates it, with its own mode.
  return path.join(parent, 'data');
}

describe('memory-service workspaces', () => {
  it('creates a workspace with its own database and first key; keys are managed per workspace', async () => {
    const env = { MEMORY_DATA_DIR: dataDir(), MEMORY_BOOTSTRAP_API_KEY: TEST_KEY };
    const created = await runCapturing(['workspaces', 'create', 'Acme Inc'], env);
    expect(created.code, created.stderr).toBe(0);
    const workspaceId = /workspace: (ws_[0-9a-f]{16})/.exec(created.stdout)?.[1] ?? '';
    const apiKey = /(mem_[0-9a-f]{64})/.exec(created.stdout)?.[1] ?? '';
    expect(workspaceId).not.toBe('');
    expect(apiKey).not.toBe('');
    expect(created.stdout).toContain(path.join(env.MEMORY_DATA_DIR, 'workspaces', `${workspaceId}.db`));

    const duplicate = await runCapturing(['workspaces', 'create', 'Acme Inc'], env);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('exists already');

    const second = await runCapturing(['keys', 'create', '--workspace', workspaceId], env);
    expect(second.code, second.stderr).toBe(0);
    const own = await runCapturing(['keys', 'list', '--workspace', workspaceId], env);
    expect(own.stdout.trim().split('\n')).toHaveLength(3);
    const defaults = await runCapturing(['keys', 'list'], env);
    expect(defaults.stdout.trim().split('\n')).toHaveLength(2);
    const keyId = /id:\s+(\S+)/.exec(second.stdout)?.[1] ?? '';
    expect((await runCapturing(['keys', 'revoke', keyId], env)).code).toBe(1);
    expect((await runCapturing(['keys', 'revoke', keyId, '--workspace', workspaceId], env)).code).toBe(0);
    const unknown = await runCapturing(['keys', 'create', '--workspace', 'ws_0000000000000000'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no workspace with id ws_0000000000000000');

    server = await createTestServer({}, env.MEMORY_DATA_DIR);
    const write = await server.call(
      'POST',
      '/memories/add',
      { content: 'acme secret in the workspace db' },
      { key: apiKey },
    );
    expect(write.status).toBe(201);
    await server.call(
      'POST',
      '/memories/add',
      { content: 'acme tenant note', scope: { tenantId: 't1' } },
      { key: apiKey },
    );
    expect(existsSync(path.join(env.MEMORY_DATA_DIR, 'workspaces', `${workspaceId}.db`))).toBe(true);
    const fromDefault = await server.post<{ count: number }>('/memories/search', { query: 'acme secret' });
    expect(fromDefault.count).toBe(0);
    const fromOwn = await server.call('POST', '/memories/search', { query: 'acme secret' }, { key: apiKey });
    expect(fromOwn.body.data?.count).toBe(1);
    await server.close();
    server = undefined;

    const listed = await runCapturing(['workspaces', 'list'], env);
    expect(listed.code).toBe(0);
    const row = listed.stdout.split('\n').find((line) => line.startsWith(workspaceId)) ?? '';
    expect(row).toContain('Acme Inc');
    expect(row.trim().split(/\s+/).slice(-2)).toEqual(['1', '1']);
    expect(listed.stdout).toContain('default');
    expect(listed.stdout).not.toContain('mem_');
  });

  it('refuses an empty or control-character name as a usage error', async () => {
    const env = { MEMORY_DATA_DIR: dataDir() };
    expect((await runCapturing(['workspaces', 'create', '  '], env)).code).toBe(2);
    expect((await runCapturing(['workspaces', 'create', 'a\u0007b'], env)).code).toBe(2);
    expect((await runCapturing(['workspaces', 'create'], env)).code).toBe(2);
  });
});

describe('private files in the data dir', () => {
  it('creates the data dir and its folders 0700, database files (and -wal) 0600', async () => {
    const directory = dataDir();
    server = await createTestServer({}, directory);
    await server.post('/memories/add', { content: 'a tenant note', scope: { tenantId: 'private' } });
    await server.post('/memories/add', { content: 'a workspace note' });
    const [mapping] = await server.services.registry.list('default');
    const tenantFile = resolveDatabaseUrl(directory, mapping?.db_url ?? '').slice('file:'.length);
    const mode = (file: string) => (statSync(file).mode & 0o777).toString(8);
    expect(mode(directory)).toBe('700');
    expect(mode(path.join(directory, 'tenants'))).toBe('700');
    expect(mode(path.dirname(tenantFile))).toBe('700');
    for (const file of [
      tenantFile,
      `${tenantFile}-wal`,
      path.join(directory, 'control.db'),
      path.join(directory, 'workspace.db'),
    ]) {
      expect(mode(file), file).toBe('600');
    }
    expect(mode(path.join(directory, 'secret.key'))).toBe('600');
  });
});
