import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mirrorPath } from '../src/skills/file-mirror.js';
import { createTestServer, type TestServer } from './harness.js';

const flags = {
  MEMORY_SESSION_ENABLED: true,
  MEMORY_COMPACTION_ENABLED: true,
  MEMORY_CONSOLIDATION_ENABLED: true,
  MEMORY_PROCEDURAL_ENABLED: true,
  MEMORY_FILE_MODE_ENABLED: true,
};

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer({ flags });
});
afterAll(async () => {
  await server.close();
});

describe('file mode (MEMORY_FILE_MODE_ENABLED)', () => {
  it('mirrors upserted skill files into the data dir and removes them on delete', async () => {
    const scope = { tenantId: 'acme', userId: 'dana' };
    await server.post('/skills/files/upsert', { path: 'runbooks/deploy.md', content: '# Deploy\nStep one.', scope });
    const file = path.join(
      server.dataDir,
      'skill-files',
      'default',
      'acme',
      'dana',
      '_global',
      'runbooks',
      'deploy.md',
    );
    expect(readFileSync(file, 'utf8')).toBe('# Deploy\nStep one.');
    await server.post('/skills/files/delete', { path: 'runbooks/deploy.md', scope });
    expect(existsSync(file)).toBe(false);
  });

  it('never lets a path climb out of the mirror folder', () => {
    const root = path.join('/data', 'skill-files');
    for (const hostile of ['../../etc/passwd', '/absolute/../../x', '..', 'a/./../b', 'C:\\windows\\..\\system']) {
      const file = mirrorPath('/data', 'default', { tenantId: null, userId: null, projectId: null }, hostile);
      expect(file.startsWith(`${root}${path.sep}`), hostile).toBe(true);
      expect(file.split(path.sep)).not.toContain('..');
    }
  });

  it('writes nothing when the flag is off', async () => {
    const plain = await createTestServer();
    try {
      await plain.post('/skills/files/upsert', { path: 'notes.md', content: 'x' });
      expect(existsSync(path.join(plain.dataDir, 'skill-files'))).toBe(false);
    } finally {
      await plain.close();
    }
  });
});
