import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './harness.js';

/**
 * Tenant and user isolation as a property over the routes: whatever is created under scope A (a tenant and a
 * user) cannot be read, edited or deleted from any scope B that differs in tenant or user.
 */
let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});

const identifier = fc.stringMatching(/^[a-z][a-z0-9]{2,8}$/);
const scopes = fc
  .record({
    tenantA: identifier,
    userA: identifier,
    other: identifier,
    kind: fc.constantFrom('tenant', 'user', 'no-user'),
  })
  .filter(({ tenantA, userA, other }) => other !== tenantA && other !== userA)
  .map(({ tenantA, userA, other, kind }) => {
    const a = { tenantId: `t-${tenantA}`, userId: userA };
    const b =
      kind === 'tenant'
        ? { tenantId: `t-${other}`, userId: userA }
        : kind === 'user'
          ? { tenantId: a.tenantId, userId: other }
          : { tenantId: a.tenantId };
    return { a, b };
  });

let counter = 0;

describe('isolation property', () => {
  it('B never reads, edits or deletes what A created', async () => {
    await fc.assert(
      fc.asyncProperty(scopes, async ({ a, b }) => {
        counter += 1;
        const token = `zebra${counter}marker`;
        const memory = await server.post<{ id: string }>('/memories/add', {
          content: `private ${token} note`,
          tags: [token],
          scope: a,
        });
        await server.post('/skills/files/upsert', { path: `skills/${token}.md`, content: `# ${token}`, scope: a });
        const session = await server.post<{ sessionId: string }>('/sessions/start', { title: token, scope: a });
        await server.post('/sessions/checkpoint', { sessionId: session.sessionId, content: token, scope: a });

        // Reads from B see nothing of A.
        const search = await server.post<{ memories: Array<{ id: string }> }>('/memories/search', {
          query: token,
          scope: b,
        });
        expect(search.memories.map((each) => each.id)).not.toContain(memory.id);
        const list = await server.post<{ memories: Array<{ id: string }> }>('/memories/list', {
          tags: token,
          scope: b,
        });
        expect(list.memories).toHaveLength(0);
        const context = await server.post<{ memories: Array<{ id: string }>; skillFiles: Array<{ path: string }> }>(
          '/context/get',
          { query: token, scope: b },
        );
        expect(context.memories.map((each) => each.id)).not.toContain(memory.id);
        expect(context.skillFiles.map((each) => each.path)).not.toContain(`skills/${token}.md`);
        const skills = await server.post<{ skillFiles: Array<{ path: string }> }>('/skills/files/list', { scope: b });
        expect(skills.skillFiles.map((each) => each.path)).not.toContain(`skills/${token}.md`);
        const query = new URLSearchParams(Object.entries(b)).toString();
        expect((await server.call('GET', `/sessions/${session.sessionId}/snapshot?${query}`)).status).toBe(404);

        // Writes from B cannot touch A's records.
        expect(
          (await server.call('POST', '/memories/edit', { id: memory.id, content: 'hijacked', scope: b })).status,
        ).toBe(404);
        expect((await server.call('POST', '/memories/forget', { id: memory.id, scope: b })).status).toBe(404);
        await server.post('/memories/bulk-forget', { filters: { tags: [token] }, scope: b });
        expect(
          (await server.call('POST', '/skills/files/delete', { path: `skills/${token}.md`, scope: b })).status,
        ).toBe(404);
        expect(
          (await server.call('POST', '/sessions/checkpoint', { sessionId: session.sessionId, content: 'x', scope: b }))
            .status,
        ).toBe(404);
        expect((await server.call('POST', '/sessions/end', { sessionId: session.sessionId, scope: b })).status).toBe(
          404,
        );
        expect(
          (
            await server.call('POST', '/skills/files/promote', {
              sessionId: session.sessionId,
              path: 'stolen.md',
              scope: b,
            })
          ).status,
        ).toBe(404);

        // A still has everything, unchanged.
        const own = await server.post<{ memories: Array<{ id: string; content: string }> }>('/memories/search', {
          query: token,
          scope: a,
        });
        expect(own.memories.find((each) => each.id === memory.id)?.content).toBe(`private ${token} note`);
        const ownSkills = await server.post<{ skillFiles: Array<{ path: string }> }>('/skills/files/list', {
          scope: a,
        });
        expect(ownSkills.skillFiles.map((each) => each.path)).toContain(`skills/${token}.md`);
        expect(
          (
            await server.call('POST', '/sessions/checkpoint', {
              sessionId: session.sessionId,
              content: 'still mine',
              scope: a,
            })
          ).status,
        ).toBe(200);
      }),
      { numRuns: 20 },
    );
  });
});
