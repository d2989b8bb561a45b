import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCapturing } from './cli-run.js';
import { createTestServer } from './harness.js';

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

const run = runCapturing;

describe('memory-service embeddings', () => {
  it('allows a model and sets a project model that the server then uses', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-cli-embeddings-'));
    directories.push(dataDir);
    const env = { MEMORY_DATA_DIR: dataDir, MEMORY_EMBEDDING_MODEL: 'local/hash-384' };
    const unknown = await run(['embeddings', 'allow', 'acme/nope'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('not a registered embedding model');
    expect((await run(['embeddings', 'allow', 'local/use-lite-512'], env)).code).toBe(0);
    expect((await run(['embeddings', 'project', 'repo-a', 'local/use-lite-512'], env)).code).toBe(0);
    const shown = await run(['embeddings', 'show'], env);
    expect(shown.stdout).toContain('allowlist:  local/use-lite-512');
    expect(shown.stdout).toContain('repo-a  local/use-lite-512');
    expect((await run(['embeddings', 'project', 'repo-a'], env)).code).toBe(2);

    const server = await createTestServer({}, dataDir);
    try {
      const requested = await server.post<{ embeddingModel: string; embeddingModelSource: string }>('/memories/add', {
        content: 'hash vectors on request',
        embeddingModel: 'local/use-lite-512',
      });
      expect(requested).toMatchObject({ embeddingModel: 'local/use-lite-512', embeddingModelSource: 'request' });
      const project = await server.post<{ embeddingModel: string; embeddingModelSource: string }>('/memories/add', {
        content: 'embedded with the project model',
        scope: { projectId: 'repo-a' },
      });
      expect(project).toMatchObject({ embeddingModel: 'local/use-lite-512', embeddingModelSource: 'project_override' });
    } finally {
      await server.close();
    }

    expect((await run(['embeddings', 'project', 'repo-a', '--clear'], env)).code).toBe(0);
    expect((await run(['embeddings', 'disallow', 'local/use-lite-512'], env)).code).toBe(0);
    expect((await run(['embeddings', 'disallow', 'local/use-lite-512'], env)).code).toBe(1);
    expect((await run(['embeddings', 'show'], env)).stdout).toContain('projects:\n  (none)');
  });
});
