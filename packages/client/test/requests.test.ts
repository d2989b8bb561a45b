import { API_PREFIX, type OperationId, operations } from '@memory-service/contract';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryClient } from '../src/index.js';
import { API_KEY, API_URL, createTestClient, successEnvelope } from './helpers.js';

interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  authorization: string | null;
  contentType: string | null;
}

const recorded: RecordedRequest[] = [];
const server = setupServer(
  http.all(`${API_URL}/*`, async ({ request }) => {
    const url = new URL(request.url);
    const text = await request.text();
    recorded.push({
      method: request.method,
      path: url.pathname.slice(API_PREFIX.length),
      query: Object.fromEntries(url.searchParams),
      body: text === '' ? undefined : JSON.parse(text),
      authorization: request.headers.get('authorization'),
      contentType: request.headers.get('content-type'),
    });
    return HttpResponse.json(successEnvelope({ echoed: true }));
  }),
);

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  server.resetHandlers();
  recorded.length = 0;
});
afterAll(() => server.close());

const scope = { tenantId: 'acme', userId: 'u1' };
const keyId = '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e';
const scenario = { id: 'case-1', extraction: { expected: ['a'], observed: ['a'] } };

interface Case {
  name: string;
  operationId: OperationId;
  call: (client: MemoryClient) => Promise<unknown>;
  path?: string;
  body?: unknown;
  query?: Record<string, string>;
}

const cases: Case[] = [
  { name: 'health()', operationId: 'health', call: (c) => c.health(), query: {} },
  {
    name: 'context.get() strips the lifecycle hints',
    operationId: 'context.get',
    call: (c) => c.context.get({ query: 'deploy', limit: 3, sessionId: 's1', budgetTokens: 100, taskCompleted: true }),
    body: { query: 'deploy', limit: 3, scope },
  },
  {
    name: 'memories.add() merges the call scope over the default',
    operationId: 'memories.add',
    call: (c) => c.memories.add({ content: 'Deploy on Tuesdays', type: 'rule', scope: { projectId: 'repo' } }),
    body: { content: 'Deploy on Tuesdays', type: 'rule', scope: { ...scope, projectId: 'repo' } },
  },
  {
    name: 'memories.search()',
    operationId: 'memories.search',
    call: (c) => c.memories.search({ query: 'deploy', strategy: 'hybrid', scope: { userId: 'u2' } }),
    body: { query: 'deploy', strategy: 'hybrid', scope: { tenantId: 'acme', userId: 'u2' } },
  },
  {
    name: 'memories.list()',
    operationId: 'memories.list',
    call: (c) => c.memories.list({ tags: 'a,b', limit: 10 }),
    body: { tags: 'a,b', limit: 10, scope },
  },
  {
    name: 'memories.list() sends a cursor in the body',
    operationId: 'memories.list',
    call: (c) => c.memories.list({ limit: 10, cursor: 'abc_-' }),
    body: { limit: 10, cursor: 'abc_-', scope },
  },
  {
    name: 'memories.get() fills and encodes the path parameter, the scope in the query string',
    operationId: 'memories.get',
    call: (c) => c.memories.get('m 1/x', { projectId: 'repo' }),
    path: '/memories/m%201%2Fx',
    query: { ...scope, projectId: 'repo' },
  },
  {
    name: 'memories.history() sends limit and cursor in the query string',
    operationId: 'memories.history',
    call: (c) => c.memories.history('m1', { limit: 5, cursor: 'abc' }),
    path: '/memories/m1/history',
    query: { limit: '5', cursor: 'abc', ...scope },
  },
  {
    name: 'memories.edit()',
    operationId: 'memories.edit',
    call: (c) => c.memories.edit({ id: 'm1', content: 'changed' }),
    body: { id: 'm1', content: 'changed', scope },
  },
  {
    name: 'memories.forget()',
    operationId: 'memories.forget',
    call: (c) => c.memories.forget({ id: 'm1' }),
    body: { id: 'm1', scope },
  },
  {
    name: 'memories.bulkForget()',
    operationId: 'memories.bulkForget',
    call: (c) => c.memories.bulkForget({ filters: { tags: ['old'] }, dryRun: true }),
    body: { filters: { tags: ['old'] }, dryRun: true, scope },
  },
  { name: 'memories.vacuum()', operationId: 'memories.vacuum', call: (c) => c.memories.vacuum(), body: { scope } },
  {
    name: 'memories.restore()',
    operationId: 'memories.restore',
    call: (c) => c.memories.restore({ id: 'm1' }),
    body: { id: 'm1', scope },
  },
  {
    name: 'memories.consolidate()',
    operationId: 'memories.consolidate',
    call: (c) => c.memories.consolidate({ dryRun: true, types: ['fact'] }),
    body: { dryRun: true, types: ['fact'], scope },
  },
  {
    name: 'skills.upsert()',
    operationId: 'skills.upsert',
    call: (c) => c.skills.upsert({ path: 'deploy.md', content: '# Deploy' }),
    body: { path: 'deploy.md', content: '# Deploy', scope },
  },
  {
    name: 'skills.list()',
    operationId: 'skills.list',
    call: (c) => c.skills.list({ limit: 5 }),
    body: { limit: 5, scope },
  },
  {
    name: 'skills.delete()',
    operationId: 'skills.delete',
    call: (c) => c.skills.delete({ path: 'deploy.md' }),
    body: { path: 'deploy.md', scope },
  },
  {
    name: 'skills.promote()',
    operationId: 'skills.promote',
    call: (c) => c.skills.promote({ sessionId: 's1', path: 'deploy.md', maxSteps: 5 }),
    body: { sessionId: 's1', path: 'deploy.md', maxSteps: 5, scope },
  },
  {
    name: 'sessions.start()',
    operationId: 'sessions.start',
    call: (c) => c.sessions.start({ title: 'Fix the build' }),
    body: { title: 'Fix the build', scope },
  },
  {
    name: 'sessions.checkpoint()',
    operationId: 'sessions.checkpoint',
    call: (c) => c.sessions.checkpoint({ sessionId: 's1', content: 'Tried X', kind: 'note' }),
    body: { sessionId: 's1', content: 'Tried X', kind: 'note', scope },
  },
  {
    name: 'sessions.end()',
    operationId: 'sessions.end',
    call: (c) => c.sessions.end({ sessionId: 's1', status: 'compacted' }),
    body: { sessionId: 's1', status: 'compacted', scope },
  },
  {
    name: 'sessions.snapshot() fills and encodes the path parameter',
    operationId: 'sessions.snapshot',
    call: (c) => c.sessions.snapshot('s 1/x', { projectId: 'repo' }),
    path: '/sessions/s%201%2Fx/snapshot',
    query: { ...scope, projectId: 'repo' },
  },
  {
    name: 'sessions.list() sends its filters and the scope in the query string',
    operationId: 'sessions.list',
    call: (c) => c.sessions.list({ status: 'active', limit: 5 }),
    path: '/sessions',
    query: { status: 'active', limit: '5', ...scope },
  },
  {
    name: 'sessions.events() fills and encodes the path parameter',
    operationId: 'sessions.events',
    call: (c) => c.sessions.events({ sessionId: 's 1/x', limit: 3 }),
    path: '/sessions/s%201%2Fx/events',
    query: { limit: '3', ...scope },
  },
  {
    name: 'embeddings.models() sends only the scope fields the route takes',
    operationId: 'embeddings.models',
    call: (c) => c.embeddings.models({ embeddingModel: 'local/hash-384' }),
    query: { embeddingModel: 'local/hash-384', tenantId: 'acme' },
  },
  {
    name: 'graph.status() without a scope is a GET',
    operationId: 'graph.status.get',
    call: (c) => c.graph.status({ topNodesLimit: 5 }),
    query: { topNodesLimit: '5', ...scope },
  },
  {
    name: 'graph.status() with a scope is a POST',
    operationId: 'graph.status.post',
    call: (c) => c.graph.status({ topNodesLimit: 5, scope: { projectId: 'repo' } }),
    body: { topNodesLimit: 5, scope: { ...scope, projectId: 'repo' } },
  },
  {
    name: 'graph.trace() keeps the legacy strategy the route accepts',
    operationId: 'graph.trace',
    call: (c) => c.graph.trace({ query: 'deploy', strategy: 'baseline' }),
    body: { query: 'deploy', strategy: 'baseline', scope },
  },
  {
    name: 'graph.rollout.get()',
    operationId: 'graph.rollout.get',
    call: (c) => c.graph.rollout.get(),
    query: scope,
  },
  {
    name: 'graph.rollout.set() keeps the scope fields the route takes',
    operationId: 'graph.rollout.post',
    call: (c) => c.graph.rollout.set({ mode: 'shadow' }),
    body: { mode: 'shadow', scope: { tenantId: 'acme' } },
  },
  {
    name: 'management.keys.get()',
    operationId: 'management.keys.get',
    call: (c) => c.management.keys.get(),
    query: {},
  },
  {
    name: 'management.keys.create()',
    operationId: 'management.keys.post',
    call: (c) => c.management.keys.create({ expiresAt: '2027-01-01T00:00:00Z' }),
    body: { expiresAt: '2027-01-01T00:00:00Z' },
  },
  {
    name: 'management.keys.revoke() with a key id',
    operationId: 'management.keys.delete',
    call: (c) => c.management.keys.revoke(keyId),
    query: { keyId },
  },
  {
    name: 'management.keys.revoke() without a key id',
    operationId: 'management.keys.delete',
    call: (c) => c.management.keys.revoke(),
    query: {},
  },
  {
    name: 'management.tenants.list() ignores the default tenant',
    operationId: 'management.tenants.get',
    call: (c) => c.management.tenants.list(),
    query: {},
  },
  {
    name: 'management.tenants.upsert()',
    operationId: 'management.tenants.post',
    call: (c) => c.management.tenants.upsert({ tenantId: 'beta', mode: 'provision' }),
    body: { tenantId: 'beta', mode: 'provision' },
  },
  {
    name: 'management.tenants.disable()',
    operationId: 'management.tenants.delete',
    call: (c) => c.management.tenants.disable('beta'),
    query: { tenantId: 'beta' },
  },
  {
    name: 'management.embeddings.usage()',
    operationId: 'management.embeddings.usage',
    call: (c) => c.management.embeddings.usage({ usageMonth: '2026-11-01', limit: 10 }),
    query: { usageMonth: '2026-11-01', limit: '10', tenantId: 'acme' },
  },
  {
    name: 'management.embeddings.observability()',
    operationId: 'management.embeddings.observability',
    call: (c) => c.management.embeddings.observability({ windowHours: 48 }),
    query: { windowHours: '48', ...scope },
  },
  {
    name: 'management.embeddings.backfill.get()',
    operationId: 'management.embeddings.backfill.get',
    call: (c) => c.management.embeddings.backfill.get(),
    query: scope,
  },
  {
    name: 'management.embeddings.backfill.run()',
    operationId: 'management.embeddings.backfill.post',
    call: (c) => c.management.embeddings.backfill.run({ batchSize: 50 }),
    body: { batchSize: 50, action: 'run', scope },
  },
  {
    name: 'management.embeddings.backfill.pause()',
    operationId: 'management.embeddings.backfill.post',
    call: (c) => c.management.embeddings.backfill.pause(),
    body: { action: 'pause', scope },
  },
  {
    name: 'management.embeddings.backfill.resume()',
    operationId: 'management.embeddings.backfill.post',
    call: (c) => c.management.embeddings.backfill.resume(),
    body: { action: 'resume', scope },
  },
  {
    name: 'management.users.erase() ignores the default scope',
    operationId: 'management.users.erase',
    call: (c) => c.management.users.erase({ userId: 'ada', tenantId: 'beta' }),
    body: { userId: 'ada', tenantId: 'beta' },
  },
  {
    name: 'management.memory.observability()',
    operationId: 'management.memory.observability',
    call: (c) => c.management.memory.observability({ windowHours: 72 }),
    query: { windowHours: '72', ...scope },
  },
  {
    name: 'management.memory.evalReplay() flattens the scope the route takes at the top level',
    operationId: 'management.memory.evalReplay',
    call: (c) => c.management.memory.evalReplay({ scenarios: [scenario] }),
    body: { scenarios: [scenario], ...scope },
  },
];

describe('every method sends the request its operation defines', () => {
  const client = createTestClient({ scope });

  it.each(cases)('$name', async ({ operationId, call, path, body, query }) => {
    await expect(call(client)).resolves.toMatchObject({ echoed: true });
    expect(recorded).toHaveLength(1);
    const [request] = recorded;
    const operation = operations[operationId];
    expect(request?.method).toBe(operation.method);
    expect(request?.path).toBe(path ?? operation.path);
    expect(request?.authorization).toBe(`Bearer ${API_KEY}`);
    if (operation.inputLocation === 'body') {
      expect(request?.body).toEqual(body);
      expect(request?.contentType).toMatch(/^application\/json/);
      expect(request?.query).toEqual({});
    } else {
      expect(request?.query).toEqual(query);
      expect(request?.body).toBeUndefined();
    }
  });

  it('covers every operation of the table except the PATCH twin of rollout set and the streamed ones', () => {
    const covered = new Set(cases.map((each) => each.operationId));
    const missing = Object.keys(operations).filter((id) => !covered.has(id as OperationId));
    // Export and import stream JSON lines: the CLI and plain fetch use them, the client's methods do not (README).
    const streamed = Object.values(operations)
      .filter((operation) => operation.stream !== undefined)
      .map((operation) => operation.id);
    expect(missing).toEqual(['graph.rollout.patch', ...streamed]);
  });
});

describe('credentials and headers', () => {
  it('sends the admin token on management routes when there is no API key, and no token elsewhere', async () => {
    const client = createTestClient({ apiKey: undefined, adminToken: 'admin-secret' });
    await client.management.keys.get();
    await client.memories.list();
    expect(recorded.map((each) => each.authorization)).toEqual(['Bearer admin-secret', null]);
  });

  it('prefers an explicit admin token on management routes, and keeps the API key elsewhere', async () => {
    const client = createTestClient({ adminToken: 'admin-secret' });
    await client.management.keys.get();
    await client.memories.list();
    expect(recorded.map((each) => each.authorization)).toEqual(['Bearer admin-secret', `Bearer ${API_KEY}`]);
  });

  it("sends the admin token wherever the table's credential takes it, and the API key elsewhere", async () => {
    const client = createTestClient({ adminToken: 'admin-secret' });
    await client.management.tenants.list();
    await client.embeddings.models();
    await client.health();
    await client.memories.add({ content: 'note' });
    expect(recorded.map((each) => each.authorization)).toEqual([
      'Bearer admin-secret',
      'Bearer admin-secret',
      `Bearer ${API_KEY}`,
      `Bearer ${API_KEY}`,
    ]);
  });

  it('sends extra headers on every request', async () => {
    let seen: string | null = null;
    server.use(
      http.get(`${API_URL}/health`, ({ request }) => {
        seen = request.headers.get('x-app');
        return HttpResponse.json(successEnvelope({ status: 'ok' }));
      }),
    );
    await createTestClient({ headers: { 'x-app': 'notes' } }).health();
    expect(seen).toBe('notes');
  });

  it('accepts a base URL ending in /api/sdk/v1', async () => {
    const client = createTestClient({ baseUrl: `${API_URL}/` });
    await client.health();
    expect(recorded[0]?.path).toBe('/health');
  });
});
