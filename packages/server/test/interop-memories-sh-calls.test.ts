import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { ADMIN_TOKEN, createTestServer, TEST_EMBEDDING_MODEL, TEST_KEY, type TestServer } from './harness.js';
import {
  upstreamBulkForget,
  upstreamContext,
  upstreamEmbeddingModels,
  upstreamEmbeddingUsage,
  upstreamEnvelope,
  upstreamKeys,
  upstreamMemoryList,
  upstreamMutation,
  upstreamSkillFileList,
  upstreamTenants,
  upstreamToolResult,
  upstreamVacuum,
} from './memories-sh-schemas.js';
import { type SqldServer, startSqld } from './sqld.js';

// Issue 26, part 1: every call of the upstream memories.sh core client (webrenew/memories `packages/core`), with the
// request it sends, over both of its transports (`sdk_http` and `mcp`), answered by this server and read back
// through upstream's own response schemas (re-expressed in `memories-sh-schemas.ts`). The request shapes below are
// written from a reading of upstream's client: what it puts in each body, query string or tool arguments, with the
// values its normalisation sends (mode `all`, graphDepth 1, graphLimit 8 when not given) and nothing it leaves out.

let server: TestServer;
let sqld: SqldServer;

beforeAll(async () => {
  // Attach (tursoDbUrl) needs a libSQL server; it listens on loopback, which the operator must allow.
  [server, sqld] = await Promise.all([createTestServer({ attachAllowPrivateNetworks: true }), startSqld()]);
});
afterAll(async () => {
  await Promise.all([server.close(), sqld.stop()]);
});

type Query = Record<string, string | number | boolean | undefined>;

/** Upstream's `callSdkRequest`: bearer key, a JSON body when there is one, the query without undefined values. */
async function sdk(method: 'GET' | 'POST' | 'DELETE', route: string, request: { body?: object; query?: Query } = {}) {
  const url = new URL(`http://memory.test/api/sdk/v1${route}`);
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  const headers: Record<string, string> = {
    authorization: `Bearer ${route.startsWith('/management') ? ADMIN_TOKEN : TEST_KEY}`,
  };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  const response = await server.app.request(url.toString(), { method, headers, body });
  const json: unknown = await response.json();
  // Upstream throws on a non-2xx status or an envelope it cannot read; both must not happen.
  expect({ status: response.status, error: (json as { error?: unknown }).error }).toMatchObject({ error: null });
  expect(response.ok).toBe(true);
  const envelope = upstreamEnvelope.parse(json);
  expect(envelope.ok).toBe(true);
  return envelope.data;
}

/**
 * Upstream's `rpc('tools/call', ...)`: a bare JSON-RPC POST to /api/mcp (no initialize, no Accept header, the body
 * read as JSON), the constructor's tenantId added as `tenant_id`; `structuredContent` read as the envelope.
 */
async function tool(name: string, args: Record<string, unknown>) {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    method: 'tools/call',
    id: crypto.randomUUID(),
    params: { name, arguments: { ...args, tenant_id: 'compat-mcp' } },
  });
  const response = await server.app.request('http://memory.test/api/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_KEY}` },
    body,
  });
  expect(response.ok).toBe(true);
  const json = (await response.json()) as { result?: unknown; error?: unknown };
  expect(json.error).toBeUndefined();
  const result = upstreamToolResult.parse(json.result);
  const envelope = upstreamEnvelope.parse(result.structuredContent);
  expect({ tool: name, error: envelope.error }).toEqual({ tool: name, error: null });
  return envelope.data;
}

/** `data` read as upstream reads it: no issue at all (a failed parse is an empty answer, or a throw, upstream). */
function readAs<Schema extends z.ZodType>(schema: Schema, data: unknown): z.output<Schema> {
  const parsed = schema.safeParse(data);
  expect(parsed.error?.issues ?? []).toEqual([]);
  return parsed.data as z.output<Schema>;
}

/** The context schemas of every upstream version: each must read the bundle. */
const contextVersions = [upstreamContext.legacy, upstreamContext.widened, upstreamContext.semanticNames];

describe('the memories.sh client over sdk_http', () => {
  const scope = { tenantId: 'compat-http', userId: 'ada' };
  const ids: string[] = [];

  it('memories.add (every field it sends), then list and search read the records', async () => {
    for (const [content, type, layer] of [
      ['Deploys go through staging first', 'rule', 'rule'],
      ['Payments retry three times with backoff', 'fact', 'long_term'],
      ['Drafting the payment retry runbook', 'note', 'working'],
      ['We chose libSQL for tenant databases', 'decision', undefined],
    ] as const) {
      const data = await sdk('POST', '/memories/add', {
        body: {
          content,
          type,
          layer,
          tags: ['payments'],
          paths: ['src/payments'],
          category: 'engineering',
          metadata: { source: 'compat' },
          embeddingModel: TEST_EMBEDDING_MODEL,
          // Stored in a project; the client's edit, forget and bulk forget below send no projectId (their scope
          // carries only tenant and user) and still reach these memories: projectId narrows, it does not guard.
          scope: { ...scope, projectId: 'github.com/acme/platform' },
        },
      });
      expect(readAs(upstreamMutation, data).message).toEqual(expect.any(String));
      ids.push((data as { id: string }).id);
    }
    await server.indexed();
    const listed = readAs(
      upstreamMemoryList,
      await sdk('POST', '/memories/list', {
        body: {
          type: 'fact',
          layer: 'long_term',
          tags: 'payments',
          limit: 10,
          scope: { ...scope, projectId: 'github.com/acme/platform' },
        },
      }),
    );
    expect(listed.memories.map((memory) => memory.content)).toEqual(['Payments retry three times with backoff']);
    for (const strategy of ['lexical', 'semantic', 'hybrid'] as const) {
      const found = readAs(
        upstreamMemoryList,
        await sdk('POST', '/memories/search', {
          body: {
            query: 'payment retries',
            strategy,
            limit: 5,
            scope: { ...scope, projectId: 'github.com/acme/platform' },
          },
        }),
      );
      expect(found.memories.length, strategy).toBeGreaterThan(0);
    }
  });

  it.each(['lexical', 'semantic', 'hybrid'] as const)(
    'context.get with strategy %s: every upstream version reads rules, memories and the trace',
    async (strategy) => {
      const data = await sdk('POST', '/context/get', {
        body: {
          query: 'payment retries',
          limit: 5,
          includeRules: true,
          includeSkillFiles: true,
          mode: 'all',
          strategy,
          graphDepth: 1,
          graphLimit: 8,
          scope: { ...scope, projectId: 'github.com/acme/platform' },
        },
      });
      for (const schema of contextVersions) {
        const bundle = readAs(schema, data);
        expect(bundle.rules.map((rule) => rule.content)).toEqual(['Deploys go through staging first']);
        expect(bundle.memories.length + bundle.workingMemories.length).toBeGreaterThan(0);
      }
      const { trace } = readAs(upstreamContext.semanticNames, data);
      expect(trace?.semanticStrategyRequested).toBe(strategy === 'lexical' ? 'lexical' : 'hybrid');
      expect(trace?.semanticStrategyApplied).toEqual(expect.stringMatching(/^(lexical|hybrid)$/));
    },
  );

  it.each(['working', 'long_term', 'rules_only'] as const)('context.get in mode %s', async (mode) => {
    const data = await sdk('POST', '/context/get', {
      body: { query: 'payments', mode, strategy: 'lexical', graphDepth: 1, graphLimit: 8, scope },
    });
    readAs(upstreamContext.semanticNames, data);
  });

  it('memories.edit and memories.forget answer a message', async () => {
    const edited = await sdk('POST', '/memories/edit', {
      body: {
        id: ids[1],
        content: 'Payments retry four times with backoff',
        type: 'fact',
        layer: 'long_term',
        tags: ['payments', 'retries'],
        paths: ['src/payments'],
        category: 'engineering',
        metadata: { source: 'compat', edited: true },
        embeddingModel: TEST_EMBEDDING_MODEL,
        scope,
      },
    });
    expect(readAs(upstreamMutation, edited).message).toEqual(expect.any(String));
    const forgotten = await sdk('POST', '/memories/forget', { body: { id: ids[3], scope } });
    expect(readAs(upstreamMutation, forgotten).message).toEqual(expect.any(String));
  });

  it('memories.bulkForget: filters (dry run, then for real), and all inside filters', async () => {
    const preview = readAs(
      upstreamBulkForget,
      await sdk('POST', '/memories/bulk-forget', {
        body: { filters: { types: ['note'], tags: ['payments'], olderThanDays: undefined }, dryRun: true, scope },
      }),
    );
    expect(preview.memories?.map((memory) => memory.type)).toEqual(['note']);
    const done = readAs(
      upstreamBulkForget,
      await sdk('POST', '/memories/bulk-forget', { body: { filters: { pattern: 'Drafting*' }, dryRun: false, scope } }),
    );
    expect(done.count).toBe(1);
    const all = readAs(
      upstreamBulkForget,
      await sdk('POST', '/memories/bulk-forget', { body: { filters: { all: true }, dryRun: true, scope } }),
    );
    expect(all.count).toBe(2);
  });

  it('memories.vacuum purges what was forgotten', async () => {
    const vacuumed = readAs(upstreamVacuum, await sdk('POST', '/memories/vacuum', { body: { scope } }));
    expect(vacuumed.purged).toBe(2);
  });

  it('skills: upsertFile (with procedureKey), listFiles, deleteFile', async () => {
    const upserted = await sdk('POST', '/skills/files/upsert', {
      body: { path: 'deploy/staging.md', content: '# Staging\n1. Deploy.', procedureKey: 'deploy-staging', scope },
    });
    expect(readAs(upstreamMutation, upserted).message).toEqual(expect.any(String));
    const listed = readAs(
      upstreamSkillFileList,
      await sdk('POST', '/skills/files/list', { body: { limit: 10, scope } }),
    );
    expect(listed.skillFiles).toMatchObject([
      { path: 'deploy/staging.md', scope: 'global', procedureKey: 'deploy-staging', usageCount: 0 },
    ]);
    const deleted = await sdk('POST', '/skills/files/delete', { body: { path: 'deploy/staging.md', scope } });
    expect(readAs(upstreamMutation, deleted).message).toEqual(expect.any(String));
  });

  it('management.tenants: upsert (provision, and attach with tursoDbUrl), list, disable', async () => {
    const provisioned = readAs(
      upstreamTenants.upsert,
      await sdk('POST', '/management/tenant-overrides', {
        body: { tenantId: 'compat-provisioned', mode: 'provision', metadata: { environment: 'test' } },
      }),
    );
    expect(provisioned).toMatchObject({
      provisioned: true,
      mode: 'provision',
      tenantDatabase: { tenantId: 'compat-provisioned' },
    });
    const attached = readAs(
      upstreamTenants.upsert,
      await sdk('POST', '/management/tenant-overrides', {
        body: { tenantId: 'compat-attached', mode: 'attach', tursoDbUrl: sqld.url, tursoDbName: 'compat-sqld' },
      }),
    );
    expect(attached).toMatchObject({
      provisioned: false,
      mode: 'attach',
      tenantDatabase: { tursoDbUrl: sqld.url, tursoDbName: 'compat-sqld', status: 'ready' },
    });
    const listed = readAs(upstreamTenants.list, await sdk('GET', '/management/tenant-overrides'));
    expect(listed.tenantDatabases.map((tenant) => tenant.tenantId)).toEqual(
      expect.arrayContaining(['compat-provisioned', 'compat-attached']),
    );
    expect(listed.count).toBe(listed.tenantDatabases.length);
    const disabled = readAs(
      upstreamTenants.disable,
      await sdk('DELETE', '/management/tenant-overrides', { query: { tenantId: 'compat-provisioned' } }),
    );
    expect(disabled).toMatchObject({ ok: true, tenantId: 'compat-provisioned', status: 'disabled' });
  });

  it('management.embeddings: list (with a requested model) and usage', async () => {
    const models = readAs(
      upstreamEmbeddingModels,
      await sdk('GET', '/embeddings/models', {
        query: { tenantId: 'compat-http', projectId: 'github.com/acme/platform', embeddingModel: TEST_EMBEDDING_MODEL },
      }),
    );
    expect(models.config).toMatchObject({ selectedModelId: TEST_EMBEDDING_MODEL, source: 'request' });
    expect(readAs(upstreamEmbeddingModels, await sdk('GET', '/embeddings/models')).config.source).toBe(
      'system_default',
    );
    const usage = readAs(
      upstreamEmbeddingUsage,
      await sdk('GET', '/management/embeddings/usage', {
        query: { usageMonth: undefined, tenantId: 'compat-http', projectId: undefined, limit: 25 },
      }),
    );
    expect(usage.summary.requestCount).toBeGreaterThan(0);
    expect(usage.summary.inputTokens).toBeGreaterThan(0);
    expect(usage.breakdown[0]).toMatchObject({ modelId: TEST_EMBEDDING_MODEL, usageMonth: usage.usageMonth });
  });
});

describe('the memories.sh client over mcp', () => {
  const ids: string[] = [];

  it('add_memory (every argument it sends), then list_memories and search_memories read the records', async () => {
    for (const [content, type, layer] of [
      ['Payments retry three times with backoff', 'fact', 'long_term'],
      ['Drafting the payment retry runbook', 'note', 'working'],
      ['We chose libSQL for tenant databases', 'decision', undefined],
    ] as const) {
      const data = await tool('add_memory', {
        content,
        type,
        layer,
        tags: ['payments'],
        paths: ['src/payments'],
        category: 'engineering',
        metadata: { source: 'compat' },
        embedding_model: TEST_EMBEDDING_MODEL,
        user_id: 'ada',
      });
      expect(readAs(upstreamMutation, data).message).toEqual(expect.any(String));
      ids.push((data as { id: string }).id);
    }
    await server.indexed();
    const listed = readAs(
      upstreamMemoryList,
      await tool('list_memories', {
        type: 'note',
        layer: 'working',
        tags: 'payments',
        limit: 11,
        project_id: 'github.com/acme/platform',
        user_id: 'ada',
      }),
    );
    expect(listed.memories.map((memory) => memory.content)).toEqual(['Drafting the payment retry runbook']);
    for (const strategy of [undefined, 'baseline', 'hybrid_graph'] as const) {
      const found = readAs(
        upstreamMemoryList,
        await tool('search_memories', {
          query: 'payment retries',
          limit: 7,
          ...(strategy === undefined ? {} : { retrieval_strategy: strategy }),
          project_id: 'github.com/acme/platform',
          user_id: 'ada',
        }),
      );
      expect(found.memories.length, String(strategy)).toBeGreaterThan(0);
    }
  });

  it.each(['baseline', 'hybrid_graph'] as const)(
    'get_context with retrieval_strategy %s and the session hints: every upstream version reads it',
    async (strategy) => {
      const data = await tool('get_context', {
        query: 'payment retries',
        limit: 5,
        project_id: 'github.com/acme/platform',
        user_id: 'ada',
        retrieval_strategy: strategy,
        graph_depth: 1,
        graph_limit: 8,
        mode: 'all',
        // Client-side lifecycle hints: accepted and ignored.
        session_id: 'session-1',
        budget_tokens: 4000,
        turn_count: 3,
        turn_budget: 20,
        last_activity_at: '2026-02-11T00:00:00.000Z',
        inactivity_threshold_minutes: 30,
        task_completed: false,
        include_session_summary: true,
      });
      for (const schema of contextVersions) {
        const bundle = readAs(schema, data);
        expect(bundle.memories.length + bundle.workingMemories.length).toBeGreaterThan(0);
      }
    },
  );

  it('edit_memory and forget_memory answer a message', async () => {
    const edited = await tool('edit_memory', {
      id: ids[0],
      content: 'Payments retry four times with backoff',
      type: 'fact',
      layer: 'long_term',
      tags: ['payments'],
      paths: ['src/payments'],
      category: 'engineering',
      metadata: { edited: true },
      embedding_model: TEST_EMBEDDING_MODEL,
      user_id: 'ada',
    });
    expect(readAs(upstreamMutation, edited).message).toEqual(expect.any(String));
    expect(readAs(upstreamMutation, await tool('forget_memory', { id: ids[2], user_id: 'ada' })).message).toEqual(
      expect.any(String),
    );
  });

  it('bulk_forget_memories with the filters at the top level, and all', async () => {
    const preview = readAs(
      upstreamBulkForget,
      await tool('bulk_forget_memories', { types: ['note'], tags: ['payments'], dry_run: true, user_id: 'ada' }),
    );
    expect(preview.memories?.map((memory) => memory.type)).toEqual(['note']);
    const done = readAs(
      upstreamBulkForget,
      await tool('bulk_forget_memories', {
        pattern: 'Drafting*',
        older_than_days: undefined,
        dry_run: false,
        user_id: 'ada',
      }),
    );
    expect(done.count).toBe(1);
    const all = readAs(
      upstreamBulkForget,
      await tool('bulk_forget_memories', { all: true, dry_run: true, user_id: 'ada' }),
    );
    expect(all.count).toBe(1);
  });

  it('vacuum_memories', async () => {
    expect(readAs(upstreamVacuum, await tool('vacuum_memories', { user_id: 'ada' })).purged).toBe(2);
  });
});

describe('the memories.sh client: management.keys (last: revoke takes every key)', () => {
  it('management.keys: get, create, revoke', async () => {
    const status = readAs(upstreamKeys.status, await sdk('GET', '/management/keys'));
    expect(status).toMatchObject({ hasKey: true, keyPreview: expect.any(String), isExpired: false });
    const created = readAs(
      upstreamKeys.create,
      await sdk('POST', '/management/keys', {
        body: { expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString() },
      }),
    );
    expect(created.apiKey).toMatch(/^mem_/);
    expect(created).toMatchObject({ keyPreview: expect.any(String), expiresAt: expect.any(String) });
    // Revokes every key of the owner (the test key too, perhaps): the last call of this file.
    expect(readAs(upstreamKeys.revoke, await sdk('DELETE', '/management/keys')).ok).toBe(true);
  });
});
