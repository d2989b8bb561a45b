import { GraphStatusDataSchema } from '@memory-service/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/store/database.js';
import { workspaceDatabase } from './graph-test-helpers.js';
import { createTestServer, type TestServer } from './harness.js';

let server: TestServer;
let database: Database;
const ids: Record<string, string> = {};
// Each memory is indexed (vector, graph edges) before the next is written, as the expectations below assume.
const add = async (name: string, body: Record<string, unknown>) => {
  ids[name] = (await server.post<{ id: string }>('/memories/add', body)).id;
  await server.indexed();
};

beforeAll(async () => {
  server = await createTestServer();
  database = await workspaceDatabase(server);
  await add('stripe', { content: 'Payments use Stripe with idempotency keys', tags: ['payments'] });
  await add('refunds', {
    content: 'Refunds go through Stripe too',
    tags: ['payments', 'refunds'],
    metadata: { dependsOn: 'x' },
  });
  await add('retry', { content: 'Checkout retries reuse the key', metadata: { dependsOn: '' } });
  await add('private', { content: 'Quinn tracks Stripe disputes', tags: ['payments'], scope: { userId: 'quinn' } });
  await add('gone', { content: 'Obsolete Stripe note', tags: ['payments'] });
  await server.post('/memories/forget', { id: ids.gone });
  await server.post('/memories/edit', { id: ids.retry, metadata: { dependsOn: ids.stripe } });
  await server.indexed();
});
afterAll(async () => {
  await server.close();
});

describe('graph/status', () => {
  it('counts the graph of the memories the scope can see', async () => {
    const status = (await server.call('GET', '/graph/status')).body.data;
    expect(GraphStatusDataSchema.safeParse(status).success).toBe(true);
    expect(status).toMatchObject({
      enabled: false,
      health: 'ok',
      counts: {
        memories: 3,
        nodes: 6,
        edges: 6,
        memoryLinks: 5,
        nodesByType: { memory: 3, topic: 2, entity: 1 },
        edgesByType: { has_topic: 3, mentions: 2, depends_on: 1 },
      },
      rollout: { mode: 'off', updatedAt: null, updatedBy: null },
      // Ties by degree are ordered by node id.
      topConnectedNodes: [
        { id: 'entity:stripe', type: 'entity', label: 'Stripe', degree: 2 },
        { id: 'topic:payments', type: 'topic', label: 'payments', degree: 2 },
        { id: 'topic:refunds', type: 'topic', label: 'refunds', degree: 1 },
      ],
      recentErrors: [],
      alarms: [],
      scope: { tenantId: null, userId: null, projectId: null },
    });
    expect(Object.values(status?.tables ?? {}).every(Boolean)).toBe(true);
    expect(status?.flags).toMatchObject({ MEMORY_CONSOLIDATION_ENABLED: true, MEMORY_GRAPH_AUTOPILOT: true });
  });

  it('includes a user’s own memories for that user and honours topNodesLimit (GET and POST alike)', async () => {
    const get = (await server.call('GET', '/graph/status?userId=quinn&topNodesLimit=1')).body.data;
    const post = await server.post<Record<string, unknown>>('/graph/status', {
      topNodesLimit: 1,
      scope: { userId: 'quinn' },
    });
    expect(get?.counts).toMatchObject({ memories: 4, nodesByType: { memory: 4, topic: 2, entity: 1, user: 1 } });
    expect(get?.topConnectedNodes).toEqual([{ id: 'entity:stripe', type: 'entity', label: 'Stripe', degree: 3 }]);
    expect({ ...post, sampledAt: null, qualityGate: null }).toEqual({ ...get, sampledAt: null, qualityGate: null });
    expect((await server.call('GET', '/graph/status?topNodesLimit=0')).body.error?.code).toBe('INVALID_REQUEST');
  });

  it('reports rollout, shadow metrics, gate, alarms and recent errors', async () => {
    await server.post('/graph/rollout', { mode: 'shadow' });
    await server.post('/context/get', { query: 'stripe', strategy: 'hybrid' });
    await database.run(
      "INSERT INTO graph_errors (code, message, memory_id, created_at) VALUES ('GRAPH_RELATIONSHIP_SYNC_FAILED', 'Graph extraction could not be written', NULL, ?)",
      [new Date().toISOString()],
    );
    const status = (await server.call('GET', '/graph/status')).body.data;
    expect(status).toMatchObject({
      enabled: true,
      rollout: { mode: 'shadow' },
      shadowMetrics: { totalRequests: 1, hybridSamples: 1, shadowExecutions: 1, fallbackRate: 0, expansionCoverage: 1 },
      qualityGate: { status: 'insufficient_data', passed: false },
      recentErrors: [{ code: 'GRAPH_RELATIONSHIP_SYNC_FAILED', message: 'Graph extraction could not be written' }],
    });
    // Hybrid is served by the vector index (no fallback), so the only alarm is the recorded graph failure.
    expect(status?.alarms).toEqual([
      {
        code: 'GRAPH_RECENT_ERRORS',
        severity: 'warning',
        message: 'Graph failures were recorded in the last 24 hours',
        value: 1,
        threshold: 0,
      },
    ]);
  });
});
