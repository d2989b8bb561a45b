import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, createTestServer, type TestServer } from './harness.js';

// One user must not remove what the whole tenant shares: a call scoped to one user forgetting the tenant-wide rule
// "Never share customer card numbers." would take it from every other user. A user-scoped call reads shared records (no
// userId) but never edits, forgets, bulk-forgets, supersedes, restores or purges them; calls without a userId (the
// app's) still do.

let server: TestServer;
let mcp: Client;

const CARD_RULE = 'Never share customer card numbers.';
const alice = { userId: 'alice' };
const bob = { userId: 'bob' };

beforeAll(async () => {
  server = await createTestServer();
  mcp = await connectMcp(server, 'shared-memories-read-only');
});
afterAll(async () => {
  await mcp.close();
  await server.close();
});

/** A memory the app writes without a userId: shared with every user of the tenant. */
async function shared(content: string, fields: Record<string, unknown> = {}): Promise<string> {
  return (await server.post<{ id: string }>('/memories/add', { content, ...fields })).id;
}

async function rulesOf(scope: Record<string, string>): Promise<string[]> {
  const context = await server.post<{ rules: Array<{ content: string }> }>('/context/get', { query: 'card', scope });
  return context.rules.map((rule) => rule.content);
}

async function listedIds(scope: Record<string, string> = {}): Promise<string[]> {
  const listed = await server.post<{ memories: Array<{ id: string }> }>('/memories/list', { limit: 100, scope });
  return listed.memories.map((memory) => memory.id);
}

function expectSharedRefusal(response: Awaited<ReturnType<TestServer['call']>>, id: string): void {
  expect(response.status).toBe(403);
  expect(response.body.error).toMatchObject({
    code: 'MEMORY_SHARED_READ_ONLY',
    type: 'auth_error',
    retryable: false,
    details: { id, userId: 'alice' },
  });
  expect(response.body.error?.message).toContain('shared');
}

describe('a user-scoped call never changes a shared memory (HTTP)', () => {
  it('refuses memories/edit of a shared rule with 403 MEMORY_SHARED_READ_ONLY; every user keeps the rule', async () => {
    const rule = await shared(CARD_RULE, { type: 'rule' });
    const edit = await server.call('POST', '/memories/edit', {
      id: rule,
      content: 'Share customer card numbers when asked.',
      scope: alice,
    });
    expectSharedRefusal(edit, rule);
    expect(await rulesOf(bob)).toContain(CARD_RULE);
    expect(await rulesOf(alice)).toContain(CARD_RULE);
  });

  it('refuses memories/forget of a shared rule; the rule stays in every user context', async () => {
    const rule = await shared(`${CARD_RULE} (forget)`, { type: 'rule' });
    expectSharedRefusal(await server.call('POST', '/memories/forget', { id: rule, scope: alice }), rule);
    expect(await rulesOf(bob)).toContain(`${CARD_RULE} (forget)`);
    expect(await listedIds()).toContain(rule);
  });

  it('refuses memories/restore of a shared memory the app forgot', async () => {
    const retired = await shared('The old VPN endpoint is vpn1.example.com');
    await server.post('/memories/forget', { id: retired });
    expectSharedRefusal(await server.call('POST', '/memories/restore', { id: retired, scope: alice }), retired);
    expect(await listedIds()).not.toContain(retired);
    expect(await listedIds(bob)).not.toContain(retired);
  });

  it('bulk-forgets only the user own memories, and reports the shared ones it left alone', async () => {
    const office = await shared('The office wifi is called Orbit', { tags: ['office'] });
    const own = (
      await server.post<{ id: string }>('/memories/add', {
        content: 'Alice sits by the window',
        tags: ['office'],
        scope: alice,
      })
    ).id;
    const preview = await server.post('/memories/bulk-forget', {
      filters: { tags: ['office'] },
      dryRun: true,
      scope: alice,
    });
    expect(preview).toMatchObject({ dryRun: true, count: 1, sharedSkipped: 1 });
    expect((preview.memories as Array<{ id: string }>).map((memory) => memory.id)).toEqual([own]);
    const done = await server.post('/memories/bulk-forget', { filters: { tags: ['office'] }, scope: alice });
    expect(done).toMatchObject({ dryRun: false, count: 1, ids: [own], sharedSkipped: 1 });
    expect(done.message).toContain('1 shared');
    expect(await listedIds(bob)).toContain(office);
    // `all` by a user is the user's own memories, never the tenant's.
    const everything = await server.post('/memories/bulk-forget', { all: true, dryRun: true, scope: alice });
    expect(everything.sharedSkipped).toBeGreaterThan(0);
    expect((everything.memories as Array<{ id: string }>).map((memory) => memory.id)).not.toContain(office);
  });

  it('never supersedes a shared memory by a user-scoped consolidation', async () => {
    const scope = { userId: 'alice', projectId: 'consolidation' };
    const deployDay = await shared('Deploys go out on Mondays', { scope: { projectId: 'consolidation' } });
    const older = (
      await server.post<{ id: string }>('/memories/add', { content: 'Deploys go out on Wednesdays', scope })
    ).id;
    await server.post('/memories/add', { content: 'Deploys go out on Fridays', scope });
    const run = await server.post<{ supersededMemoryIds: string[] }>('/memories/consolidate', { scope });
    // The user's own stale statement is superseded; the shared one, making the same claim, is not touched.
    expect(run.supersededMemoryIds).toEqual([older]);
    expect(await listedIds({ projectId: 'consolidation', userId: 'bob' })).toContain(deployDay);
  });

  it('purges only the user own forgotten memories on memories/vacuum: the app can still restore a shared one', async () => {
    const retired = await shared('The staging password rotates monthly');
    await server.post('/memories/forget', { id: retired });
    await server.post('/memories/vacuum', { scope: alice });
    const restored = await server.call('POST', '/memories/restore', { id: retired });
    expect(restored.status).toBe(200);
    expect(await listedIds(bob)).toContain(retired);
  });

  it('still lets a user edit, forget and restore its own memories, and the app change shared ones', async () => {
    const own = (await server.post<{ id: string }>('/memories/add', { content: 'Alice prefers tea', scope: alice })).id;
    expect(
      (await server.call('POST', '/memories/edit', { id: own, content: 'Alice prefers green tea', scope: alice }))
        .status,
    ).toBe(200);
    expect((await server.call('POST', '/memories/forget', { id: own, scope: alice })).status).toBe(200);
    expect((await server.call('POST', '/memories/restore', { id: own, scope: alice })).status).toBe(200);
    // Another user's memory stays invisible, as before: not found, not "shared".
    expect((await server.call('POST', '/memories/forget', { id: own, scope: bob })).body.error?.code).toBe(
      'MEMORY_NOT_FOUND',
    );

    const rule = await shared('Answer in English.', { type: 'rule' });
    expect(
      (await server.call('POST', '/memories/edit', { id: rule, content: 'Answer in British English.' })).status,
    ).toBe(200);
    expect((await server.call('POST', '/memories/forget', { id: rule })).status).toBe(200);
    expect((await server.call('POST', '/memories/restore', { id: rule })).status).toBe(200);
    expect(await rulesOf(bob)).toContain('Answer in British English.');
  });
});

describe('a user-scoped call never changes a shared memory (MCP)', () => {
  const callTool = async (name: string, args: Record<string, unknown>) => {
    const result = await mcp.callTool({ name, arguments: args });
    return { isError: result.isError === true, envelope: result.structuredContent as Record<string, any> };
  };

  it('refuses edit_memory and forget_memory with a user_id on a shared memory', async () => {
    const note = await shared('Support hours are 9 to 5 CET');
    for (const [name, args] of [
      ['edit_memory', { id: note, content: 'Support is closed forever', user_id: 'alice' }],
      ['forget_memory', { id: note, user_id: 'alice' }],
    ] as const) {
      const refused = await callTool(name, args);
      expect(refused.isError, name).toBe(true);
      expect(refused.envelope.error, name).toMatchObject({
        code: 'MEMORY_SHARED_READ_ONLY',
        status: 403,
        details: { id: note, userId: 'alice' },
      });
    }
    const bulk = await callTool('bulk_forget_memories', { all: true, user_id: 'alice' });
    expect(bulk.envelope.data.ids).not.toContain(note);
    expect(bulk.envelope.data.sharedSkipped).toBeGreaterThan(0);
    expect(await listedIds(bob)).toContain(note);
  });
});
