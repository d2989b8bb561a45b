import { GraphTraceDataSchema } from '@memory-service/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/store/database.js';
import { setRolloutMode, workspaceDatabase } from './graph-test-helpers.js';
import { createTestServer, type TestServer } from './harness.js';

type Trace = {
  mode: string;
  includeRules: boolean;
  query: string;
  strategy: { requested: string | null; applied: string };
  trace: Record<string, unknown>;
  tiers: { rule: string[]; working: string[]; longTerm: string[] };
  recall: Array<{
    rank: number;
    memoryId: string;
    score: number;
    source: string;
    tier: string;
    graph?: Record<string, unknown>;
  }>;
  rules: Array<{ id: string }>;
  memories: Array<{ id: string }>;
};

let server: TestServer;
let database: Database;
const ids: Record<string, string> = {};
// Each memory is indexed (vector, graph edges) before the next is written, as the expectations below assume.
const add = async (name: string, body: Record<string, unknown>) => {
  ids[name] = (await server.post<{ id: string }>('/memories/add', body)).id;
  await server.indexed();
};
const trace = (body: Record<string, unknown>) => server.post<Trace>('/graph/trace', body);

beforeAll(async () => {
  server = await createTestServer();
  database = await workspaceDatabase(server);
  await add('rule', { content: 'Answer in British English', type: 'rule' });
  await add('seed', { content: 'Payments use Stripe with idempotency keys', tags: ['payments'] });
  await add('linked', { content: 'Refunds are settled through the ledger', tags: ['payments'] });
  await add('working', { content: 'Currently checking idempotency in checkout', layer: 'working' });
  for (let index = 0; index < 12; index += 1)
    await add(`filler${index}`, { content: `Idempotency note number ${index}` });
});
afterAll(async () => {
  await server.close();
});

describe('graph/trace', () => {
  it('explains a call with limit 10 and the policy default as a legacy name, without recording metrics', async () => {
    // The memories are indexed with the server's embedding model: the autopilot made hybrid the policy default.
    const result = await trace({ query: 'idempotency' });
    expect(result).toMatchObject({
      mode: 'all',
      includeRules: true,
      query: 'idempotency',
      strategy: { requested: null, applied: 'hybrid_graph' },
    });
    expect(result.recall).toHaveLength(10);
    expect(result.recall.map((entry) => entry.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(result.recall.every((entry) => entry.source === 'baseline' && entry.graph === undefined)).toBe(true);
    expect(result.recall.map((entry) => entry.memoryId)).toEqual(result.memories.map((memory) => memory.id));
    expect(result.tiers.rule).toEqual([ids.rule]);
    expect(result.tiers.working).toEqual([ids.working]);
    expect(result.recall.find((entry) => entry.memoryId === ids.working)?.tier).toBe('working');
    expect(result.tiers.longTerm).toHaveLength(9);
    expect(result.trace).toMatchObject({
      retrievalPolicyDefaultStrategy: 'hybrid',
      retrievalPolicySelection: 'policy_default',
      retrievalPolicyReadyForDefaultOn: false,
      rolloutMode: 'off',
    });
    expect(result.trace.retrievalPolicyBlockerCodes).toEqual([
      'HYBRID_SAMPLES_BELOW_MINIMUM',
      'SHADOW_EXECUTIONS_BELOW_MINIMUM',
      'ROLLOUT_NOT_CANARY',
      'READY_WINDOWS_BELOW_REQUIRED',
    ]);
    await database.logs.flush();
    expect(await database.get('SELECT COUNT(*) AS total FROM retrieval_metrics')).toEqual({ total: 0 });
  });

  it('answers in the vocabulary the request used', async () => {
    expect((await trace({ query: 'x', strategy: 'hybrid' })).strategy).toEqual({
      requested: 'hybrid',
      applied: 'hybrid',
    });
    expect((await trace({ query: 'x', strategy: 'lexical' })).strategy).toEqual({
      requested: 'lexical',
      applied: 'lexical',
    });
    expect((await trace({ query: 'x', strategy: 'hybrid_graph' })).strategy).toEqual({
      requested: 'hybrid_graph',
      applied: 'hybrid_graph',
    });
    expect((await trace({ query: 'x' })).strategy).toEqual({ requested: null, applied: 'hybrid_graph' });
    // An operator's lexical policy reads as the legacy baseline.
    await database.run("UPDATE retrieval_policy SET default_strategy = 'lexical', updated_by = 'cli'");
    expect((await trace({ query: 'x' })).strategy).toEqual({ requested: null, applied: 'baseline' });
    await database.run('DELETE FROM retrieval_policy');
  });

  it('marks graph-expanded recall entries with their source and explainability under a canary', async () => {
    await setRolloutMode(server, database, 'canary');
    const result = await trace({ query: 'stripe', strategy: 'hybrid_graph', limit: 1 });
    expect(GraphTraceDataSchema.safeParse(result).success).toBe(true);
    expect(result.recall).toEqual([
      { rank: 1, memoryId: ids.seed, score: expect.any(Number), source: 'baseline', tier: 'long_term' },
      {
        rank: 2,
        memoryId: ids.linked,
        score: 0.75,
        source: 'graph_expansion',
        tier: 'long_term',
        graph: {
          whyIncluded: 'graph_expansion',
          linkedViaNode: 'payments',
          edgeType: 'has_topic',
          hopCount: 1,
          confidence: 1,
          seedMemoryId: ids.seed,
        },
      },
    ]);
    expect(result.trace).toMatchObject({ rolloutMode: 'canary', graphExpandedCount: 1, shadowExecuted: false });
  });
});
