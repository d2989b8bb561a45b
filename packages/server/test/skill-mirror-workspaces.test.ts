import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace } from '../src/cli/workspaces-commands.js';
import { createTestServer, type TestServer } from './harness.js';

/**
 * The file-mode mirror keeps each workspace in its own folder, so workspace B never overwrites or deletes A's
 * `skill-files/acme/_shared/_global/runbook.md`, and refuses a path it cannot hold before the row is committed
 * (never a 500 after it).
 */
const flags = {
  MEMORY_SESSION_ENABLED: true,
  MEMORY_COMPACTION_ENABLED: true,
  MEMORY_CONSOLIDATION_ENABLED: true,
  MEMORY_PROCEDURAL_ENABLED: true,
  MEMORY_FILE_MODE_ENABLED: true,
};

let server: TestServer;
let otherKey: string;
let otherId: string;
beforeAll(async () => {
  server = await createTestServer({ flags });
  const created = await createWorkspace(server.services, 'Other', new Date());
  otherKey = created.apiKey;
  otherId = created.workspace.id;
});
afterAll(async () => {
  await server.close();
});

async function paths(scope: Record<string, string>, key?: string): Promise<string[]> {
  const response = await server.call('POST', '/skills/files/list', { scope }, key === undefined ? {} : { key });
  const files = (response.body.data?.skillFiles ?? []) as Array<{ path: string }>;
  return files.map((file) => file.path).sort();
}

describe('file-mode skill mirror', () => {
  it('gives each workspace its own mirror folder: another workspace never overwrites or deletes a file', async () => {
    const scope = { tenantId: 'acme' };
    await server.post('/skills/files/upsert', { path: 'runbook.md', content: 'A runbook', scope });
    const other = await server.call(
      'POST',
      '/skills/files/upsert',
      { path: 'runbook.md', content: 'B runbook', scope },
      { key: otherKey },
    );
    expect(other.status).toBe(200);
    const mine = path.join(server.dataDir, 'skill-files', 'default', 'acme', '_shared', '_global', 'runbook.md');
    const theirs = path.join(server.dataDir, 'skill-files', otherId, 'acme', '_shared', '_global', 'runbook.md');
    expect(readFileSync(mine, 'utf8')).toBe('A runbook');
    expect(readFileSync(theirs, 'utf8')).toBe('B runbook');
    await server.call('POST', '/skills/files/delete', { path: 'runbook.md', scope }, { key: otherKey });
    expect(existsSync(theirs)).toBe(false);
    expect(readFileSync(mine, 'utf8')).toBe('A runbook');
  });

  it('refuses a path that collides with a file or folder of the mirror with 400 before writing the row', async () => {
    const scope = { tenantId: 'collide' };
    await server.post('/skills/files/upsert', { path: 'a', content: 'file a', scope });
    const under = await server.call('POST', '/skills/files/upsert', { path: 'a/b', content: 'x', scope });
    expect(under.status).toBe(400);
    expect(under.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'path' } });
    await server.post('/skills/files/upsert', { path: 'c/d/e.md', content: 'deep', scope });
    const over = await server.call('POST', '/skills/files/upsert', { path: 'c/d', content: 'x', scope });
    expect(over.status).toBe(400);
    expect(over.body.error?.details).toEqual({ field: 'path' });
    expect(await paths(scope)).toEqual(['a', 'c/d/e.md']);
  });

  it('refuses a segment over 255 bytes with 400 before writing the row', async () => {
    const scope = { tenantId: 'long' };
    // 256 bytes as given, and 60 characters that take 360 bytes once encoded as a file name.
    for (const segment of ['a'.repeat(256), 'é'.repeat(60)]) {
      const long = await server.call('POST', '/skills/files/upsert', { path: `x/${segment}`, content: 'x', scope });
      expect(long.status).toBe(400);
      expect(long.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'path' } });
    }
    expect(await paths(scope)).toEqual([]);
  });

  it('never turns a committed write into a 5xx when the mirror cannot be written', async () => {
    const scope = { tenantId: 'blocked' };
    // A file where the scope's mirror folder belongs: the mirror write fails after the row is committed.
    mkdirSync(path.join(server.dataDir, 'skill-files', 'default'), { recursive: true });
    writeFileSync(path.join(server.dataDir, 'skill-files', 'default', 'blocked'), 'in the way');
    const response = await server.call('POST', '/skills/files/upsert', { path: 'notes.md', content: 'kept', scope });
    expect(response.status).toBe(200);
    expect(response.body.data?.message).toContain('file mirror could not be written');
    expect(await paths(scope)).toEqual(['notes.md']);
    const deleted = await server.call('POST', '/skills/files/delete', { path: 'notes.md', scope });
    expect(deleted.status).toBe(200);
  });

  it('keeps users whose ids differ only in unsafe characters in different folders', async () => {
    await server.post('/skills/files/upsert', { path: 'me.md', content: 'colon', scope: { userId: 'a:b' } });
    await server.post('/skills/files/upsert', { path: 'me.md', content: 'underscore', scope: { userId: 'a_b' } });
    const base = path.join(server.dataDir, 'skill-files', 'default', '_workspace');
    expect(readFileSync(path.join(base, 'a%3Ab', '_global', 'me.md'), 'utf8')).toBe('colon');
    expect(readFileSync(path.join(base, 'a_b', '_global', 'me.md'), 'utf8')).toBe('underscore');
  });
});
