import {
  ContextGetDataSchema,
  ListMemoriesDataSchema,
  normalizeStrategy,
  recordScopeOf,
  SearchMemoriesDataSchema,
} from '@memory-service/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { createTestServer, type TestServer } from './harness.js';
import { upstreamContext, upstreamEnvelope, upstreamMemoryList, upstreamSkillFileList } from './memories-sh-schemas.js';

// Issue 18, item 9: the upstream memories.sh client reads our answers with its own schemas; a failed parse there
// silently gives empty lists, so every answer below must parse and carry what it asked for.

const project = { projectId: 'apollo' };
let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
  await server.post('/memories/add', { content: 'Always answer in British English', type: 'rule' });
  await server.post('/memories/add', { content: 'Apollo releases need two reviews', type: 'rule', scope: project });
  await server.post('/memories/add', { content: 'Payments use Stripe with idempotency keys', type: 'fact' });
  await server.post('/memories/add', {
    content: 'Apollo retries payments three times',
    type: 'decision',
    scope: project,
  });
  await server.post('/memories/add', {
    content: 'Refactoring the payment retry loop',
    layer: 'working',
    scope: project,
  });
  await server.post('/skills/files/upsert', { path: 'payments/retries.md', content: '# Payment retries\nBack off.' });
  await server.indexed();
});
afterAll(async () => {
  await server.close();
});

/** The answer's `data` as upstream reads it: the envelope first, then `schema`; a failure names its issues. */
async function readAsUpstream<Schema extends z.ZodType>(route: string, body: unknown, schema: Schema) {
  const response = await server.call('POST', route, body);
  expect(response.status).toBe(200);
  const envelope = upstreamEnvelope.parse(response.body);
  const parsed = schema.safeParse(envelope.data);
  expect(parsed.error?.issues ?? []).toEqual([]);
  return { ours: envelope.data, upstream: parsed.data as z.output<Schema> };
}

/** Every record is labelled as upstream labels it, and both labels occur. */
function expectScopes(records: ReadonlyArray<{ scope: string; projectId?: string | null }>) {
  for (const record of records) expect(record.scope).toBe(recordScopeOf(record.projectId ?? null));
  expect(new Set(records.map((record) => record.scope))).toEqual(new Set(['global', 'project']));
}

describe('the upstream memories.sh client reads our answers', () => {
  it('memories/list: parses, not empty, each record scoped global or project', async () => {
    const { ours, upstream } = await readAsUpstream('/memories/list', { scope: project }, upstreamMemoryList);
    expect(upstream.memories).toHaveLength(5);
    expectScopes(upstream.memories);
    expect(ListMemoriesDataSchema.safeParse(ours).success).toBe(true);
  });

  it('memories/search: parses, not empty, each record scoped', async () => {
    const body = { query: 'payments', scope: project };
    const { ours, upstream } = await readAsUpstream('/memories/search', body, upstreamMemoryList);
    expect(upstream.memories.length).toBeGreaterThanOrEqual(2);
    expectScopes(upstream.memories);
    expect(SearchMemoriesDataSchema.safeParse(ours).success).toBe(true);
  });

  it('skills/files/list: parses, the file scoped global', async () => {
    const { upstream } = await readAsUpstream('/skills/files/list', { scope: project }, upstreamSkillFileList);
    expect(upstream.skillFiles).toMatchObject([{ path: 'payments/retries.md', scope: 'global' }]);
  });

  it.each([
    ['lexical', 'baseline'],
    ['hybrid', 'hybrid_graph'],
  ] as const)(
    'context/get (%s): parses in both versions, rules, memories and skill files present',
    async (strategy, legacyName) => {
      const body = { query: 'payment retries', strategy, scope: project };
      for (const schema of [upstreamContext.legacy, upstreamContext.widened]) {
        const { ours, upstream } = await readAsUpstream('/context/get', body, schema);
        expect(upstream.rules.map((rule) => rule.scope).sort()).toEqual(['global', 'project']);
        expect(upstream.memories.length).toBeGreaterThanOrEqual(2);
        expect(upstream.workingMemories).toHaveLength(1);
        expect(upstream.skillFiles).toMatchObject([{ path: 'payments/retries.md', scope: 'global' }]);
        expectScopes([...upstream.rules, ...upstream.memories]);
        expect(upstream.trace?.strategy).toBe(legacyName);
        const contract = ContextGetDataSchema.parse(ours);
        expect(contract.trace.retrievalPolicyAppliedStrategy).toBe(strategy);
      }
    },
  );

  it('context/get: trace.strategy names the applied strategy after a fallback, not the requested one', async () => {
    const body = { query: '?!', strategy: 'hybrid', scope: project };
    const { ours, upstream } = await readAsUpstream('/context/get', body, upstreamContext.legacy);
    const { trace } = ContextGetDataSchema.parse(ours);
    expect(trace).toMatchObject({
      semanticStrategyRequested: 'hybrid',
      semanticStrategyApplied: 'lexical',
      retrievalPolicyAppliedStrategy: 'lexical',
    });
    expect(upstream.trace?.strategy).toBe('baseline');
    expect(normalizeStrategy(trace.strategy)).toBe(trace.retrievalPolicyAppliedStrategy);
  });

  it('memories/add: the stored record carries its scope too', async () => {
    const global = await server.post<{ memory: { scope: string } }>('/memories/add', { content: 'Tea, not coffee' });
    const scoped = await server.post<{ memory: { scope: string } }>('/memories/add', {
      content: 'Apollo ships on Fridays',
      scope: project,
    });
    expect([global.memory.scope, scoped.memory.scope]).toEqual(['global', 'project']);
  });

  it('control: without the two fields, upstream fails the parse (the empty lists of the report)', async () => {
    const response = await server.call('POST', '/context/get', { query: 'payments', scope: project });
    const data = structuredClone(response.body.data) as Record<string, any>;
    delete data.rules[0].scope;
    delete data.trace.strategy;
    const parsed = upstreamContext.widened.safeParse(data);
    expect(parsed.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['rules.0.scope', 'trace.strategy']);
  });

  it('upstream d3a2f7f6 reads the two semantic trace fields as strategy names: ours are names too', async () => {
    const response = await server.call('POST', '/context/get', {
      query: 'payments',
      strategy: 'hybrid',
      scope: project,
    });
    const upstream = upstreamContext.semanticNames.parse(response.body.data);
    expect(upstream.trace).toMatchObject({ semanticStrategyRequested: 'hybrid', semanticStrategyApplied: 'hybrid' });
    expect(upstream.rules.length).toBeGreaterThan(0);
  });
});
