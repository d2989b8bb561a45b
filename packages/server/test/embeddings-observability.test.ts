import { MockEmbeddingModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HASH_MODEL_ID } from '../src/embeddings/default-registry.js';
import { EmbeddingProviderError } from '../src/embeddings/embedding-errors.js';
import { DEFAULT_OWNER_ID } from '../src/store/control-store.js';
import { createTestServer, type TestServer } from './harness.js';

const BROKEN_ID = 'test/broken';
const tenantId = 'observed';
let server: TestServer;

beforeAll(async () => {
  const broken = {
    id: BROKEN_ID,
    dimensions: 8,
    local: false,
    costPerMillionTokensUsd: 1,
    model: new MockEmbeddingModelV4({
      doEmbed: async () => {
        throw new EmbeddingProviderError('EMBEDDING_RATE_LIMITED', 'The embedding endpoint answered HTTP 429');
      },
    }),
  };
  server = await createTestServer({ embeddingModel: HASH_MODEL_ID }, undefined, { embeddingModels: [broken] });
  await server.services.control.embeddingConfig.allow(DEFAULT_OWNER_ID, BROKEN_ID);
});
afterAll(async () => {
  await server.close();
});

describe('GET /management/embeddings/observability', () => {
  it('reports queue, worker, backfill, retrieval, cost, SLOs and health from recorded activity', async () => {
    const scope = { tenantId };
    for (const content of ['Kayak trips leave from the pier', 'Bob rents a kayak', 'Taxes are due in April'])
      await server.post('/memories/add', { content, scope });
    for (let index = 0; index < 2; index += 1)
      await server.post('/memories/add', { content: `Rate limited ${index}`, embeddingModel: BROKEN_ID, scope });
    await server.indexed();
    // The broken model was written last, so hybrid embeds the query with it and falls back.
    for (let index = 0; index < 2; index += 1)
      await server.post('/memories/search', { query: 'kayak', strategy: 'hybrid', scope });
    await server.post('/memories/search', { query: 'kayak', strategy: 'lexical', scope });
    const response = await server.call('GET', `/management/embeddings/observability?tenantId=${tenantId}`);
    expect(response.status).toBe(200);
    const data = response.body.data!;
    expect(data.windowHours).toBe(24);
    // The two failed memories keep their index jobs for a retry with backoff.
    expect(data.queue).toEqual({ pending: 2, oldestPendingAgeSeconds: expect.any(Number), indexPending: 2 });
    expect(data.worker).toEqual({
      processed: 3,
      failed: 2,
      errorRate: 0.4,
      topErrorCodes: [{ code: 'EMBEDDING_RATE_LIMITED', count: 2 }],
    });
    expect(data.backfill).toMatchObject({ modelId: HASH_MODEL_ID, total: 5, embedded: 3, remaining: 2, failed: 0 });
    expect(data.retrieval).toMatchObject({ requests: 3, semanticRequests: 2, semanticFallbacks: 2, fallbackRate: 1 });
    expect(data.retrieval.p50LatencyMs).toEqual(expect.any(Number));
    expect(data.retrieval.p95LatencyMs).toBeGreaterThanOrEqual(data.retrieval.p50LatencyMs);
    const hashTokens = ['Kayak trips leave from the pier', 'Bob rents a kayak', 'Taxes are due in April'].reduce(
      (sum, text) => sum + Math.ceil(text.length / 4),
      0,
    );
    expect(data.cost).toEqual({ usageMonth: expect.any(String), tokenCount: hashTokens, estimatedCostUsd: 0 });
    // Two samples are too few to judge rates: SLOs count as met, no alarm, healthy.
    expect(data.slos).toEqual({
      maxFallbackRate: 0.15,
      maxErrorRate: 0.05,
      maxP95LatencyMs: 500,
      fallbackRateMet: true,
      errorRateMet: true,
      latencyMet: true,
    });
    expect(data.alarms).toEqual([]);
    expect(data.health).toBe('healthy');
  });

  it('keeps a history of retrieval per bucket: requests, fallbacks and nearest-rank latency percentiles', async () => {
    const historyTenant = 'retrieval-history';
    const { database } = await server.services.resolver.resolve(DEFAULT_OWNER_ID, historyTenant, new Date());
    const now = Date.now();
    const insert = (minutesAgo: number, semantic: boolean, applied: boolean, latencyMs: number) =>
      database.run(
        `INSERT INTO embedding_retrieval_events (created_at, user_id, project_id, model_id, semantic_requested,
           semantic_applied, fallback_reason, latency_ms) VALUES (?, NULL, NULL, NULL, ?, ?, NULL, ?)`,
        [new Date(now - minutesAgo * 60_000).toISOString(), semantic ? 1 : 0, applied ? 1 : 0, latencyMs],
      );
    // Mid-bucket times, so the moment the server reads its clock cannot move them to a neighbour: 52.5 minutes ago,
    // ten hybrid searches of 10..100 ms, the two slowest fell back; 12.5 minutes ago, one lexical search.
    for (let index = 1; index <= 10; index += 1) await insert(52.5, true, index <= 8, index * 10);
    await insert(12.5, false, false, 4);
    // Three hours ago: outside a two-hour window.
    await insert(180, true, true, 999);
    const data = (
      await server.call('GET', `/management/embeddings/observability?tenantId=${historyTenant}&windowHours=2`)
    ).body.data!;
    // Two hours in 24 five-minute buckets, the last ending now.
    expect(data.history.bucketMinutes).toBe(5);
    expect(data.history.points).toHaveLength(24);
    const busy = data.history.points.flatMap((point: Record<string, unknown>, index: number) =>
      point.requests === 0 ? [] : [{ index, ...point, at: undefined }],
    );
    expect(busy).toEqual([
      {
        index: 13,
        at: undefined,
        requests: 10,
        semanticRequests: 10,
        fallbackRate: 0.2,
        p50LatencyMs: 50,
        p95LatencyMs: 100,
      },
      {
        index: 21,
        at: undefined,
        requests: 1,
        semanticRequests: 0,
        fallbackRate: 0,
        p50LatencyMs: null,
        p95LatencyMs: null,
      },
    ]);
    // The window's own figures agree with the history they are made of.
    expect(data.retrieval).toMatchObject({ requests: 11, semanticRequests: 10, p50LatencyMs: 50, p95LatencyMs: 100 });
  });

  it('raises alarms and a health from breached objectives and a stale queue', async () => {
    const scope = { tenantId };
    for (let index = 0; index < 8; index += 1)
      await server.post('/memories/add', { content: `More rate limits ${index}`, embeddingModel: BROKEN_ID, scope });
    await server.indexed();
    const { database } = await server.services.resolver.resolve(DEFAULT_OWNER_ID, tenantId, new Date());
    const ninetyMinutesAgo = new Date(Date.now() - 90 * 60_000).toISOString();
    await database.run("UPDATE memories SET updated_at = ? WHERE content LIKE 'Rate limited%'", [ninetyMinutesAgo]);
    const data = (await server.call('GET', `/management/embeddings/observability?tenantId=${tenantId}&windowHours=2`))
      .body.data!;
    expect(data.worker).toMatchObject({ processed: 3, failed: 10, errorRate: 0.7692 });
    expect(data.slos).toMatchObject({ errorRateMet: false, fallbackRateMet: true });
    expect(data.alarms.map((alarm: { code: string; severity: string }) => [alarm.code, alarm.severity])).toEqual([
      ['EMBEDDING_ERROR_RATE_HIGH', 'critical'],
      ['EMBEDDING_QUEUE_STALE', 'warning'],
    ]);
    expect(data.alarms[1]).toMatchObject({ threshold: 3600, value: expect.any(Number) });
    expect(data.health).toBe('critical');
    const window = await server.call('GET', `/management/embeddings/observability?windowHours=169`);
    expect(window.status).toBe(400);
  });
});
