import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace } from '../src/cli/workspaces-commands.js';
import { mirrorPath } from '../src/skills/file-mirror.js';
import { createTestServer, TEST_KEY, type TestResponse, type TestServer } from './harness.js';

/**
 * Workspace isolation, as a property over HTTP: two workspaces run random operations with random (often identical)
 * tenantIds, userIds and Host headers; a key of one never reads, finds, lists, forgets, edits or overwrites anything
 * of the other. Every record carries a token naming its workspace (`atok..`, `btok..`), so any answer leaking the
 * other workspace's data shows its token.
 */
type Workspace = 'a' | 'b';
type Scope = { tenantId?: string; userId?: string };

let server: TestServer;
const keys: Record<Workspace, string> = { a: TEST_KEY, b: '' };
const ownerIds: Record<Workspace, string> = { a: 'default', b: '' };
beforeAll(async () => {
  server = await createTestServer({ flags: fileMode() });
  const created = await createWorkspace(server.services, 'Workspace B', new Date());
  keys.b = created.apiKey;
  ownerIds.b = created.workspace.id;
});
afterAll(async () => {
  await server.close();
});

function fileMode() {
  return {
    MEMORY_SESSION_ENABLED: true,
    MEMORY_COMPACTION_ENABLED: true,
    MEMORY_CONSOLIDATION_ENABLED: true,
    MEMORY_PROCEDURAL_ENABLED: true,
    MEMORY_FILE_MODE_ENABLED: true,
  };
}

interface Memory {
  id: string;
  token: string;
  scope: Scope;
}
const memories: Record<Workspace, Memory[]> = { a: [], b: [] };
const sessions: Record<Workspace, Array<{ id: string; scope: Scope }>> = { a: [], b: [] };
/** The last content each workspace wrote at `skills/shared.md` of a scope. */
const skills: Record<Workspace, Map<string, { scope: Scope; token: string }>> = { a: new Map(), b: new Map() };
let counter = 0;

const operation = fc.record({
  workspace: fc.constantFrom<Workspace>('a', 'b'),
  kind: fc.constantFrom('add', 'search', 'list', 'context', 'forget', 'edit', 'skill', 'session', 'snapshot'),
  tenantId: fc.option(fc.constantFrom('shared', 'acme', 'other'), { nil: undefined }),
  userId: fc.option(fc.constantFrom('u1', 'u2'), { nil: undefined }),
  host: fc.constantFrom('localhost', 'evil.example', 'shared.localhost'),
  pick: fc.nat(),
});

function scopeWithNulls(scope: Scope) {
  return { tenantId: scope.tenantId ?? null, userId: scope.userId ?? null, projectId: null };
}

function scopeOf(tenantId: string | undefined, userId: string | undefined): Scope {
  return { ...(tenantId === undefined ? {} : { tenantId }), ...(userId === undefined ? {} : { userId }) };
}

async function call(workspace: Workspace, host: string, method: string, route: string, body?: unknown) {
  const response: TestResponse = await server.call(method, route, body, { key: keys[workspace], headers: { host } });
  expect(response.status, `${method} ${route}: ${JSON.stringify(response.body.error)}`).toBeLessThan(500);
  // Nothing of the other workspace in any answer.
  const other = workspace === 'a' ? 'btok' : 'atok';
  expect(JSON.stringify(response.body)).not.toContain(other);
  return response;
}

describe('workspace isolation property', () => {
  it('a key of one workspace never reaches anything of another, whatever the tenantId, userId or host', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 4, maxLength: 12 }), async (steps) => {
        for (const step of steps) {
          const mine = step.workspace;
          const theirs: Workspace = mine === 'a' ? 'b' : 'a';
          const scope = scopeOf(step.tenantId, step.userId);
          const token = `${mine}tok${++counter}x`;
          const victim = memories[theirs][step.pick % Math.max(1, memories[theirs].length)];
          const victimSession = sessions[theirs][step.pick % Math.max(1, sessions[theirs].length)];
          switch (step.kind) {
            case 'add': {
              const response = await call(mine, step.host, 'POST', '/memories/add', {
                content: `kiwi ${token} fact`,
                tags: [token],
                scope,
              });
              memories[mine].push({ id: response.body.data?.id as string, token, scope });
              break;
            }
            case 'search':
              await call(mine, step.host, 'POST', '/memories/search', { query: 'kiwi fact', scope });
              break;
            case 'list':
              await call(mine, step.host, 'POST', '/memories/list', { scope });
              break;
            case 'context':
              await call(mine, step.host, 'POST', '/context/get', { query: 'kiwi shared', scope });
              break;
            case 'forget':
              if (victim === undefined) break;
              expect(
                (await call(mine, step.host, 'POST', '/memories/forget', { id: victim.id, scope: victim.scope }))
                  .status,
              ).toBe(404);
              break;
            case 'edit':
              if (victim === undefined) break;
              expect(
                (
                  await call(mine, step.host, 'POST', '/memories/edit', {
                    id: victim.id,
                    content: 'hijacked',
                    scope: victim.scope,
                  })
                ).status,
              ).toBe(404);
              break;
            case 'skill':
              await call(mine, step.host, 'POST', '/skills/files/upsert', {
                path: 'skills/shared.md',
                content: `# ${token}`,
                scope,
              });
              skills[mine].set(JSON.stringify(scope), { scope, token });
              break;
            case 'session': {
              const response = await call(mine, step.host, 'POST', '/sessions/start', { title: token, scope });
              sessions[mine].push({ id: response.body.data?.sessionId as string, scope });
              break;
            }
            case 'snapshot': {
              if (victimSession === undefined) break;
              const query = new URLSearchParams(victimSession.scope).toString();
              const snapshot = await call(mine, step.host, 'GET', `/sessions/${victimSession.id}/snapshot?${query}`);
              expect(snapshot.status).toBe(404);
              const checkpoint = await call(mine, step.host, 'POST', '/sessions/checkpoint', {
                sessionId: victimSession.id,
                content: token,
                scope: victimSession.scope,
              });
              expect(checkpoint.status).toBe(404);
              break;
            }
          }
        }
        // Everything each workspace wrote is still there, unchanged, for its own key.
        for (const workspace of ['a', 'b'] as const) {
          for (const memory of memories[workspace]) {
            const list = await call(workspace, 'localhost', 'POST', '/memories/list', {
              tags: memory.token,
              scope: memory.scope,
            });
            expect(list.body.data?.memories).toEqual([
              expect.objectContaining({ id: memory.id, content: `kiwi ${memory.token} fact` }),
            ]);
          }
          for (const { scope, token } of skills[workspace].values()) {
            const list = await call(workspace, 'localhost', 'POST', '/skills/files/list', { scope });
            const files = (list.body.data?.skillFiles ?? []) as Array<{
              path: string;
              content: string;
              userId: string | null;
            }>;
            const file = files.find(
              (each) => each.path === 'skills/shared.md' && each.userId === (scope.userId ?? null),
            );
            expect(file?.content).toBe(`# ${token}`);
            // The file-mode mirror too: the other workspace never overwrote it.
            const mirror = mirrorPath(server.dataDir, ownerIds[workspace], scopeWithNulls(scope), 'skills/shared.md');
            expect(readFileSync(mirror, 'utf8')).toBe(`# ${token}`);
          }
        }
      }),
      { numRuns: 25 },
    );
  });
});
