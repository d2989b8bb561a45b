import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../src/store/memories.js';
import { createTestServer, TEST_EMBEDDING_MODEL, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
  await server.post('/memories/add', { content: 'Always answer in British English', type: 'rule' });
  await server.post('/memories/add', {
    content: 'Never push to main directly',
    type: 'rule',
    scope: { userId: 'carol' },
  });
  await server.post('/memories/add', {
    content: 'Currently refactoring the payment retry loop',
    layer: 'working',
    type: 'note',
  });
  await server.post('/memories/add', { content: 'Payments use Stripe with idempotency keys', type: 'fact' });
  await server.post('/memories/add', { content: 'Payment retries back off exponentially', type: 'decision' });
  await server.post('/memories/add', { content: 'The office plant needs water on Mondays', type: 'note' });
  // Vectors stored: the tenant is ready for hybrid, so the policy default of these calls is hybrid (the autopilot).
  await server.indexed();
});
afterAll(async () => {
  await server.close();
});

type Bundle = {
  mode: string;
  query: string;
  rules: Array<{ content: string; source: string }>;
  memories: Array<{ id: string; content: string; layer: string; source: string }>;
  workingMemories: Array<{ id: string }>;
  longTermMemories: Array<{ id: string }>;
  skillFiles: unknown[];
  conflicts: unknown[];
  trace: Record<string, unknown>;
};

describe('context/get', () => {
  it('returns rules, the working and long-term tiers and an honest trace', async () => {
    const bundle = await server.post<Bundle>('/context/get', { query: 'payment retries' });
    expect(bundle.mode).toBe('all');
    expect(bundle.query).toBe('payment retries');
    expect(bundle.rules.map((rule) => rule.content)).toEqual(['Always answer in British English']);
    expect(bundle.workingMemories).toHaveLength(1);
    expect(bundle.memories.map((memory) => memory.content)).toContain('Payment retries back off exponentially');
    expect(bundle.memories.map((memory) => memory.content)).not.toContain('The office plant needs water on Mondays');
    expect(bundle.memories.every((memory) => memory.layer !== 'rule')).toBe(true);
    expect(new Set(bundle.memories.map((memory) => memory.id))).toEqual(
      new Set([...bundle.workingMemories, ...bundle.longTermMemories].map((memory) => memory.id)),
    );
    expect(bundle.trace).toMatchObject({
      retrievalPolicyDefaultStrategy: 'hybrid',
      retrievalPolicyAppliedStrategy: 'hybrid',
      retrievalPolicySelection: 'policy_default',
      semanticStrategyRequested: 'hybrid',
      semanticStrategyApplied: 'hybrid',
      semanticFallbackTriggered: false,
      graphDepth: 1,
      graphLimit: 8,
      rolloutMode: 'off',
      shadowExecuted: false,
      fallbackTriggered: false,
    });
    expect(bundle.trace.baselineCandidates).toBe(bundle.trace.totalCandidates);
  });

  it('limits results, caps working slots at min(limit, 3), and honours modes', async () => {
    const one = await server.post<Bundle>('/context/get', { query: 'payment', limit: 1 });
    expect(one.memories).toHaveLength(1);
    const rulesOnly = await server.post<Bundle>('/context/get', { query: 'payment', mode: 'rules_only' });
    expect(rulesOnly.memories).toHaveLength(0);
    expect(rulesOnly.rules).toHaveLength(1);
    const working = await server.post<Bundle>('/context/get', { query: 'payment', mode: 'working' });
    expect(working.memories.every((memory) => memory.layer === 'working')).toBe(true);
    const longTerm = await server.post<Bundle>('/context/get', { query: 'payment', mode: 'long_term' });
    expect(longTerm.workingMemories).toHaveLength(0);
    const noRules = await server.post<Bundle>('/context/get', { query: 'payment', includeRules: false });
    expect(noRules.rules).toHaveLength(0);
    expect((await server.call('POST', '/context/get', { mode: 'everything' })).body.error!.details!.field).toBe('mode');
  });

  it('shows user rules only to that user', async () => {
    const carol = await server.post<Bundle>('/context/get', { query: 'x', scope: { userId: 'carol' } });
    expect(carol.rules.map((rule) => rule.content).sort()).toEqual([
      'Always answer in British English',
      'Never push to main directly',
    ]);
  });

  it('falls back to recency with the reason when nothing matches or the query is empty', async () => {
    const empty = await server.post<Bundle>('/context/get', {});
    expect(empty.memories.length).toBeGreaterThan(0);
    expect(empty.trace).toMatchObject({ fallbackTriggered: true, fallbackReason: 'empty_query_recency' });
    const nothing = await server.post<Bundle>('/context/get', { query: 'zzzzqqq' });
    expect(nothing.trace).toMatchObject({ fallbackTriggered: true, fallbackReason: 'no_match_recency_fallback' });
  });

  it('answers hybrid with the vector index of the default model, and accepts the aliases', async () => {
    await server.indexed();
    const hybrid = await server.post<Bundle>('/context/get', { query: 'payment', strategy: 'hybrid' });
    expect(hybrid.trace).toMatchObject({
      retrievalPolicySelection: 'request',
      semanticStrategyRequested: 'hybrid',
      semanticStrategyApplied: 'hybrid',
      semanticFallbackTriggered: false,
      semanticFallbackReason: null,
      retrievalPolicyAppliedStrategy: 'hybrid',
      embeddingModel: TEST_EMBEDDING_MODEL,
    });
    const baseline = await server.post<Bundle>('/context/get', { query: 'payment', strategy: 'baseline' });
    expect(baseline.trace.semanticStrategyRequested).toBe('lexical');
  });

  it('enforces the limits of limit, graphDepth and graphLimit', async () => {
    for (const [body, field] of [
      [{ limit: 51 }, 'limit'],
      [{ limit: 0 }, 'limit'],
      [{ graphDepth: 3 }, 'graphDepth'],
      [{ graphDepth: -1 }, 'graphDepth'],
      [{ graphLimit: 51 }, 'graphLimit'],
      [{ graphLimit: 0 }, 'graphLimit'],
      [{ query: 'q'.repeat(501) }, 'query'],
    ] as const) {
      expect((await server.call('POST', '/context/get', body)).body.error!.details!.field).toBe(field);
    }
    for (const body of [
      { limit: 50 },
      { limit: 1 },
      { graphDepth: 2 },
      { graphDepth: 0 },
      { graphLimit: 50 },
      { graphLimit: 1 },
      { query: 'q'.repeat(500) },
    ]) {
      expect((await server.call('POST', '/context/get', body)).status).toBe(200);
    }
  });

  it('returns skill files and counts their use', async () => {
    await server.post('/skills/files/upsert', {
      path: 'skills/payments.md',
      content: '# Payments runbook\nRetry failed payments.',
    });
    const bundle = await server.post<{ skillFiles: Array<{ path: string; useCount: number }> }>('/context/get', {
      query: 'payments',
    });
    expect(bundle.skillFiles[0]!.path).toBe('skills/payments.md');
    const again = await server.post<{ skillFiles: Array<{ path: string; useCount: number }> }>('/context/get', {
      query: 'payments',
    });
    expect(again.skillFiles[0]!.useCount).toBeGreaterThan(bundle.skillFiles[0]!.useCount);
    const without = await server.post<{ skillFiles: unknown[] }>('/context/get', {
      query: 'payments',
      includeSkillFiles: false,
    });
    expect(without.skillFiles).toHaveLength(0);
  });

  it('soft-deletes working memories past their 24 h TTL', async () => {
    const { id } = await server.post<{ id: string }>('/memories/add', {
      content: 'short-lived scratch note about herons',
      layer: 'working',
    });
    const tenant = await server.services.resolver.resolve('default', null, new Date());
    await tenant.database.run('UPDATE memories SET expires_at = ? WHERE id = ?', [
      new Date(Date.now() - 1000).toISOString(),
      id,
    ]);
    const bundle = await server.post<Bundle>('/context/get', { query: 'herons' });
    expect(bundle.memories.map((memory) => memory.id)).not.toContain(id);
    // The sweep runs at most every 30 s per database; a minute later it soft-deletes the expired memory.
    expect(await new MemoryStore(tenant.database).expireWorking(new Date(Date.now() + 60_000))).toBeGreaterThanOrEqual(
      1,
    );
    const row = await tenant.database.get<{ deleted_at: string | null }>(
      'SELECT deleted_at FROM memories WHERE id = ?',
      [id],
    );
    expect(row?.deleted_at).not.toBeNull();
  });
});
