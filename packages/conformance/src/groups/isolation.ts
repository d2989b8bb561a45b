import type { RunEnvironment, Scope } from '../environment.js';
import { assert, eventually, expectError, expectShape, expectSuccess, need } from '../expect.js';
import { McpSession } from '../mcp.js';
import { ContextShape, SearchShape, SkillListShape } from '../shapes.js';
import { type CheckGroup, marker } from './group.js';
import { addMemory, listedIds } from './memories.js';
import { skipWhenSessionsDisabled } from './sessions.js';

const SCOPE = 'Scope model';
const BOUNDARY =
  'Scope model (tenantId: the security and database boundary); Authentication (tenantId is the security boundary)';

/** The ids a search and a context/get in a scope return for a query. */
async function retrievedIds(env: RunEnvironment, scope: Scope, query: string): Promise<string[]> {
  const search = expectShape(
    SearchShape,
    expectSuccess(await env.post('/memories/search', { query, limit: 50, scope })),
    'search data',
  );
  const context = expectShape(
    ContextShape,
    expectSuccess(await env.post('/context/get', { query, limit: 50, scope })),
    'context data',
  );
  const ids = [...search.memories, ...context.memories, ...context.rules].map(
    (memory) => (memory as { id?: unknown }).id,
  );
  return ids.filter((id): id is string => typeof id === 'string');
}

/** Tenants, users and projects do not see each other's records. */
export const isolationGroup: CheckGroup = {
  id: 'isolation',
  title: 'Scope isolation',
  summary:
    "A second tenant sees none of the first tenant's memories, skill files or sessions and cannot forget them; one user does not see another user's memories; projectId narrows retrieval; the same over MCP arguments.",
  async run(t, env) {
    const { tenantId, otherTenantId, userId, otherUserId, projectId, otherProjectId } = env.namespace;
    const word = marker('isox');
    const tenantA = { tenantId };
    const tenantB = { tenantId: otherTenantId };

    const ids = await t.check(
      'setup',
      'records for the isolation checks are stored in tenant A (memories, a skill file, a session)',
      'Endpoints › POST /memories/add',
      async () => {
        const shared = await addMemory(env, {
          content: `The ${word} vault code is kept in tenant A`,
          type: 'fact',
          scope: tenantA,
        });
        const rule = await addMemory(env, {
          content: `Tenant A rule: ${word} stays private`,
          type: 'rule',
          layer: 'rule',
          scope: tenantA,
        });
        const ofUser = await addMemory(env, {
          content: `The ${word} diary of user A`,
          type: 'note',
          scope: { tenantId, userId },
        });
        const ofProject = await addMemory(env, {
          content: `The ${word} roadmap of project A`,
          type: 'note',
          scope: { tenantId, projectId },
        });
        expectSuccess(
          await env.post('/skills/files/upsert', {
            path: `conformance/${word}.md`,
            content: `# ${word}`,
            scope: tenantA,
          }),
          [200, 201],
        );
        // Visible where written, so that "not visible elsewhere" below means isolation and not a lost write.
        await eventually(async () => {
          const found = await retrievedIds(env, { tenantId, userId, projectId }, `${word}`);
          for (const id of [shared, ofUser, ofProject])
            assert(found.includes(id), `memory ${id} is not found in its own scope`);
        });
        return { shared, rule, ofUser, ofProject };
      },
    );

    await t.check(
      'tenant-retrieval',
      "tenant B retrieves none of tenant A's memories (search, context/get, list)",
      BOUNDARY,
      async () => {
        const { shared, rule, ofUser, ofProject } = need(ids, 'the tenant A records');
        const found = [...(await retrievedIds(env, tenantB, word)), ...(await listedIds(env, { scope: tenantB }))];
        const leaked = [shared, rule, ofUser, ofProject].filter((id) => found.includes(id));
        assert(leaked.length === 0, `tenant B sees ${leaked.join(', ')}`);
        const withUser = await retrievedIds(env, { tenantId: otherTenantId, userId, projectId }, word);
        assert(
          !withUser.some((id) => [shared, ofUser, ofProject].includes(id)),
          'tenant B with the same userId/projectId sees tenant A memories',
        );
      },
    );

    await t.check(
      'tenant-forget',
      'tenant B cannot forget or edit a tenant A memory by id: it stays in tenant A, unchanged',
      BOUNDARY,
      async () => {
        const { shared } = need(ids, 'the tenant A records');
        await env.post('/memories/forget', { id: shared, scope: tenantB });
        await env.post('/memories/edit', { id: shared, content: 'overwritten from tenant B', scope: tenantB });
        const listed = expectSuccess(await env.post('/memories/list', { limit: 100, scope: tenantA })) as {
          memories: Record<string, unknown>[];
        };
        const memory = listed.memories.find((each) => each.id === shared);
        assert(memory !== undefined, 'a forget from tenant B removed the tenant A memory');
        assert(
          memory.content === undefined || String(memory.content).includes(word),
          'an edit from tenant B changed the tenant A memory',
        );
      },
    );

    await t.check('tenant-bulk-forget', 'bulk-forget all in tenant B leaves tenant A untouched', BOUNDARY, async () => {
      const { shared } = need(ids, 'the tenant A records');
      expectSuccess(await env.post('/memories/bulk-forget', { all: true, dryRun: false, scope: tenantB }));
      assert(
        (await listedIds(env, { scope: tenantA })).includes(shared),
        'bulk-forget in tenant B removed a tenant A memory',
      );
    });

    await t.check('tenant-skill-files', "tenant B does not list tenant A's skill files", BOUNDARY, async () => {
      need(ids, 'the tenant A records');
      const data = expectShape(
        SkillListShape,
        expectSuccess(await env.post('/skills/files/list', { scope: tenantB })),
        'list data',
      );
      assert(!JSON.stringify(data.skillFiles).includes(word), 'tenant B lists a tenant A skill file');
    });

    await t.check(
      'tenant-sessions',
      'a tenant A session is unknown in tenant B: 404 SESSION_NOT_FOUND for checkpoint and snapshot',
      BOUNDARY,
      async () => {
        const started = await env.post('/sessions/start', { title: 'Conformance isolation', scope: tenantA });
        skipWhenSessionsDisabled(started);
        const sessionId = expectSuccess(started, 201).sessionId as string;
        expectError(await env.post('/sessions/checkpoint', { sessionId, content: 'from tenant B', scope: tenantB }), {
          status: 404,
          code: 'SESSION_NOT_FOUND',
        });
        expectError(await env.get(`/sessions/${encodeURIComponent(sessionId)}/snapshot`, { tenantId: otherTenantId }), {
          status: 404,
          code: 'SESSION_NOT_FOUND',
        });
        expectSuccess(await env.post('/sessions/end', { sessionId, status: 'closed', scope: tenantA }));
      },
    );

    await t.check(
      'user-scope',
      "another userId in the same tenant does not retrieve or list a user's memories",
      `${SCOPE} (userId: end-user scope inside tenantId)`,
      async () => {
        const { ofUser } = need(ids, 'the tenant A records');
        const other = { tenantId, userId: otherUserId };
        const found = [...(await retrievedIds(env, other, word)), ...(await listedIds(env, { scope: other }))];
        assert(!found.includes(ofUser), "user B sees user A's memory");
        assert((await listedIds(env, { scope: { tenantId, userId } })).includes(ofUser), 'user A no longer lists it');
      },
    );

    await t.check(
      'project-scope',
      "projectId narrows retrieval: another projectId does not retrieve a project's memory",
      `${SCOPE} (projectId narrows retrieval)`,
      async () => {
        const { ofProject } = need(ids, 'the tenant A records');
        const found = await retrievedIds(env, { tenantId, projectId: otherProjectId }, word);
        assert(!found.includes(ofProject), "project B retrieves project A's memory");
      },
    );

    await t.check(
      'mcp-tenant',
      "over MCP, tenant_id B does not find tenant A's memories",
      `${BOUNDARY}; What the service does (MCP)`,
      async () => {
        const { shared } = need(ids, 'the tenant A records');
        const session = await McpSession.connect(env.http, env.fetchImplementation);
        try {
          const result = await session.callTool('search_memories', { query: word, tenant_id: otherTenantId });
          const data = (result.envelope as { data?: { memories?: { id: string }[] } } | undefined)?.data;
          assert(
            data?.memories !== undefined,
            `search_memories failed: ${JSON.stringify(result.envelope?.error ?? result.raw).slice(0, 200)}`,
          );
          assert(!data.memories.some((memory) => memory.id === shared), 'tenant B finds a tenant A memory over MCP');
        } finally {
          await session.close();
        }
      },
    );
  },
};
