import { MockEmbeddingModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HASH_MODEL_ID } from '../src/embeddings/default-registry.js';
import { EmbeddingProviderError } from '../src/embeddings/embedding-errors.js';
import { hashEmbedding } from '../src/embeddings/hash-embedding.js';
import type { EmbeddingModelDefinition } from '../src/embeddings/model-definition.js';
import { DEFAULT_OWNER_ID } from '../src/store/control-store.js';
import { createTestServer, type TestServer } from './harness.js';

type Search = {
  memories: Array<{ id: string; content: string; source: string }>;
  trace: Record<string, unknown>;
};

let server: TestServer;
let queriesFail = false;

beforeAll(async () => {
  const embeddingModels: EmbeddingModelDefinition[] = [];
  embeddingModels.push({
    id: 'test/flaky',
    dimensions: 32,
    local: false,
    costPerMillionTokensUsd: 0,
    model: new MockEmbeddingModelV4({
      doEmbed: async ({ values }) => {
        if (queriesFail) throw new EmbeddingProviderError('EMBEDDING_PROVIDER_TIMEOUT', 'No answer in time');
        return { embeddings: values.map((value) => Array.from(hashEmbedding(value, 32))), warnings: [] };
      },
    }),
  });
  embeddingModels.push({
    id: 'test/never',
    dimensions: 32,
    local: false,
    costPerMillionTokensUsd: 0,
    model: new MockEmbeddingModelV4({
      doEmbed: async () => {
        throw new EmbeddingProviderError('EMBEDDING_PROVIDER_ERROR', 'The embedding endpoint answered HTTP 500');
      },
    }),
  });
  server = await createTestServer({ embeddingModel: HASH_MODEL_ID }, undefined, { embeddingModels });
  for (const modelId of ['test/flaky', 'test/never', 'ghost/missing'])
    await server.services.control.embeddingConfig.allow(DEFAULT_OWNER_ID, modelId);
});
afterAll(async () => {
  await server.close();
});

const search = (tenantId: string, query: string, strategy = 'hybrid') =>
  server.post<Search>('/memories/search', { query, strategy, scope: { tenantId } });

describe('hybrid retrieval falls back to lexical and says why', () => {
  it('when the model errors on the query', async () => {
    const scope = { tenantId: 'flaky' };
    await server.post('/memories/add', {
      content: 'Kayak trips leave from the pier',
      embeddingModel: 'test/flaky',
      scope,
    });
    await server.indexed();
    expect((await search('flaky', 'kayak')).trace).toMatchObject({ appliedStrategy: 'hybrid' });
    queriesFail = true;
    // A question the model has not embedded yet: one asked before reuses its vector and needs no model call.
    const result = await search('flaky', 'kayak trips');
    queriesFail = false;
    expect(result.trace).toMatchObject({
      requestedStrategy: 'hybrid',
      appliedStrategy: 'lexical',
      semanticFallbackTriggered: true,
      semanticFallbackReason: 'embedding_failed',
      embeddingModel: 'test/flaky',
    });
    expect(result.memories.map((memory) => [memory.content, memory.source])).toEqual([
      ['Kayak trips leave from the pier', 'lexical'],
    ]);
  });

  it('when the model is unknown, has no vectors, is not configured, or the query has no words', async () => {
    await server.post('/memories/add', {
      content: 'Ghost note',
      embeddingModel: 'ghost/missing',
      scope: { tenantId: 'ghost' },
    });
    await server.indexed();
    expect((await search('ghost', 'ghost')).trace.semanticFallbackReason).toBe('embedding_model_unavailable');
    await server.post('/memories/add', {
      content: 'Never embedded',
      embeddingModel: 'test/never',
      scope: { tenantId: 'never' },
    });
    await server.indexed();
    expect((await search('never', 'embedded')).trace.semanticFallbackReason).toBe('semantic_index_empty');
    expect((await search('blank', 'anything')).trace.semanticFallbackReason).toBe('embedding_model_not_configured');
    await server.post('/memories/add', { content: 'Hashed note', scope: { tenantId: 'hashed' } });
    await server.indexed();
    expect((await search('hashed', '?!')).trace.semanticFallbackReason).toBe('query_has_no_terms');
  });

  it('reports the same facts in the context/get trace', async () => {
    queriesFail = true;
    const bundle = await server.post<{ trace: Record<string, unknown> }>('/context/get', {
      query: 'kayak pier',
      strategy: 'hybrid',
      scope: { tenantId: 'flaky' },
    });
    queriesFail = false;
    expect(bundle.trace).toMatchObject({
      semanticStrategyRequested: 'hybrid',
      semanticStrategyApplied: 'lexical',
      semanticFallbackTriggered: true,
      semanticFallbackReason: 'embedding_failed',
      retrievalPolicyAppliedStrategy: 'lexical',
    });
  });

  it('applies scope filters to both sides before the cut', async () => {
    const tenantId = 'scoped';
    await server.post('/memories/add', {
      content: 'Alice keeps kayak paddles in the shed',
      scope: { tenantId, userId: 'alice' },
    });
    await server.post('/memories/add', {
      content: 'Bob rents a kayak every summer',
      scope: { tenantId, userId: 'bob' },
    });
    await server.indexed();
    const alice = await server.post<Search>('/memories/search', {
      query: 'kayak paddles',
      strategy: 'hybrid',
      scope: { tenantId, userId: 'alice' },
    });
    expect(alice.trace.appliedStrategy).toBe('hybrid');
    expect(alice.memories.map((memory) => memory.content)).toEqual(['Alice keeps kayak paddles in the shed']);
  });
});
