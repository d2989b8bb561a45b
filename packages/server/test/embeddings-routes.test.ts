import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MockEmbeddingModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SENTENCE_ENCODER_MODEL_ID } from '../src/embedding-models/default-model.js';
import { HASH_MODEL_ID } from '../src/embeddings/default-registry.js';
import { hashEmbedding } from '../src/embeddings/hash-embedding.js';
import type { EmbeddingModelDefinition } from '../src/embeddings/model-definition.js';
import { DEFAULT_OWNER_ID } from '../src/store/control-store.js';
import { monthStart } from '../src/store/embedding-usage.js';
import { createTestServer, type TestServer } from './harness.js';

const MOCK_ID = 'test/mock-16';
const tokensOf = (...texts: string[]) => texts.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0);

/** A paid model for the tests: hash vectors, 5 tokens a text. */
const MOCK_MODEL: EmbeddingModelDefinition = {
  id: MOCK_ID,
  dimensions: 16,
  local: false,
  costPerMillionTokensUsd: 1,
  model: new MockEmbeddingModelV4({
    doEmbed: async ({ values }) => ({
      embeddings: values.map((value) => Array.from(hashEmbedding(value, 16))),
      usage: { tokens: 5 * values.length },
      warnings: [],
    }),
  }),
};

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer({ embeddingModel: HASH_MODEL_ID }, undefined, { embeddingModels: [MOCK_MODEL] });
});
afterAll(async () => {
  await server.close();
});

describe('GET /embeddings/models', () => {
  it('lists models with availability and allowlist, and the workspace default selection', async () => {
    const response = await server.call('GET', '/embeddings/models');
    expect(response.status).toBe(200);
    const models = response.body.data?.models as Array<Record<string, unknown>>;
    expect(models.find((model) => model.id === HASH_MODEL_ID)).toEqual({
      id: HASH_MODEL_ID,
      provider: 'local',
      name: 'hash-384',
      dimensions: 384,
      available: true,
      allowed: true,
      local: true,
      costPerMillionTokensUsd: 0,
      // memories.sh's catalogue fields (additive).
      description: null,
      contextWindow: null,
      pricing: { input: '0' },
      inputCostUsdPerToken: 0,
      tags: ['local'],
    });
    expect(models.find((model) => model.id === SENTENCE_ENCODER_MODEL_ID)).toMatchObject({
      dimensions: 512,
      available: true,
      allowed: false,
      local: true,
    });
    // Listed even without its key or package (then unavailable), so an operator sees what could be configured.
    expect(models.find((model) => model.id === 'openai/text-embedding-3-small')).toMatchObject({
      provider: 'openai',
      dimensions: 1536,
      local: false,
      costPerMillionTokensUsd: 0.02,
      // memories.sh's catalogue fields (additive).
      description: null,
      contextWindow: null,
      pricing: { input: String(0.02 / 1_000_000) },
      inputCostUsdPerToken: 0.02 / 1_000_000,
      tags: [],
      ...(process.env.OPENAI_API_KEY === undefined ? { available: false } : {}),
    });
    expect(response.body.data?.config).toEqual({
      selectedModelId: HASH_MODEL_ID,
      source: 'system_default',
      selectionSource: 'workspace_default',
      workspaceDefaultModelId: HASH_MODEL_ID,
      projectOverrideModelId: null,
      allowlistModelIds: [HASH_MODEL_ID],
    });
  });

  it('resolves a requested model within the allowlist, and a project override', async () => {
    const { embeddingConfig } = server.services.control;
    await embeddingConfig.allow(DEFAULT_OWNER_ID, MOCK_ID);
    await embeddingConfig.setProjectModel(DEFAULT_OWNER_ID, 'alpha', MOCK_ID, new Date());
    const requested = await server.call('GET', `/embeddings/models?embeddingModel=${MOCK_ID}`);
    expect(requested.body.data?.config).toMatchObject({ selectedModelId: MOCK_ID, source: 'request' });
    const project = await server.call('GET', '/embeddings/models?projectId=alpha');
    expect(project.body.data?.config).toMatchObject({
      selectedModelId: MOCK_ID,
      source: 'project',
      selectionSource: 'project_override',
      projectOverrideModelId: MOCK_ID,
    });
    const refused = await server.call('GET', `/embeddings/models?embeddingModel=${SENTENCE_ENCODER_MODEL_ID}`);
    expect(refused.status).toBe(400);
    expect(refused.body.error?.code).toBe('EMBEDDING_MODEL_NOT_ALLOWED');
  });
});

/** Our usage figures with the memories.sh fields the route sends beside them (this month's). */
function withUpstreamFigures<Figures extends { requestCount: number; tokenCount: number; estimatedCostUsd: number }>(
  figures: Figures,
  estimatedRequestCount: number,
) {
  const cost = figures.estimatedCostUsd;
  return {
    ...figures,
    usageMonth: monthStart(new Date()),
    estimatedRequestCount,
    inputTokens: figures.tokenCount,
    gatewayCostUsd: cost,
    marketCostUsd: cost,
    customerCostUsd: cost,
  };
}

describe('GET /management/embeddings/usage', () => {
  it('reports exact figures per tenant, project, model and provider for the month', async () => {
    const tenantId = 'usage-tenant';
    const texts = ['Kayak trips leave from the north pier', 'Bob rents a kayak every summer'];
    // Each memory is indexed before the next is written: one embedding request each.
    for (const content of texts) {
      await server.post('/memories/add', { content, scope: { tenantId, projectId: 'p1' } });
      await server.indexed();
    }
    await server.post('/memories/add', { content: 'Priced memory', scope: { tenantId, projectId: 'alpha' } });
    await server.indexed();
    await server.post('/memories/search', { query: 'kayak', strategy: 'hybrid', scope: { tenantId, projectId: 'p1' } });
    const response = await server.call('GET', `/management/embeddings/usage?tenantId=${tenantId}`);
    expect(response.body.data).toEqual({
      usageMonth: monthStart(new Date()),
      summary: withUpstreamFigures(
        {
          requestCount: 4,
          itemCount: 4,
          tokenCount: tokensOf(...texts, 'kayak') + 5,
          estimatedCostUsd: 0.000005,
        },
        3,
      ),
      breakdown: [
        withUpstreamFigures(
          {
            tenantId,
            projectId: 'p1',
            modelId: HASH_MODEL_ID,
            provider: 'local',
            requestCount: 3,
            itemCount: 3,
            tokenCount: tokensOf(...texts, 'kayak'),
            estimatedCostUsd: 0,
          },
          3,
        ),
        withUpstreamFigures(
          {
            tenantId,
            projectId: 'alpha',
            modelId: MOCK_ID,
            provider: 'test',
            requestCount: 1,
            itemCount: 1,
            tokenCount: 5,
            estimatedCostUsd: 0.000005,
          },
          0,
        ),
      ],
    });
    const project = await server.call('GET', `/management/embeddings/usage?tenantId=${tenantId}&projectId=alpha`);
    expect(project.body.data?.summary).toEqual(
      withUpstreamFigures({ requestCount: 1, itemCount: 1, tokenCount: 5, estimatedCostUsd: 0.000005 }, 0),
    );
    const old = await server.call('GET', `/management/embeddings/usage?tenantId=${tenantId}&usageMonth=2020-03-17`);
    expect(old.body.data).toMatchObject({ usageMonth: '2020-03-01', breakdown: [] });
    expect(old.body.data?.summary.requestCount).toBe(0);
  });
});

describe('management/embeddings/backfill', () => {
  const scope = { tenantId: 'backfill-tenant' };
  const backfill = (body: Record<string, unknown>) =>
    server.post<{ backfill: Record<string, unknown>; batch: Record<string, number> | null; message: string }>(
      '/management/embeddings/backfill',
      { modelId: MOCK_ID, scope, ...body },
    );

  it('runs batches over memories without a vector, and pause/resume persist', async () => {
    for (let index = 0; index < 5; index += 1) await server.post('/memories/add', { content: `Note ${index}`, scope });
    const status = await server.call(
      'GET',
      `/management/embeddings/backfill?tenantId=${scope.tenantId}&modelId=${MOCK_ID}`,
    );
    expect(status.body.data?.backfill).toMatchObject({
      state: 'idle',
      total: 5,
      embedded: 0,
      remaining: 5,
      paused: false,
    });
    expect((await backfill({ action: 'pause' })).backfill).toMatchObject({ state: 'paused', paused: true });
    const whilePaused = await backfill({ action: 'run', batchSize: 2 });
    expect(whilePaused.batch).toEqual({ processed: 0, failed: 0 });
    expect(whilePaused.backfill).toMatchObject({ state: 'paused', remaining: 5 });
    expect((await backfill({ action: 'resume' })).backfill).toMatchObject({ state: 'idle', paused: false });
    const first = await backfill({ action: 'run', batchSize: 2 });
    expect(first.batch).toEqual({ processed: 2, failed: 0 });
    expect(first.backfill).toMatchObject({ state: 'running', embedded: 2, remaining: 3, lastError: null });
    expect(first.backfill.lastRunAt).toEqual(expect.any(String));
    await backfill({ action: 'run', batchSize: 2 });
    const last = await backfill({ action: 'run', batchSize: 2 });
    expect(last.batch).toEqual({ processed: 1, failed: 0 });
    expect(last.backfill).toMatchObject({ state: 'completed', embedded: 5, remaining: 0 });
    const invalid = await server.call('POST', '/management/embeddings/backfill', { action: 'run', batchSize: 501 });
    expect(invalid.status).toBe(400);
    const refused = await server.call('POST', '/management/embeddings/backfill', {
      action: 'run',
      modelId: SENTENCE_ENCODER_MODEL_ID,
      scope,
    });
    expect(refused.body.error?.code).toBe('EMBEDDING_MODEL_NOT_ALLOWED');
  });

  it('keeps the paused state across a restart', async () => {
    const restartScope = { tenantId: 'restart-tenant' };
    const directory = mkdtempSync(path.join(tmpdir(), 'memory-backfill-restart-'));
    try {
      const first = await createTestServer({ embeddingModel: HASH_MODEL_ID }, directory, {
        embeddingModels: [MOCK_MODEL],
      });
      await first.services.control.embeddingConfig.allow(DEFAULT_OWNER_ID, MOCK_ID);
      await first.post('/memories/add', { content: 'Survives restarts', scope: restartScope });
      await first.post('/management/embeddings/backfill', { action: 'pause', modelId: MOCK_ID, scope: restartScope });
      await first.close();
      const second = await createTestServer({ embeddingModel: HASH_MODEL_ID }, directory, {
        embeddingModels: [MOCK_MODEL],
      });
      const run = await second.post<{ batch: unknown; backfill: Record<string, unknown> }>(
        '/management/embeddings/backfill',
        { action: 'run', modelId: MOCK_ID, scope: restartScope },
      );
      expect(run.batch).toEqual({ processed: 0, failed: 0 });
      expect(run.backfill).toMatchObject({ state: 'paused', remaining: 1 });
      await second.close();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
