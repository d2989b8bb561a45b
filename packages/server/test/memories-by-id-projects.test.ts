// projectId narrows, it does not guard (the contract's scope table): a request that names one memory by id, or a
// user's bulk forget, reaches the user's memory in any project when it names no projectId — as the memories.sh
// client sends its edit, forget and bulk forget. A named projectId still narrows, and the user boundary holds.
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, createTestServer, type TestServer } from './harness.js';

type Loose = Record<string, unknown>;

let server: TestServer;
const clients: Client[] = [];
let counter = 0;

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await server.close();
});

/** A fresh user, so each case starts from an empty store. */
function freshUser(): string {
  counter += 1;
  return `by-id-user-${counter}`;
}

async function add(content: string, scope: Loose): Promise<string> {
  return (await server.post<{ id: string }>('/memories/add', { content, scope })).id;
}

async function listed(scope: Loose): Promise<string[]> {
  const data = await server.post<{ memories: Array<{ id: string }> }>('/memories/list', { scope, limit: 100 });
  return data.memories.map((memory) => memory.id);
}

describe('a memory stored in a project, named by id without a projectId', () => {
  it('is read, edited, forgotten and restored by its user', async () => {
    const userId = freshUser();
    const id = await add('The staging database is called tern', { userId, projectId: 'repo-a' });

    const read = await server.call('GET', `/memories/${id}?userId=${userId}`);
    expect(read.status).toBe(200);
    expect((read.body.data as Loose).memory).toMatchObject({ id, projectId: 'repo-a' });
    expect((await server.call('GET', `/memories/${id}/history?userId=${userId}`)).status).toBe(200);

    await server.post('/memories/edit', { id, content: 'The staging database is called heron', scope: { userId } });
    const after = await server.post<{ memories: Array<{ id: string; content: string }> }>('/memories/list', {
      scope: { userId, projectId: 'repo-a' },
    });
    expect(after.memories.find((memory) => memory.id === id)?.content).toBe('The staging database is called heron');

    await server.post('/memories/forget', { id, scope: { userId } });
    expect(await listed({ userId, projectId: 'repo-a' })).not.toContain(id);
    await server.post('/memories/restore', { id, scope: { userId } });
    expect(await listed({ userId, projectId: 'repo-a' })).toContain(id);
  });

  it('stays out of reach of another user, another project named, and a request without a user', async () => {
    const userId = freshUser();
    const id = await add('Release notes go to the #ship channel', { userId, projectId: 'repo-a' });
    const outsiders: Loose[] = [{ userId: freshUser() }, { userId, projectId: 'repo-b' }, {}];
    for (const scope of outsiders) {
      const edit = await server.call('POST', '/memories/edit', { id, content: 'changed', scope });
      expect(edit.status, JSON.stringify(scope)).toBe(404);
      const forget = await server.call('POST', '/memories/forget', { id, scope });
      expect(forget.status, JSON.stringify(scope)).toBe(404);
      const query = new URLSearchParams(scope as Record<string, string>).toString();
      expect((await server.call('GET', `/memories/${id}${query === '' ? '' : `?${query}`}`)).status).toBe(404);
    }
    expect(await listed({ userId, projectId: 'repo-a' })).toContain(id);
  });

  it('is reached over MCP by forget_memory without a project_id', async () => {
    const userId = freshUser();
    const id = await add('The on-call rota is in PagerDuty', { userId, projectId: 'repo-a' });
    const client = await connectMcp(server, 'by-id-projects');
    clients.push(client);
    const result = await client.callTool({ name: 'forget_memory', arguments: { id, user_id: userId } });
    expect(result.isError).not.toBe(true);
    expect(await listed({ userId, projectId: 'repo-a' })).not.toContain(id);
  });
});

describe('bulk forget without a projectId', () => {
  it("reaches the user's memories in every project; filters.projectId narrows to exactly that project", async () => {
    const userId = freshUser();
    const inA = await add('Lint runs with biome in repo A', { userId, projectId: 'repo-a' });
    const inB = await add('Lint runs with eslint in repo B', { userId, projectId: 'repo-b' });
    const loose = await add('Lint runs before every push', { userId });
    const other = freshUser();
    const otherUser = await add('Lint runs nightly', { userId: other, projectId: 'repo-a' });

    const onlyB = await server.post<{ count: number; ids: string[] }>('/memories/bulk-forget', {
      filters: { pattern: 'Lint*', projectId: 'repo-b' },
      scope: { userId },
    });
    expect(onlyB.ids).toEqual([inB]);

    const preview = await server.post<{ count: number; memories: Array<{ id: string }> }>('/memories/bulk-forget', {
      filters: { pattern: 'Lint*' },
      dryRun: true,
      scope: { userId },
    });
    expect(preview.memories.map((memory) => memory.id).sort()).toEqual([inA, loose].sort());

    const all = await server.post<{ ids: string[] }>('/memories/bulk-forget', { all: true, scope: { userId } });
    expect(all.ids.sort()).toEqual([inA, loose].sort());
    expect(await listed({ userId, projectId: 'repo-a' })).toEqual([]);
    // Another user's memory in the same project is untouched.
    expect(await listed({ userId: other, projectId: 'repo-a' })).toContain(otherUser);
  });

  it('with a projectId in the scope forgets that project and project-less memories, not another project', async () => {
    const userId = freshUser();
    const inA = await add('Deploy keys rotate monthly in repo A', { userId, projectId: 'repo-a' });
    const inB = await add('Deploy keys rotate weekly in repo B', { userId, projectId: 'repo-b' });
    const loose = await add('Deploy keys live in the vault', { userId });
    const forgotten = await server.post<{ ids: string[] }>('/memories/bulk-forget', {
      all: true,
      scope: { userId, projectId: 'repo-a' },
    });
    expect(forgotten.ids.sort()).toEqual([inA, loose].sort());
    expect(await listed({ userId, projectId: 'repo-b' })).toEqual([inB]);
  });
});

describe('vacuum without a projectId', () => {
  it("purges the user's forgotten memories in every project, and only that user's", async () => {
    const userId = freshUser();
    const other = freshUser();
    const inA = await add('The cache bucket is ci-cache-a', { userId, projectId: 'repo-a' });
    const loose = await add('The cache bucket is ci-cache', { userId });
    const othersInA = await add('The cache bucket is ci-cache-other', { userId: other, projectId: 'repo-a' });
    for (const [id, owner] of [
      [inA, userId],
      [loose, userId],
      [othersInA, other],
    ] as const) {
      await server.post('/memories/forget', { id, scope: { userId: owner } });
    }
    const vacuum = await server.post<{ purged: number }>('/memories/vacuum', { scope: { userId } });
    expect(vacuum.purged).toBe(2);
    for (const id of [inA, loose]) {
      expect((await server.call('POST', '/memories/restore', { id, scope: { userId } })).status).toBe(404);
    }
    // The other user's forgotten memory is still there to restore.
    expect((await server.call('POST', '/memories/restore', { id: othersInA, scope: { userId: other } })).status).toBe(
      200,
    );
  });

  it('with a projectId leaves another project alone', async () => {
    const userId = freshUser();
    const inB = await add('The artifact bucket is builds-b', { userId, projectId: 'repo-b' });
    await server.post('/memories/forget', { id: inB, scope: { userId } });
    expect(
      (await server.post<{ purged: number }>('/memories/vacuum', { scope: { userId, projectId: 'repo-a' } })).purged,
    ).toBe(0);
    expect((await server.call('POST', '/memories/restore', { id: inB, scope: { userId } })).status).toBe(200);
  });
});
