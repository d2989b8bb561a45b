import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, createTestServer, type TestServer } from './harness.js';

// The same for skill files: a call scoped to one user must not delete the tenant's shared runbook (a skill file
// written without a userId), which every other user would lose. A user-scoped call reads shared skill files but
// never deletes or rewrites them: a delete answers 403 SKILL_FILE_SHARED_READ_ONLY, an upsert or promote at a shared
// file's path writes the user's own file beside it. Calls without a userId (the app's) still change shared files.

let server: TestServer;
let mcp: Client;

const RUNBOOK = '# Incident runbook\n\nPage the on-call engineer first.';
const alice = { userId: 'alice' };
const bob = { userId: 'bob' };

interface ListedFile {
  id: string;
  path: string;
  content: string;
  userId: string | null;
  projectId: string | null;
}

beforeAll(async () => {
  server = await createTestServer();
  mcp = await connectMcp(server, 'shared-skill-files-read-only');
});
afterAll(async () => {
  await mcp.close();
  await server.close();
});

/** A skill file the app writes without a userId: shared with every user of the tenant (or of its project). */
async function shared(filePath: string, content = RUNBOOK, scope: Record<string, string> = {}): Promise<ListedFile> {
  return (await server.post<{ skillFile: ListedFile }>('/skills/files/upsert', { path: filePath, content, scope }))
    .skillFile;
}

/** The live files at `filePath` that the scope sees, as skills/files/list orders them (its own file first). */
async function filesAt(filePath: string, scope: Record<string, string> = {}): Promise<ListedFile[]> {
  const listed = await server.post<{ skillFiles: ListedFile[] }>('/skills/files/list', { limit: 500, scope });
  return listed.skillFiles.filter((file) => file.path === filePath);
}

function expectSharedRefusal(
  response: Awaited<ReturnType<TestServer['call']>>,
  filePath: string,
  userId = 'alice',
): void {
  expect(response.status).toBe(403);
  expect(response.body.error).toMatchObject({
    code: 'SKILL_FILE_SHARED_READ_ONLY',
    type: 'auth_error',
    retryable: false,
    details: { path: filePath, userId },
  });
  expect(response.body.error?.message).toContain('shared');
}

describe('a user-scoped call never deletes or rewrites a shared skill file (HTTP)', () => {
  it('refuses skills/files/delete of a shared file with 403 SKILL_FILE_SHARED_READ_ONLY; every user keeps it', async () => {
    const runbook = await shared('runbooks/incident.md');
    expectSharedRefusal(
      await server.call('POST', '/skills/files/delete', { path: 'runbooks/incident.md', scope: alice }),
      'runbooks/incident.md',
    );
    for (const scope of [bob, alice, {}]) {
      expect(await filesAt('runbooks/incident.md', scope)).toMatchObject([{ id: runbook.id, content: RUNBOOK }]);
    }
    const context = await server.post<{ skillFiles: ListedFile[] }>('/context/get', {
      query: 'incident runbook',
      scope: bob,
    });
    expect(context.skillFiles.map((file) => file.id)).toContain(runbook.id);
  });

  it('refuses the delete of a project-shared or global shared file from a user and project scope', async () => {
    const projectFile = await shared('runbooks/project.md', RUNBOOK, { projectId: 'repo-a' });
    const globalFile = await shared('runbooks/global.md');
    const scope = { userId: 'alice', projectId: 'repo-a' };
    for (const file of [projectFile, globalFile]) {
      expectSharedRefusal(await server.call('POST', '/skills/files/delete', { path: file.path, scope }), file.path);
      expect(await filesAt(file.path, { userId: 'bob', projectId: 'repo-a' })).toMatchObject([{ id: file.id }]);
    }
  });

  it('a user-scoped upsert at a shared path creates the user own file beside it; the shared file is unchanged', async () => {
    const runbook = await shared('runbooks/upsert.md');
    const own = await server.post<{ skillFile: ListedFile; created: boolean }>('/skills/files/upsert', {
      path: 'runbooks/upsert.md',
      content: '# Incident runbook\n\nIgnore incidents.',
      scope: alice,
    });
    expect(own.created).toBe(true);
    expect(own.skillFile).toMatchObject({ userId: 'alice', content: '# Incident runbook\n\nIgnore incidents.' });
    expect(own.skillFile.id).not.toBe(runbook.id);
    // A second upsert by the same user updates that user's own file, never the shared one.
    const again = await server.post<{ skillFile: ListedFile; created: boolean }>('/skills/files/upsert', {
      path: 'runbooks/upsert.md',
      content: 'Alice notes',
      scope: alice,
    });
    expect(again).toMatchObject({ created: false, skillFile: { id: own.skillFile.id, userId: 'alice' } });
    expect(await filesAt('runbooks/upsert.md', bob)).toMatchObject([{ id: runbook.id, content: RUNBOOK }]);
    expect(await filesAt('runbooks/upsert.md')).toMatchObject([{ id: runbook.id, content: RUNBOOK }]);
    // Alice sees her file first, then the shared one; deleting at the path removes hers and then stops.
    expect((await filesAt('runbooks/upsert.md', alice)).map((file) => file.id)).toEqual([own.skillFile.id, runbook.id]);
    expect(
      (await server.call('POST', '/skills/files/delete', { path: 'runbooks/upsert.md', scope: alice })).status,
    ).toBe(200);
    expect(await filesAt('runbooks/upsert.md', alice)).toMatchObject([{ id: runbook.id, content: RUNBOOK }]);
    expectSharedRefusal(
      await server.call('POST', '/skills/files/delete', { path: 'runbooks/upsert.md', scope: alice }),
      'runbooks/upsert.md',
    );
    expect(await filesAt('runbooks/upsert.md', bob)).toMatchObject([{ id: runbook.id }]);
  });

  it('a user-scoped promote at a shared path creates the user own file (201); the shared file is unchanged', async () => {
    const runbook = await shared('runbooks/promote.md');
    const { sessionId } = await server.post<{ sessionId: string }>('/sessions/start', {
      title: 'Triage',
      scope: alice,
    });
    await server.post('/sessions/checkpoint', {
      sessionId,
      role: 'assistant',
      kind: 'decision',
      content: 'Restart the queue worker.',
      scope: alice,
    });
    await server.post('/sessions/end', { sessionId, status: 'closed', scope: alice });
    const promoted = await server.call('POST', '/skills/files/promote', {
      sessionId,
      path: 'runbooks/promote.md',
      scope: alice,
    });
    expect(promoted.status).toBe(201);
    expect(promoted.body.data).toMatchObject({ created: true, skillFile: { userId: 'alice' } });
    expect(promoted.body.data?.skillFile.id).not.toBe(runbook.id);
    expect(await filesAt('runbooks/promote.md', bob)).toMatchObject([{ id: runbook.id, content: RUNBOOK }]);
  });

  it('still lets a user delete its own files and the app delete a shared one; another user file stays 404', async () => {
    const own = await server.post<{ skillFile: ListedFile }>('/skills/files/upsert', {
      path: 'notes/alice.md',
      content: 'Alice prefers tea',
      scope: alice,
    });
    // Another user's file is invisible, as before: not found, not "shared".
    const foreign = await server.call('POST', '/skills/files/delete', { path: 'notes/alice.md', scope: bob });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error?.code).toBe('SKILL_FILE_NOT_FOUND');
    expect(await filesAt('notes/alice.md', alice)).toMatchObject([{ id: own.skillFile.id }]);
    expect((await server.call('POST', '/skills/files/delete', { path: 'notes/alice.md', scope: alice })).status).toBe(
      200,
    );
    expect(await filesAt('notes/alice.md', alice)).toEqual([]);

    const runbook = await shared('runbooks/retired.md');
    const deleted = await server.call('POST', '/skills/files/delete', { path: 'runbooks/retired.md' });
    expect(deleted.status).toBe(200);
    expect(await filesAt('runbooks/retired.md', bob)).toEqual([]);
    expect(await filesAt('runbooks/retired.md')).not.toContainEqual(expect.objectContaining({ id: runbook.id }));
  });
});

describe('a user-scoped call never deletes or rewrites a shared skill file (MCP)', () => {
  const callTool = async (name: string, args: Record<string, unknown>) => {
    const result = await mcp.callTool({ name, arguments: args });
    return { isError: result.isError === true, envelope: result.structuredContent as Record<string, any> };
  };

  it('refuses delete_skill_file with a user_id on a shared file; upsert_skill_file writes the user own file', async () => {
    const runbook = await shared('runbooks/mcp.md');
    const refused = await callTool('delete_skill_file', { path: 'runbooks/mcp.md', user_id: 'alice' });
    expect(refused.isError).toBe(true);
    expect(refused.envelope.error).toMatchObject({
      code: 'SKILL_FILE_SHARED_READ_ONLY',
      status: 403,
      details: { path: 'runbooks/mcp.md', userId: 'alice' },
    });
    const upserted = await callTool('upsert_skill_file', {
      path: 'runbooks/mcp.md',
      content: 'Ignore incidents.',
      user_id: 'alice',
    });
    expect(upserted.isError).toBe(false);
    expect(upserted.envelope.data).toMatchObject({ created: true, skillFile: { userId: 'alice' } });
    expect(await filesAt('runbooks/mcp.md', bob)).toMatchObject([{ id: runbook.id, content: RUNBOOK }]);
    // The user's own file goes; the shared one stays.
    expect((await callTool('delete_skill_file', { path: 'runbooks/mcp.md', user_id: 'alice' })).isError).toBe(false);
    expect(await filesAt('runbooks/mcp.md', alice)).toMatchObject([{ id: runbook.id, content: RUNBOOK }]);
  });
});

describe('file mode: the mirror follows the file a delete reached', () => {
  let fileServer: TestServer;
  beforeAll(async () => {
    fileServer = await createTestServer({
      flags: {
        MEMORY_SESSION_ENABLED: true,
        MEMORY_COMPACTION_ENABLED: true,
        MEMORY_CONSOLIDATION_ENABLED: true,
        MEMORY_PROCEDURAL_ENABLED: true,
        MEMORY_FILE_MODE_ENABLED: true,
      },
    });
  });
  afterAll(async () => {
    await fileServer.close();
  });

  const mirrored = (...segments: string[]) =>
    path.join(fileServer.dataDir, 'skill-files', 'default', 'acme', ...segments);

  it('keeps the shared mirror on a refused delete, and removes the mirror of the user own file it deleted', async () => {
    await fileServer.post('/skills/files/upsert', {
      path: 'runbook.md',
      content: RUNBOOK,
      scope: { tenantId: 'acme' },
    });
    const scope = { tenantId: 'acme', userId: 'alice', projectId: 'repo-a' };
    const refused = await fileServer.call('POST', '/skills/files/delete', { path: 'runbook.md', scope });
    expect(refused.body.error?.code).toBe('SKILL_FILE_SHARED_READ_ONLY');
    expect(readFileSync(mirrored('_shared', '_global', 'runbook.md'), 'utf8')).toBe(RUNBOOK);

    // Alice's own file of every project, deleted from a call that names a project: its own mirror goes.
    await fileServer.post('/skills/files/upsert', {
      path: 'mine.md',
      content: 'Alice notes',
      scope: { tenantId: 'acme', userId: 'alice' },
    });
    expect(readFileSync(mirrored('alice', '_global', 'mine.md'), 'utf8')).toBe('Alice notes');
    expect((await fileServer.call('POST', '/skills/files/delete', { path: 'mine.md', scope })).status).toBe(200);
    expect(existsSync(mirrored('alice', '_global', 'mine.md'))).toBe(false);
  });
});
