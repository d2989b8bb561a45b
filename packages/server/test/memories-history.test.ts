import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/store/database.js';
import { pinClock, workspaceDatabase } from './graph-test-helpers.js';
import { connectMcp, createTestServer, type TestServer } from './harness.js';

interface Version {
  memoryId: string;
  change: 'edited' | 'superseded' | 'merged';
  content: string;
  tags: string[];
  validFrom: string;
  replacedAt: string;
  supersededBy: string;
}
interface History {
  id: string;
  memory: { id: string; content: string; supersededBy: string | null; createdAt: string };
  versions: Version[];
  count: number;
  nextCursor: string | null;
}

let server: TestServer;
let database: Database;
let clock = Date.parse('2026-04-01T08:00:00.000Z');

/** Moves the server's clock a minute on and returns that time. */
function tick(): string {
  clock += 60_000;
  pinClock(server, new Date(clock));
  return new Date(clock).toISOString();
}

async function add(content: string, extra: Record<string, unknown> = {}): Promise<string> {
  tick();
  return (await server.post<{ id: string }>('/memories/add', { content, ...extra })).id;
}

function query(scope: Record<string, string>): string {
  const search = new URLSearchParams(scope).toString();
  return search === '' ? '' : `?${search}`;
}

async function history(id: string, scope: Record<string, string> = {}): Promise<History> {
  const response = await server.call('GET', `/memories/${id}/history${query(scope)}`);
  expect(response.status, JSON.stringify(response.body.error)).toBe(200);
  return response.body.data as History;
}

async function versionRows(id: string): Promise<number> {
  const row = await database.get<{ count: number }>(
    'SELECT count(*) AS count FROM memory_versions WHERE memory_id = ?',
    [id],
  );
  return Number(row?.count);
}

beforeAll(async () => {
  server = await createTestServer();
  database = await workspaceDatabase(server);
});
afterAll(async () => {
  await server.close();
});

describe('GET /memories/{id}', () => {
  it('reads one memory the scope sees, as memories/list shows it', async () => {
    const id = await add('The build cache lives in S3', { tags: ['ci'], scope: { userId: 'ada', projectId: 'web' } });
    const response = await server.call('GET', `/memories/${id}?userId=ada&projectId=web`);
    expect(response.status).toBe(200);
    expect(response.body.meta.endpoint).toBe(`/api/sdk/v1/memories/${id}`);
    const listed = await server.post<{ memories: Array<{ id: string }> }>('/memories/list', {
      scope: { userId: 'ada', projectId: 'web' },
    });
    expect(response.body.data).toEqual({ id, memory: listed.memories.find((memory) => memory.id === id) });
    expect(response.body.data?.memory).toMatchObject({ content: 'The build cache lives in S3', userId: 'ada' });
  });

  it("answers 404 for another user's, project's or tenant's memory exactly as for one that does not exist", async () => {
    const id = await add('Ada prefers dark mode', { scope: { userId: 'ada', projectId: 'web' } });
    const missing = await server.call('GET', '/memories/000000000000?userId=bob&projectId=web');
    expect(missing.status).toBe(404);
    const strip = (body: typeof missing.body) => ({
      ...body.error,
      message: body.error?.message.replace(/'[^']*'/, "'ID'"),
      details: { ...body.error?.details, id: 'ID' },
    });
    const scopes: Array<Record<string, string>> = [
      { userId: 'bob', projectId: 'web' },
      { projectId: 'web' },
      { userId: 'ada', projectId: 'api' },
      { tenantId: 'other-tenant', userId: 'ada', projectId: 'web' },
    ];
    for (const scope of scopes) {
      for (const path of [`/memories/${id}`, `/memories/${id}/history`]) {
        const response = await server.call('GET', `${path}${query(scope)}`);
        expect(response.status, `${path} ${JSON.stringify(scope)}`).toBe(404);
        expect(response.body.error?.code).toBe('MEMORY_NOT_FOUND');
        expect(strip(response.body)).toEqual(strip(missing.body));
      }
    }
    // The read provisioned nothing for the unknown tenant.
    const tenants = await server.call('GET', '/management/tenant-overrides');
    expect(JSON.stringify(tenants.body.data)).not.toContain('other-tenant');
    // The owner still reads it, with its project or without one (projectId narrows, it does not guard), and a shared
    // memory is read by every user.
    expect((await server.call('GET', `/memories/${id}?userId=ada&projectId=web`)).status).toBe(200);
    expect((await server.call('GET', `/memories/${id}?userId=ada`)).status).toBe(200);
    const shared = await add('Everyone deploys from main');
    expect((await server.call('GET', `/memories/${shared}?userId=bob`)).status).toBe(200);
  });

  it('answers 404 for a forgotten memory, and refuses unknown query fields', async () => {
    const id = await add('A memory about to be forgotten');
    await server.post('/memories/forget', { id });
    expect((await server.call('GET', `/memories/${id}`)).body.error?.code).toBe('MEMORY_NOT_FOUND');
    const unknown = await server.call('GET', `/memories/${id}?user=ada`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error?.details).toMatchObject({ field: 'user' });
  });
});

describe('GET /memories/{id}/history', () => {
  it('keeps each wording an edit replaced, newest first, with when and by what', async () => {
    const id = await add('Standup is at 9:00', { tags: ['team'] });
    const created = new Date(clock).toISOString();
    expect(await history(id)).toMatchObject({ id, versions: [], count: 0, nextCursor: null });

    const firstEdit = tick();
    await server.post('/memories/edit', { id, content: 'Standup is at 9:30' });
    const secondEdit = tick();
    await server.post('/memories/edit', { id, tags: ['team', 'meetings'] });
    tick();
    // An edit that changes nothing a reader sees is no new version.
    await server.post('/memories/edit', { id, content: 'Standup is at 9:30' });

    const read = await history(id);
    expect(read.memory).toMatchObject({ id, content: 'Standup is at 9:30' });
    expect(read.count).toBe(2);
    expect(read.versions).toEqual([
      expect.objectContaining({
        memoryId: id,
        change: 'edited',
        content: 'Standup is at 9:30',
        tags: ['team'],
        validFrom: firstEdit,
        replacedAt: secondEdit,
        supersededBy: id,
      }),
      expect.objectContaining({
        memoryId: id,
        change: 'edited',
        content: 'Standup is at 9:00',
        tags: ['team'],
        validFrom: created,
        replacedAt: firstEdit,
        supersededBy: id,
      }),
    ]);
  });

  it('pages with limit and cursor, and refuses a malformed cursor naming it', async () => {
    const id = await add('Version 0 of a busy memory');
    for (let version = 1; version <= 5; version += 1) {
      tick();
      await server.post('/memories/edit', { id, content: `Version ${version} of a busy memory` });
    }
    const contents: string[] = [];
    let cursor: string | null = null;
    do {
      const page: History = await history(id, { limit: '2', ...(cursor === null ? {} : { cursor }) });
      expect(page.count).toBeLessThanOrEqual(2);
      contents.push(...page.versions.map((version) => version.content));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(contents).toEqual([4, 3, 2, 1, 0].map((version) => `Version ${version} of a busy memory`));

    const bad = await server.call('GET', `/memories/${id}/history?cursor=nope!`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'cursor' } });
  });

  it('shows the memories a consolidation superseded or merged, along the chain', async () => {
    const scope = { projectId: 'chain' };
    const oldest = await add('Deploy target: staging', { type: 'decision', scope });
    const middle = await add('Deploy target: qa', { type: 'decision', scope });
    await server.indexed();
    const firstRun = tick();
    await server.post('/memories/consolidate', { scope, includeGlobal: false });
    const newest = await add('Deploy target: production', { type: 'decision', scope });
    await server.indexed();
    const secondRun = tick();
    await server.post('/memories/consolidate', { scope, includeGlobal: false });

    const read = await history(newest, scope);
    expect(read.memory.supersededBy).toBeNull();
    const supersedes = read.versions.filter((version) => version.change !== 'edited');
    expect(supersedes).toEqual([
      expect.objectContaining({
        memoryId: middle,
        change: 'superseded',
        content: 'Deploy target: qa',
        supersededBy: newest,
      }),
      expect.objectContaining({
        memoryId: oldest,
        change: 'superseded',
        content: 'Deploy target: staging',
        supersededBy: middle,
      }),
    ]);
    // Each was replaced when its consolidation ran (or, earlier, when the indexer saw the newer statement).
    const [middleReplaced = '', oldestReplaced = ''] = supersedes.map((version) => version.replacedAt);
    expect(middleReplaced <= secondRun && middleReplaced >= firstRun).toBe(true);
    expect(oldestReplaced !== '' && oldestReplaced <= firstRun).toBe(true);
    // The superseded memory is still read by id, and says what replaced it.
    const middleRead = await server.call('GET', `/memories/${middle}?projectId=chain`);
    expect(middleRead.body.data?.memory).toMatchObject({ id: middle, supersededBy: newest });
    // A later change to the superseded memory moves its updatedAt, not when it was superseded.
    tick();
    await server.post('/memories/edit', { id: middle, tags: ['late'], scope });
    const again = await history(newest, scope);
    const middleAgain = again.versions.find(
      (version) => version.memoryId === middle && version.change === 'superseded',
    );
    expect(middleAgain?.replacedAt).toBe(middleReplaced);
    expect(middleAgain?.tags).toEqual(['late']);
  });

  it('shows a duplicate merged into the memory', async () => {
    const scope = { projectId: 'merge' };
    const older = await add('Use pnpm for installs', { scope });
    const newer = await add('Use pnpm for every install', { scope });
    tick();
    // Adds refuse duplicates; an edit can still make two equal, and consolidation merges them.
    await server.post('/memories/edit', { id: newer, content: 'use  PNPM for installs', scope });
    await server.indexed();
    const run = tick();
    await server.post('/memories/consolidate', { scope, includeGlobal: false });

    const read = await history(newer, scope);
    expect(read.versions).toEqual([
      expect.objectContaining({
        memoryId: older,
        change: 'merged',
        content: 'Use pnpm for installs',
        replacedAt: run,
        supersededBy: newer,
      }),
      expect.objectContaining({
        memoryId: newer,
        change: 'edited',
        content: 'Use pnpm for every install',
        supersededBy: newer,
      }),
    ]);
  });

  it('forgetting a memory removes its versions; a bulk forget and a vacuum too', async () => {
    const id = await add('Lunch is at noon');
    tick();
    await server.post('/memories/edit', { id, content: 'Lunch is at 12:30' });
    tick();
    await server.post('/memories/edit', { id, content: 'Lunch is at 13:00' });
    expect(await versionRows(id)).toBe(2);
    await server.post('/memories/forget', { id });
    expect(await versionRows(id)).toBe(0);
    await server.post('/memories/restore', { id });
    expect(await history(id)).toMatchObject({ memory: { content: 'Lunch is at 13:00' }, versions: [] });

    const bulk = await add('Temporary note to bulk forget', { tags: ['bulk-history'] });
    tick();
    await server.post('/memories/edit', { id: bulk, content: 'Temporary note to bulk forget, edited' });
    expect(await versionRows(bulk)).toBe(1);
    await server.post('/memories/bulk-forget', { filters: { tags: ['bulk-history'] } });
    expect(await versionRows(bulk)).toBe(0);

    // A merged duplicate keeps its versions (its winner's history shows them) until vacuum purges it.
    const kept = await add('Retro is on Fridays', { scope: { projectId: 'vacuum' } });
    tick();
    await server.post('/memories/edit', { id: kept, content: 'Retro is on Thursdays', scope: { projectId: 'vacuum' } });
    await database.run(
      "UPDATE memories SET deleted_at = '2026-01-01T00:00:00.000Z' WHERE id = ?", // as a merge leaves it
      [kept],
    );
    expect(await versionRows(kept)).toBe(1);
    await server.post('/memories/vacuum', { scope: { projectId: 'vacuum' } });
    expect(await versionRows(kept)).toBe(0);
  });

  it('is served over MCP: get_memory and get_memory_history', async () => {
    const id = await add('Code review needs two approvals', { scope: { userId: 'ada' } });
    tick();
    await server.post('/memories/edit', { id, content: 'Code review needs one approval', scope: { userId: 'ada' } });
    const client = await connectMcp(server, 'history-test');
    try {
      const got = await client.callTool({ name: 'get_memory', arguments: { id, user_id: 'ada' } });
      expect(got.isError).toBeFalsy();
      expect((got.structuredContent as { data: { memory: { content: string } } }).data.memory.content).toBe(
        'Code review needs one approval',
      );
      const past = await client.callTool({ name: 'get_memory_history', arguments: { id, user_id: 'ada' } });
      expect((past.structuredContent as { data: History }).data.versions.map((version) => version.content)).toEqual([
        'Code review needs two approvals',
      ]);
      const hidden = await client.callTool({ name: 'get_memory', arguments: { id, user_id: 'bob' } });
      expect(hidden.isError).toBe(true);
      expect((hidden.structuredContent as { error: { code: string } }).error.code).toBe('MEMORY_NOT_FOUND');
    } finally {
      await client.close();
    }
  });
});
