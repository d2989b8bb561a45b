import { ContextGetDataSchema } from '@memory-service/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/store/database.js';
import { setRolloutMode, workspaceDatabase } from './graph-test-helpers.js';
import { createTestServer, type TestServer } from './harness.js';

type Retrieved = {
  id: string;
  content: string;
  source: string;
  score: number;
  graph?: Record<string, unknown>;
};
type Bundle = {
  memories: Retrieved[];
  longTermMemories: Retrieved[];
  workingMemories: Retrieved[];
  conflicts: Array<Record<string, unknown>>;
  trace: Record<string, unknown>;
};

let server: TestServer;
let database: Database;
const ids: Record<string, string> = {};

// Each memory is indexed (vector, graph edges) before the next is written, as the expectations below assume.
const add = async (name: string, body: Record<string, unknown>) => {
  ids[name] = (await server.post<{ id: string }>('/memories/add', body)).id;
  await server.indexed();
};
const context = (body: Record<string, unknown>) => server.post<Bundle>('/context/get', body);
const contents = (memories: Retrieved[]) => memories.map((memory) => memory.content);

beforeAll(async () => {
  server = await createTestServer();
  database = await workspaceDatabase(server);
  await add('seed', { content: 'Payments use Stripe with idempotency keys', tags: ['payments'] });
  await add('topic', { content: 'Refunds are settled through the ledger', tags: ['payments', 'ledger'] });
  await add('edge', { content: 'Checkout retries reuse the same key', metadata: { dependsOn: ids.seed } });
  await add('hop2', { content: 'Ledger exports run at midnight', tags: ['ledger'] });
  await add('working', { content: 'Currently reconciling payouts', tags: ['payments'], layer: 'working' });
  await add('deleted', { content: 'Old chargeback notes', tags: ['payments'] });
  await add('private', { content: 'Erin prefers PayPal', tags: ['payments'], scope: { userId: 'erin' } });
  await add('unrelated', { content: 'The office plant needs water on Mondays' });
  // Notes: marked as conflicting, not superseded at write time (as decisions would be).
  await add('staging', { content: 'Deploy target is staging', type: 'note' });
  await add('production', { content: 'Deploy target is production', type: 'note' });
  await add('superseded', { content: 'Card vault notes from 2019', tags: ['payments'] });
  await server.post('/memories/forget', { id: ids.deleted });
  await database.run('UPDATE memories SET superseded_by = ? WHERE id = ?', [ids.topic ?? '', ids.superseded ?? '']);
});
afterAll(async () => {
  await server.close();
});

describe('graph expansion in context/get', () => {
  it('changes nothing in rollout mode off, even for an explicit hybrid request', async () => {
    const bundle = await context({ query: 'idempotency', strategy: 'hybrid', graphDepth: 2 });
    expect(contents(bundle.memories)).toEqual(['Payments use Stripe with idempotency keys']);
    expect(bundle.trace).toMatchObject({
      rolloutMode: 'off',
      shadowExecuted: false,
      graphCandidates: 0,
      graphExpandedCount: 0,
    });
  });

  it('reports conflicts between returned memories whatever the rollout', async () => {
    const bundle = await context({ query: 'deploy target' });
    expect(bundle.conflicts).toEqual([
      {
        memoryAId: ids.staging,
        memoryBId: ids.production,
        edgeType: 'contradicts',
        confidence: 0.75,
        explanation: expect.stringMatching(
          new RegExp(
            `^Memories ${ids.staging} and ${ids.production} conflict: they state the same subject \\("deploy target is"\\) differently; ${ids.production} is the newer one \\(\\d{4}-\\d{2}-\\d{2} against \\d{4}-\\d{2}-\\d{2}\\)\\.$`,
          ),
        ),
        suggestion: `Treat ${ids.production} as current unless the user says otherwise; ask the user if it matters, then edit or forget the wrong one (memories/consolidate supersedes ${ids.staging} when it states the same claim).`,
      },
    ]);
    expect(bundle.trace.conflictCount).toBe(1);
  });

  it('in shadow runs expansion beside the baseline without changing the answer, and records it', async () => {
    await setRolloutMode(server, database, 'shadow');
    await database.logs.flush();
    const before = await database.get<{ total: number }>('SELECT COUNT(*) AS total FROM retrieval_metrics');
    const bundle = await context({ query: 'idempotency', strategy: 'hybrid' });
    expect(contents(bundle.memories)).toEqual(['Payments use Stripe with idempotency keys']);
    expect(bundle.trace).toMatchObject({
      rolloutMode: 'shadow',
      shadowExecuted: true,
      baselineCandidates: 1,
      graphCandidates: 3,
      graphExpandedCount: 0,
      totalCandidates: 1,
    });
    await database.logs.flush();
    const rows = await database.all<Record<string, unknown>>(
      'SELECT * FROM retrieval_metrics ORDER BY id DESC LIMIT 1',
    );
    expect(Number(before?.total) + 1).toBe(
      Number((await database.get<{ total: number }>('SELECT COUNT(*) AS total FROM retrieval_metrics'))?.total),
    );
    expect(rows[0]).toMatchObject({
      rollout_mode: 'shadow',
      strategy_selected: 'hybrid',
      hybrid_executed: 1,
      graph_executed: 1,
      graph_applied: 0,
      graph_candidates: 3,
      graph_expanded: 0,
      graph_error: 0,
    });
  });

  it('in canary applies expansion to hybrid calls with the explainability object', async () => {
    await setRolloutMode(server, database, 'canary');
    const bundle = await context({ query: 'idempotency', strategy: 'hybrid_graph' });
    expect(ContextGetDataSchema.safeParse(bundle).success).toBe(true);
    expect(contents(bundle.memories)).toEqual([
      'Payments use Stripe with idempotency keys',
      'Checkout retries reuse the same key',
      'Currently reconciling payouts',
      'Refunds are settled through the ledger',
    ]);
    // Equal scores rank the newer memory first.
    const [, edge, working, topic] = bundle.memories;
    expect(edge).toMatchObject({
      source: 'graph_expansion',
      score: 0.85,
      graph: {
        whyIncluded: 'graph_expansion',
        linkedViaNode: ids.seed,
        edgeType: 'depends_on',
        hopCount: 1,
        confidence: 1,
        seedMemoryId: ids.seed,
      },
    });
    expect(topic).toMatchObject({
      source: 'graph_expansion',
      score: 0.75,
      graph: { linkedViaNode: 'payments', edgeType: 'has_topic', hopCount: 1, confidence: 1, seedMemoryId: ids.seed },
    });
    expect(working?.id).toBe(ids.working);
    expect(bundle.workingMemories.map((memory) => memory.id)).toEqual([ids.working]);
    expect(bundle.longTermMemories.map((memory) => memory.id)).toEqual([ids.seed, ids.edge, ids.topic]);
    expect(bundle.trace).toMatchObject({
      rolloutMode: 'canary',
      shadowExecuted: false,
      baselineCandidates: 1,
      graphCandidates: 3,
      graphExpandedCount: 3,
      totalCandidates: 4,
    });
  });

  it('reaches two hops with graphDepth 2 and honours graphLimit and mode', async () => {
    const deep = await context({ query: 'idempotency', strategy: 'hybrid', graphDepth: 2 });
    const hop2 = deep.memories.find((memory) => memory.id === ids.hop2);
    expect(hop2).toMatchObject({
      score: 0.375,
      graph: { linkedViaNode: 'ledger', edgeType: 'has_topic', hopCount: 2, confidence: 1, seedMemoryId: ids.seed },
    });
    const limited = await context({ query: 'idempotency', strategy: 'hybrid', graphDepth: 2, graphLimit: 1 });
    expect(limited.memories.map((memory) => memory.id)).toEqual([ids.seed, ids.edge]);
    // The second hop continues from the best graphLimit first-hop candidates only (here the edge memory, a leaf).
    expect(limited.trace.graphCandidates).toBe(3);
    const longTerm = await context({ query: 'idempotency', strategy: 'hybrid', mode: 'long_term' });
    expect(longTerm.memories.map((memory) => memory.id)).not.toContain(ids.working);
  });

  it('never expands into deleted, superseded or invisible memories', async () => {
    const bundle = await context({ query: 'idempotency', strategy: 'hybrid', graphDepth: 2, graphLimit: 50 });
    const returned = bundle.memories.map((memory) => memory.id);
    expect(returned).not.toContain(ids.deleted);
    expect(returned).not.toContain(ids.superseded);
    expect(returned).not.toContain(ids.private);
    expect(returned).not.toContain(ids.unrelated);
    const erin = await context({ query: 'idempotency', strategy: 'hybrid', scope: { userId: 'erin' } });
    expect(erin.memories.map((memory) => memory.id)).toContain(ids.private);
  });

  it('surfaces a contradicting memory through its edge, and the conflict with it', async () => {
    const bundle = await context({ query: 'staging', strategy: 'hybrid' });
    // The newer of a conflicting pair is served above the older, even when the older was the seed.
    expect(bundle.memories.map((memory) => memory.id)).toEqual([ids.production, ids.staging]);
    expect(bundle.memories[0]?.graph).toMatchObject({
      edgeType: 'contradicts',
      linkedViaNode: ids.staging,
      confidence: 0.75,
    });
    expect(bundle.conflicts).toHaveLength(1);
  });

  it('runs in shadow for lexical calls under a canary (a shadow hybrid run is a hybrid sample)', async () => {
    // Named: with its memories indexed, this tenant's policy default is hybrid (the readiness autopilot).
    const bundle = await context({ query: 'idempotency', strategy: 'lexical' });
    expect(bundle.memories.map((memory) => memory.id)).toEqual([ids.seed]);
    expect(bundle.trace).toMatchObject({
      retrievalPolicySelection: 'request',
      shadowExecuted: true,
      graphCandidates: 3,
    });
    await database.logs.flush();
    const row = await database.get<Record<string, unknown>>('SELECT * FROM retrieval_metrics ORDER BY id DESC LIMIT 1');
    expect(row).toMatchObject({
      strategy_selected: 'lexical',
      hybrid_executed: 1,
      semantic_fallback: 0,
      graph_applied: 0,
    });
    const noGraph = await context({ query: 'idempotency', strategy: 'hybrid', graphDepth: 0 });
    expect(noGraph.trace).toMatchObject({ shadowExecuted: false, graphCandidates: 0 });
  });

  it('answers with the baseline when expansion fails and records the graph error', async () => {
    const other = await createTestServer();
    const otherDatabase = await workspaceDatabase(other);
    await other.post('/memories/add', { content: 'Payments use Stripe with idempotency keys', tags: ['payments'] });
    // Indexed first: the graph sync of the add must not be the one that meets the dropped table.
    await other.indexed();
    await setRolloutMode(other, otherDatabase, 'canary');
    await otherDatabase.run('DROP TABLE graph_nodes');
    const bundle = await other.post<Bundle>('/context/get', { query: 'idempotency', strategy: 'hybrid' });
    expect(bundle.memories).toHaveLength(1);
    expect(bundle.trace).toMatchObject({ graphCandidates: 0, graphExpandedCount: 0 });
    await otherDatabase.logs.flush();
    expect(await otherDatabase.get('SELECT graph_error FROM retrieval_metrics ORDER BY id DESC LIMIT 1')).toEqual({
      graph_error: 1,
    });
    expect(await otherDatabase.all('SELECT code FROM graph_errors')).toEqual([{ code: 'GRAPH_EXPANSION_FAILED' }]);
    await other.close();
  });
});
